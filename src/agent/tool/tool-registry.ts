import type { Identifier } from "../../util/identifier.js";
import type { AnyTool, Tool } from "./tool.js";
import { ToolType } from "./tool-type.js";

/** All tools of one engine by type id. Refuses duplicate types, duplicate instances and bad reasoning flags. */
export class ToolRegistry {
  /** ToolRegistry.Type of the seeds. */
  static readonly Type = ToolType;

  readonly #tools = new Map<string, AnyTool>();
  #frozen = false;

  /** Registers a tool; registering the very same instance again is a no-op (shared tools). */
  register<I, O>(tool: Tool<I, O>): void {
    if (this.check(tool)) this.#tools.set(tool.id.toString(), tool as unknown as AnyTool);
  }

  /**
   * Throws what `register` would refuse, without registering; returns false when this very instance is already
   * registered. Lets a module validate all its tools before it registers any of them.
   */
  check<I, O>(tool: Tool<I, O>): boolean {
    const key = tool.id.toString();
    const existing = this.#tools.get(key);
    const entry = tool as unknown as AnyTool;
    if (existing === entry) return false;
    if (this.#frozen) throw new Error(`tool registry is frozen; cannot register ${key}`);
    if (existing !== undefined)
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

  get(id: Identifier | string): AnyTool | undefined {
    return this.#tools.get(id.toString());
  }

  has(id: Identifier | string): boolean {
    return this.#tools.has(id.toString());
  }

  values(): AnyTool[] {
    return [...this.#tools.values()];
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

const hasObjectSchema = (tool: AnyTool): boolean => {
  try {
    return tool.type.input.jsonSchema().type === "object";
  } catch {
    return false;
  }
};
