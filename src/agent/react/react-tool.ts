import type { Json } from "../../util/codec.js";
import type { ToolContext } from "../tool/tool-context.js";
import type { AnyToolType, ToolType } from "../tool/tool-type.js";

/** Runs one decoded action; the default calls the wrapped tool through the loop's ToolContext. */
export type ReActHandler<I, O> = (input: I, tools: ToolContext) => Promise<O>;

/** Method signatures (not function properties) so a catalog can hold tools of any input and output types. */
interface ReActToolState<I, O> {
  readonly description: string;
  dedupeKey(input: I): string;
  projection(output: O, input: I): Json;
  handler?(input: I, tools: ToolContext): Promise<O>;
  readonly uses: readonly AnyToolType[];
}

/**
 * One action a ReAct loop may offer the model: the type (id, input and output codecs), an English description,
 * a dedupe key (same key = same action, never run twice) and the projection of its result for the model.
 * Immutable; each `with…` method returns a new ReActTool.
 */
export class ReActTool<I, O> {
  private constructor(
    readonly type: ToolType<I, O>,
    private readonly state: ReActToolState<I, O>,
  ) {}

  /** Wraps a tool type; its calls go through `tools.call(type, input)`, so it is offered only when that is allowed. */
  static of<I, O>(type: ToolType<I, O>, description: string): ReActTool<I, O> {
    if (description.trim().length === 0) throw new Error(`react tool ${type.id}: needs a description`);
    return new ReActTool(type, {
      description,
      dedupeKey: (input) => canonicalJson(type.input.encode(input)),
      projection: (output) => type.output.encode(output),
      uses: [type as unknown as AnyToolType],
    });
  }

  get id(): string {
    return this.type.id.toString();
  }

  get description(): string {
    return this.state.description;
  }

  /** The tool types this action calls; it is offered only when the loop's ToolContext holds all of them. */
  get uses(): readonly AnyToolType[] {
    return this.state.uses;
  }

  /** A custom action: `handler` calls `tools.call(...)` for the tools it `uses` (none offered outside the catalog). */
  withHandler(handler: ReActHandler<I, O>, uses: readonly AnyToolType[]): ReActTool<I, O> {
    return new ReActTool(this.type, { ...this.state, handler, uses });
  }

  /** Two inputs with the same key are the same action (e.g. a normalised search query). */
  withDedupeKey(dedupeKey: (input: I) => string): ReActTool<I, O> {
    return new ReActTool(this.type, { ...this.state, dedupeKey });
  }

  /** What the model sees of a result (e.g. a trimmed summary); the typed result is kept as is. */
  withProjection(projection: (output: O, input: I) => Json): ReActTool<I, O> {
    return new ReActTool(this.type, { ...this.state, projection });
  }

  /** The action key: tool id plus dedupe key. */
  actionKey(input: I): string {
    return `${this.id}\u0000${this.state.dedupeKey(input)}`;
  }

  project(output: O, input: I): Json {
    return this.state.projection(output, input);
  }

  /** Runs the action through the loop's ToolContext. */
  run(input: I, tools: ToolContext): Promise<O> {
    return this.state.handler === undefined ? tools.call(this.type, input) : this.state.handler(input, tools);
  }

  /** The catalog entry shown to the model. */
  describe(): { readonly [key: string]: Json } {
    return { type: this.id, description: this.description, input: this.type.input.jsonSchema() as Json };
  }
}

/** Any ReActTool, for catalogs. */
export type AnyReActTool = ReActTool<unknown, unknown>;

/** JSON with sorted object keys, so equal inputs give equal dedupe keys whatever the key order. */
export const canonicalJson = (value: Json): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`).join(",")}}`;
};
