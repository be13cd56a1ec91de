import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { ExecutionContext } from "../execution/execution-context.js";
import type { AnyTool } from "./tool.js";
import type { AnyToolType, ToolType } from "./tool-type.js";

/**
 * The tools of one loop (the seed's ToolContext): a frozen map type → handler → owner taken when the loop starts,
 * with its own step-id prefix. A reload during the loop cannot swap a handler it calls. Calls still go through
 * ExecutionContext.tool, so budgets and permissions stay in one place; the owners of the tools it called are
 * remembered, so the loop can check them all again before its answer (`checkUsed`).
 */
export class ToolContext {
  readonly #types: ReadonlyMap<string, AnyToolType>;
  readonly #tools: ReadonlyMap<string, AnyTool>;
  readonly #owners: ReadonlyMap<string, string | undefined>;
  /** The owners (features) of the tools this loop called. */
  readonly #used = new Set<string>();
  #sequence = 0;

  private constructor(
    private readonly context: ExecutionContext,
    tools: ReadonlyMap<string, AnyTool>,
    readonly prefix: string,
  ) {
    this.#tools = tools;
    this.#types = new Map([...tools].map(([id, tool]) => [id, tool.type]));
    this.#owners = new Map([...tools].map(([id, tool]) => [id, tool.owner?.toString()]));
  }

  /** Freezes the usable subset of `types` for a loop, with their handlers; types the player cannot use now are left out. */
  static create(
    context: ExecutionContext,
    types: readonly AnyToolType[],
    prefix: string,
    resolve: (id: string) => AnyTool | undefined,
  ): ToolContext {
    const tools = new Map<string, AnyTool>();
    for (const type of types) {
      if (!context.canUse(type)) continue;
      const tool = resolve(type.id.toString());
      if (tool !== undefined && tool.type === type) tools.set(type.id.toString(), tool);
    }
    return new ToolContext(context, tools, prefix);
  }

  types(): AnyToolType[] {
    return [...this.#types.values()];
  }

  has(id: string): boolean {
    return this.#types.has(id);
  }

  get(id: string): AnyToolType | undefined {
    return this.#types.get(id);
  }

  /** Calls a tool of this context, with the handler frozen at the loop's start, under the next step id. */
  async call<I, O>(type: ToolType<I, O>, input: I): Promise<O> {
    const id = type.id.toString();
    const tool = this.#tools.get(id);
    if (tool === undefined || tool.type !== (type as unknown))
      throw new AgentException(AgentFailure.TOOL_NOT_ALLOWED.with(id));
    const owner = this.#owners.get(id);
    if (owner !== undefined && !this.context.features.has(owner))
      throw new AgentException(AgentFailure.MODULE_DISABLED.with(owner));
    if (owner !== undefined) this.#used.add(owner);
    this.#sequence++;
    return this.context.tool(type, `${this.prefix}/${this.#sequence}`, input, tool);
  }

  /**
   * Throws MODULE_DISABLED when the feature of any tool this loop called was switched off for the player since:
   * what that tool returned must not reach the answer.
   */
  checkUsed(): void {
    for (const owner of this.#used)
      if (!this.context.features.has(owner))
        throw new AgentException(AgentFailure.MODULE_DISABLED.with(owner));
  }
}
