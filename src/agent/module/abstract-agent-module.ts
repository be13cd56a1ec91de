import type { Identifier } from "../../util/identifier.js";
import type { AgentResult } from "../agent-result.js";
import type { ExecutionContext } from "../execution/execution-context.js";
import type { ExecutionPolicy } from "../execution/execution-policy.js";
import { defaultPolicyFor } from "../execution/policy-defaults.js";
import type { AnyTool } from "../tool/tool.js";
import type { AnyToolType } from "../tool/tool-type.js";
import type { ActionType } from "./action-type.js";
import type { AgentModule } from "./agent-module.js";
import { ModuleRouting } from "./module-routing.js";
import { inferredWrites, type ModuleWrites } from "./module-writes.js";

export interface AgentModuleOptions<I> {
  readonly action: ActionType<I>;
  readonly description: string;
  readonly tools?: readonly AnyTool[];
  readonly optionalTools?: readonly AnyToolType[];
  readonly policy?: ExecutionPolicy;
  /** What the workflow changes; when absent, a write budget or a write tool make it `replayable`, else `none`. */
  readonly writes?: ModuleWrites;
  readonly interactive?: boolean;
  readonly event?: boolean;
  readonly eventTypes?: readonly string[];
  /** A rule-started task receives the game event as `event` in its input. */
  readonly eventInput?: boolean;
  readonly owner?: Identifier;
  /** Entry points; subclasses may override `routing()` instead. */
  readonly routing?: ModuleRouting<I>;
}

/** The shared part of a workflow: id, schema and tool whitelist; subclasses implement `run`. */
export abstract class AbstractAgentModule<I> implements AgentModule<I> {
  readonly id: Identifier;
  readonly description: string;
  readonly action: ActionType<I>;
  readonly tools: readonly AnyTool[];
  readonly optionalTools: readonly AnyToolType[];
  readonly policy: ExecutionPolicy;
  readonly writes: ModuleWrites;
  readonly interactive: boolean;
  readonly event: boolean;
  readonly eventTypes: readonly string[];
  readonly eventInput: boolean;
  readonly owner: Identifier | undefined;
  readonly #routing: ModuleRouting<I>;

  protected constructor(options: AgentModuleOptions<I>) {
    this.id = options.action.id;
    this.description = options.description;
    this.action = options.action;
    this.tools = (options.tools ?? []) as readonly AnyTool[];
    this.optionalTools = (options.optionalTools ?? []) as readonly AnyToolType[];
    this.policy = options.policy ?? defaultPolicyFor(options.action.id.toString());
    this.writes = options.writes ?? inferredWrites(this.policy, this.tools);
    this.interactive = options.interactive ?? true;
    this.event = options.event ?? false;
    this.eventTypes = options.eventTypes ?? [];
    this.eventInput = options.eventInput ?? false;
    this.owner = options.owner;
    this.#routing = options.routing ?? ModuleRouting.defaults<I>();
  }

  /** The declared entry points (ModuleRouting); read once at registration. */
  routing(): ModuleRouting<I> {
    return this.#routing;
  }

  abstract run(input: I, context: ExecutionContext): Promise<AgentResult>;
}
