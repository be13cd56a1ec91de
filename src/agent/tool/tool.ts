import type { Identifier } from "../../util/identifier.js";
import type { ToolType } from "./tool-type.js";

/** What a handler knows about the call it serves. Services come from the tool's constructor, not from here. */
export interface ToolScope {
  readonly playerId: string;
  readonly locale: string;
  readonly stepId: string;
  readonly signal: AbortSignal;
  /** True when the call runs inside a durable event task rather than a player request. */
  readonly event: boolean;
  /** The player request this call belongs to (per-request state such as a search session is keyed on it). */
  readonly requestId?: string;
}

/**
 * A tool's behaviour. Declared with method syntax so that a typed tool is assignable to `AnyTool`
 * (collections of tools of different types); the codec still validates every input before the call.
 */
export type ToolHandler<I, O> = { handle(input: I, scope: ToolScope): Promise<O> }["handle"];

interface ToolFlags {
  readonly readOnly: boolean;
  readonly idempotent: boolean;
  readonly allowedInEvents: boolean;
  readonly owner: Identifier | undefined;
  readonly reasoning: string | undefined;
  readonly settlesOnAbort: boolean;
  readonly ownOutput: boolean;
}

/**
 * One tool: one type, one handler, one behaviour. Immutable; each flag method returns a new tool.
 * Write tools are the default; mark read-only tools explicitly.
 */
export class Tool<I, O> {
  private constructor(
    readonly type: ToolType<I, O>,
    readonly handler: ToolHandler<I, O>,
    private readonly flags: ToolFlags,
  ) {}

  static of<I, O>(type: ToolType<I, O>, handler: ToolHandler<I, O>): Tool<I, O> {
    return new Tool(type, handler, {
      readOnly: false,
      idempotent: false,
      allowedInEvents: false,
      owner: undefined,
      reasoning: undefined,
      settlesOnAbort: false,
      ownOutput: false,
    });
  }

  get id(): Identifier {
    return this.type.id;
  }
  get readOnly(): boolean {
    return this.flags.readOnly;
  }
  /** Read-only tools are idempotent by nature. */
  get idempotent(): boolean {
    return this.flags.idempotent || this.flags.readOnly;
  }
  get allowedInEvents(): boolean {
    return this.flags.allowedInEvents;
  }
  /** The feature (ServerModule) that owns this tool; undefined for infrastructure. */
  get owner(): Identifier | undefined {
    return this.flags.owner;
  }
  /** The English description offered to reasoning, when declared with `forReasoning`. */
  get reasoningDescription(): string | undefined {
    return this.flags.reasoning;
  }

  /**
   * The handler itself ends soon after its signal aborts (shutdown or the request's deadline) and says what
   * happened: a refusal without effect when it changed nothing yet. The call is then awaited rather than raced,
   * so a write step that never began its effect is not left RUNNING (unknown) by a shutdown.
   */
  get settlesOnAbort(): boolean {
    return this.flags.settlesOnAbort;
  }

  /**
   * A read-only handler whose output is System's own typed value, built in this process from its own data (no
   * extension, network or file in between): a call returns it as it is instead of decoding it again with the
   * type's output codec, and is not raced against the deadline (nothing in it waits; the deadline is checked when it
   * returns). Write tools are always decoded (a replayed step's output comes from storage).
   */
  get ownOutput(): boolean {
    return this.flags.ownOutput && this.flags.readOnly;
  }

  asReadOnly(): Tool<I, O> {
    return this.#with({ readOnly: true });
  }
  asIdempotent(): Tool<I, O> {
    return this.#with({ idempotent: true });
  }
  allowInEvents(): Tool<I, O> {
    return this.#with({ allowedInEvents: true });
  }
  /** See `settlesOnAbort`. */
  settlingOnAbort(): Tool<I, O> {
    return this.#with({ settlesOnAbort: true });
  }
  /** See `ownOutput`. */
  withOwnOutput(): Tool<I, O> {
    return this.#with({ ownOutput: true });
  }
  ownedBy(owner: Identifier): Tool<I, O> {
    return this.#with({ owner });
  }
  /** Declares the tool for the reasoning catalog; refused at registration unless read-only with a schema codec. */
  forReasoning(description: string): Tool<I, O> {
    return this.#with({ reasoning: description });
  }

  #with(change: Partial<ToolFlags>): Tool<I, O> {
    return new Tool(this.type, this.handler, { ...this.flags, ...change });
  }

  toString(): string {
    return `tool ${this.type.id}`;
  }
}

export type AnyTool = Tool<unknown, unknown>;
