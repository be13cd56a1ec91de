import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { ExecutionContext } from "../execution/execution-context.js";
import type { AnyTool } from "./tool.js";
import type { AnyToolType, ToolType } from "./tool-type.js";

/**
 * The tools of one loop: a frozen map type → handler → owner taken when the loop starts, with its own step-id
 * prefix. Calls still go through ExecutionContext.tool, so budgets and permissions stay in one place.
 */
export class ToolContext {
  readonly #types: ReadonlyMap<string, AnyToolType>;
  readonly #owners: ReadonlyMap<string, string | undefined>;
  #sequence = 0;

  private constructor(
    private readonly context: ExecutionContext,
    types: readonly AnyToolType[],
    owners: ReadonlyMap<string, string | undefined>,
    readonly prefix: string,
  ) {
    this.#types = new Map(types.map((type) => [type.id.toString(), type]));
    this.#owners = owners;
  }

  /** Freezes the usable subset of `types` for a loop; types the player cannot use now are left out. */
  static create(
    context: ExecutionContext,
    types: readonly AnyToolType[],
    prefix: string,
    resolve: (id: string) => AnyTool | undefined,
  ): ToolContext {
    const usable = types.filter((type) => context.canUse(type));
    const owners = new Map(
      usable.map((type) => [type.id.toString(), resolve(type.id.toString())?.owner?.toString()]),
    );
    return new ToolContext(context, usable, owners, prefix);
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

  /** Calls a tool of this context with the next step id of its prefix. */
  async call<I, O>(type: ToolType<I, O>, input: I): Promise<O> {
    const id = type.id.toString();
    if (this.#types.get(id) !== (type as unknown))
      throw new AgentException(AgentFailure.TOOL_NOT_ALLOWED.with(id));
    const owner = this.#owners.get(id);
    if (owner !== undefined && !this.context.features.has(owner))
      throw new AgentException(AgentFailure.MODULE_DISABLED.with(owner));
    this.#sequence++;
    return this.context.tool(type, `${this.prefix}/${this.#sequence}`, input);
  }
}
