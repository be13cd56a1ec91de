import type { Identifier } from "../../util/identifier.js";
import type { AgentResult } from "../agent-result.js";
import type { ExecutionContext } from "../execution/execution-context.js";
import type { ExecutionPolicy } from "../execution/execution-policy.js";
import type { AnyTool } from "../tool/tool.js";
import type { AnyToolType } from "../tool/tool-type.js";
import type { ActionType } from "./action-type.js";
import type { ModuleRouting } from "./module-routing.js";
import type { ModuleWrites } from "./module-writes.js";

/** A workflow: one capability with an input codec, a policy and a tool whitelist. */
export interface AgentModule<I> {
  readonly id: Identifier;
  /** English, one line; shown to the model router and in help. */
  readonly description: string;
  readonly action: ActionType<I>;
  /** Required tools: registered with the module and always callable by it. */
  readonly tools: readonly AnyTool[];
  /** Optional read-only tool types exported by other features; callable only while that feature is enabled. */
  readonly optionalTools: readonly AnyToolType[];
  /** The module default policy (config may override it with a full object). */
  readonly policy: ExecutionPolicy;
  /**
   * What the workflow changes (see ModuleWrites): decides direct routes, model catalogs of reads, answer sharing
   * and the replay cache. A workflow that changes anything, through a tool or not, must not declare `none`.
   */
  readonly writes: ModuleWrites;
  /** Runs for players' interactive requests. */
  readonly interactive: boolean;
  /** Runs as durable event tasks. */
  readonly event: boolean;
  /** Event types this module handles (validated at engine start). */
  readonly eventTypes: readonly string[];
  /** A rule-started task receives the game event (`{type, …data}`) as `event` in its input. */
  readonly eventInput?: boolean;
  /** The owning feature (ServerModule) id; undefined for infrastructure workflows. */
  readonly owner: Identifier | undefined;
  /** True when the workflow cannot answer without a model (a model loop): unavailable to players who may not call one. */
  readonly requiresModel?: boolean;
  run(input: I, context: ExecutionContext): Promise<AgentResult>;
  /**
   * An event workflow whose run ended with its effect unknown: the admin checked and marked it done
   * (`/system deliveries done`), so the effect happened. The module settles its own records (an order DELIVERED, a
   * claim delivered); it must be idempotent, as a crash may repeat it.
   */
  effectConfirmed?(input: I, playerId: string): Promise<void>;
  /**
   * How this workflow's stored answer reads when the replay cache gives it again (a repeat within the window):
   * what the workflow would say now without announcing its effect as new (a check-in: "already checked in
   * today"). Absent: the stored answer itself; either way every surface marks it as a repeat.
   */
  replayed?(stored: AgentResult): AgentResult;
  /** Entry points (commands, semantic samples, shortcuts, model selection); absent means `defaults()` with none. */
  routing?(): ModuleRouting<I>;
}

export type AnyAgentModule = AgentModule<unknown>;
