import type { Identifier } from "../../util/identifier.js";
import type { AnyTool, Tool } from "./tool.js";
import { ToolType } from "./tool-type.js";

/**
 * All tools of one engine by type id. Refuses duplicate types, duplicate instances and bad reasoning flags. One
 * type may have several configurations, one per owning feature (two check-in features each give items their
 * way): `get(id, features)` picks the one a player has.
 */
export class ToolRegistry {
  /** ToolRegistry.Type of the seeds. */
  static readonly Type = ToolType;

  /** Instances by type id, first registered first. */
  readonly #tools = new Map<string, AnyTool[]>();
  #frozen = false;

  /** Registers a tool; registering the very same instance again is a no-op (shared tools). */
  register<I, O>(tool: Tool<I, O>): void {
    if (!this.check(tool)) return;
    const key = tool.id.toString();
    this.#tools.set(key, [...(this.#tools.get(key) ?? []), tool as unknown as AnyTool]);
  }

  /**
   * Throws what `register` would refuse, without registering; returns false when this very instance is already
   * registered. Lets a module validate all its tools before it registers any of them.
   */
  check<I, O>(tool: Tool<I, O>): boolean {
    const key = tool.id.toString();
    const existing = this.#tools.get(key) ?? [];
    const entry = tool as unknown as AnyTool;
    if (existing.includes(entry)) return false;
    if (this.#frozen) throw new Error(`tool registry is frozen; cannot register ${key}`);
    if (this.conflicts(entry))
      throw new Error(`tool type ${key} is already registered with another instance`);
    if (tool.reasoningDescription !== undefined) {
      if (!tool.readOnly) throw new Error(`tool ${key}: forReasoning is only for read-only tools`);
      if (!hasObjectSchema(entry))
        throw new Error(`tool ${key}: forReasoning needs an input codec with a JSON schema`);
      if (tool.reasoningDescription.trim().length === 0)
        throw new Error(`tool ${key}: forReasoning needs a description`);
    }
    return true;
  }

  /** Whether `configure` would take this tool: its type is registered and the tool has an owner. */
  configurable(tool: AnyTool): boolean {
    const instances = this.#tools.get(tool.id.toString());
    return tool.owner !== undefined && instances !== undefined && instances[0]?.type === tool.type;
  }

  /**
   * Replaces the instance of the tool's owner (or adds it as another configuration) after start: a reload that
   * changed a feature's config. Refused unless `configurable`.
   */
  configure(tool: AnyTool): void {
    if (!this.configurable(tool)) throw new Error(`tool ${tool.id} cannot be configured again`);
    const instances = this.#tools.get(tool.id.toString()) ?? [];
    if (instances.includes(tool)) return;
    const index = instances.findIndex((other) => other.owner?.equals(tool.owner as Identifier));
    if (index < 0) instances.push(tool);
    else instances[index] = tool;
  }

  /** Whether another instance of this type is registered that is not a configuration of another owner. */
  conflicts(tool: AnyTool): boolean {
    return (this.#tools.get(tool.id.toString()) ?? []).some(
      (other) =>
        other !== tool &&
        !(
          other.type === tool.type &&
          other.owner !== undefined &&
          tool.owner !== undefined &&
          !other.owner.equals(tool.owner)
        ),
    );
  }

  /**
   * The tool of a type: with `features`, the configuration whose owner the player has enabled (an unowned one
   * always); without, the first registered.
   */
  get(id: Identifier | string, features?: ReadonlySet<string>): AnyTool | undefined {
    const instances = this.#tools.get(id.toString());
    if (features === undefined) return instances?.[0];
    return instances?.find((tool) => tool.owner === undefined || features.has(tool.owner.toString()));
  }

  has(id: Identifier | string): boolean {
    return this.#tools.has(id.toString());
  }

  /** One instance per type (the first registered). */
  values(): AnyTool[] {
    return [...this.#tools.values()].map((instances) => instances[0] as AnyTool);
  }

  /** Every registered instance, configurations of one type included. */
  instances(): AnyTool[] {
    return [...this.#tools.values()].flat();
  }

  /** The read-only tools declared with `forReasoning`. */
  reasoningTools(): AnyTool[] {
    return this.values().filter((tool) => tool.reasoningDescription !== undefined);
  }

  freeze(): void {
    this.#frozen = true;
  }

  get frozen(): boolean {
    return this.#frozen;
  }
}

/** Reading installed tools without registering any (what a feature may see of the registry). */
export type ToolLookup = Pick<ToolRegistry, "get" | "has" | "values" | "instances" | "reasoningTools">;

const hasObjectSchema = (tool: AnyTool): boolean => {
  try {
    return tool.type.input.jsonSchema().type === "object";
  } catch {
    return false;
  }
};
