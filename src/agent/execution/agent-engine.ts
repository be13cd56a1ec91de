import { type Logger, silentLogger } from "../../util/logger.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import type { Failure } from "../failure.js";
import type { ModelPort } from "../model/model-client.js";
import type { AgentAction } from "../module/action-type.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import { ModuleRegistry } from "../module/module-registry.js";
import { RoutingTable } from "../routing/routing-table.js";
import type { SlotRecognizer } from "../routing/text-analyzer.js";
import type { StepRunner } from "../storage/step-runner.js";
import { observedStepRunner } from "../telemetry/observed-ports.js";
import { budgetAttributes, NO_SPAN, NO_TELEMETRY, type Telemetry } from "../telemetry/telemetry.js";
import type { AnyTool } from "../tool/tool.js";
import { ToolRegistry } from "../tool/tool-registry.js";
import type { AgentConfig } from "./agent-config.js";
import type { BudgetCounters } from "./budget-counters.js";
import {
  type DeclaredTools,
  ExecutionContext,
  type HistoryTurn,
  type ModelActivity,
} from "./execution-context.js";
import { EXECUTION_POLICY_CODEC, type ExecutionPolicy } from "./execution-policy.js";
import type { Standing } from "./standing.js";

/** Who asks and under which standing; the executors build this for each request. */
export interface ExecutionRequest {
  readonly requestId: string;
  readonly playerId: string;
  readonly locale: string;
  /** Features enabled for this player now (the permission snapshot). */
  readonly features: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  /** The platform permission level (0 player … 4 owner). */
  readonly permissionLevel?: number;
  readonly event?: boolean;
  /** The player's live standing (permissions now); fixed at admission when absent. */
  readonly standing?: Standing;
  /** Recent conversation turns for prompts (the executor reads them only when history is on). */
  readonly history?: readonly HistoryTurn[];
  /** Told of every model call (a host shows progress while one waits long). */
  readonly modelActivity?: ModelActivity;
  /** A persisted policy (event recovery); otherwise the current config snapshot is taken. */
  readonly policy?: ExecutionPolicy;
  /** Counters already charged for this request (by routing); the workflow continues on them. */
  readonly counters?: BudgetCounters;
  /** The owner whose configuration runs (a durable task keeps the one it was queued under); else the player's. */
  readonly owner?: string;
  /** Called with the context once it exists (executors keep it for cancellation). */
  readonly onContext?: (context: ExecutionContext) => void;
  /** Runs this request's write steps (a claimed run's fenced journal); the engine's own when absent. */
  readonly steps?: StepRunner;
}

/** Runs installed workflows nested in a running request (free chat's catalog); the engine provides it. */
export interface NestedWorkflows {
  /**
   * Runs one interactive workflow inside `parent` under the same counters and deadline; never throws. Refused
   * (TOOL_NOT_ALLOWED): structured-only workflows (they need a click), the parent's own workflow, and nesting
   * deeper than one level.
   */
  runNested(
    moduleId: string,
    input: unknown,
    parent: ExecutionContext,
    stepPrefix: string,
  ): Promise<AgentResult>;
}

/** How deep workflows may nest: a request's workflow may run others, which may not run any themselves. */
export const MAX_NESTING = 1;

export interface AgentEngineOptions {
  readonly config?: AgentConfig;
  readonly model?: ModelPort;
  readonly steps?: StepRunner;
  readonly logger?: Logger;
  readonly now?: () => number;
  /** Marks argument mentions (item names) for local semantic routing; none without it. */
  readonly slots?: SlotRecognizer;
  /**
   * Whether an error a workflow threw says a store below the engine is unreachable for now (a network's database
   * restarting): the player is told STORAGE_UNAVAILABLE, to try again, instead of MODULE_FAILED.
   */
  readonly isStorageUnavailable?: (error: unknown) => boolean;
  /** Records requests, tool calls and journal steps (wrap `model` with `observedModelPort` for model calls). */
  readonly telemetry?: Telemetry;
}

/** The engine: registration, start, and one entry point to run any workflow under its policy. */
export class AgentEngine implements NestedWorkflows {
  readonly tools = new ToolRegistry();
  readonly #modules: ModuleRegistry<RoutingTable>;
  readonly #eventTypes = new Set<string>();
  readonly #logger: Logger;
  #started = false;
  readonly #model: ModelPort | undefined;
  readonly #steps: StepRunner | undefined;
  readonly #telemetry: Telemetry;

  constructor(private readonly options: AgentEngineOptions = {}) {
    this.#modules = new ModuleRegistry(this.tools, new RoutingTable(options.slots));
    this.#logger = options.logger ?? silentLogger;
    this.#model = options.model;
    this.#steps = options.steps;
    this.#telemetry = options.telemetry ?? NO_TELEMETRY;
  }

  /** What requests record (the assembly's pipeline and executors share it). */
  get telemetry(): Telemetry {
    return this.#telemetry;
  }

  modules(): ModuleRegistry<RoutingTable> {
    return this.#modules;
  }

  get started(): boolean {
    return this.#started;
  }

  /** Installs a tool that no workflow owns (a ToolModule export). */
  registerTool(tool: AnyTool): void {
    if (this.#started) throw new Error(`engine has started; cannot register tool ${tool.id}`);
    this.tools.register(tool);
  }

  registerModule(module: AnyAgentModule): void {
    if (this.#started) throw new Error(`engine has started; cannot register module ${module.id}`);
    this.#modules.register(module);
  }

  registerEventType(id: string): void {
    if (this.#started) throw new Error(`engine has started; cannot register event type ${id}`);
    this.#eventTypes.add(id);
  }

  hasEventType(id: string): boolean {
    return this.#eventTypes.has(id);
  }

  /** Validates policies and event references, then freezes every registry. */
  start(): void {
    if (this.#started) return;
    for (const module of this.#modules.values()) {
      const own = EXECUTION_POLICY_CODEC.decode(module.policy);
      if (!own.success) throw new Error(`module ${module.id}: invalid default policy (${own.error})`);
      this.#policyFor(module);
      for (const type of module.eventTypes)
        if (!this.#eventTypes.has(type))
          throw new Error(`module ${module.id} handles unknown event type ${type}`);
      if (module.event && module.eventTypes.length === 0)
        throw new Error(`event module ${module.id} declares no event types`);
      for (const optional of module.optionalTools) {
        const tool = this.tools.get(optional.id);
        if (tool !== undefined && !tool.readOnly)
          throw new Error(`module ${module.id}: optional ${optional.id} is a write tool`);
        if (tool !== undefined && tool.type !== optional)
          throw new Error(
            `module ${module.id}: optional ${optional.id} does not match the installed tool type`,
          );
      }
    }
    this.tools.freeze();
    this.#modules.freeze();
    this.#started = true;
  }

  /** Whether an error says the storage cannot be reached now (the network's database down): try again later. */
  isStorageUnavailable(error: unknown): boolean {
    return !(error instanceof AgentException) && this.options.isStorageUnavailable?.(error) === true;
  }

  /** The policy a new request of this workflow gets now (config override or module default). */
  policyOf(module: AnyAgentModule): ExecutionPolicy {
    return this.#policyFor(module);
  }

  /** The declared tools of a module as an ExecutionContext sees them. */
  declaredTools(module: AnyAgentModule): DeclaredTools {
    return {
      required: new Map(module.tools.map((tool) => [tool.id.toString(), tool])),
      optional: new Set(module.optionalTools.map((type) => type.id.toString())),
      lookup: (id, features) => this.tools.get(id, features),
    };
  }

  /** Creates the context of one request: permission and policy are selected once, here. */
  createContext(module: AnyAgentModule, request: ExecutionRequest): ExecutionContext {
    const policy = request.policy ?? this.#policyFor(module);
    const shared =
      request.counters === undefined
        ? undefined
        : {
            counters: request.counters,
            deadline: (this.options.now ?? Date.now)() + policy.ttlMillis,
            stepPrefix: "",
          };
    return new ExecutionContext(
      {
        requestId: request.requestId,
        playerId: request.playerId,
        locale: request.locale,
        workflow: module.id.toString(),
        owner: module.owner?.toString(),
        features: request.features,
        permissionLevel: request.permissionLevel ?? 0,
        policy,
        tools: this.declaredTools(module),
        model: this.#model,
        steps: this.#observedSteps(request.steps ?? this.#steps),
        telemetry: this.#telemetry,
        signal: request.signal,
        event: request.event ?? false,
        standing: request.standing,
        ...(request.history === undefined ? {} : { history: request.history }),
        ...(request.modelActivity === undefined ? {} : { modelActivity: request.modelActivity }),
        ...(this.options.now === undefined ? {} : { now: this.options.now }),
      },
      shared,
    );
  }

  #observedSteps(steps: StepRunner | undefined): StepRunner | undefined {
    return steps === undefined || this.#telemetry === NO_TELEMETRY
      ? steps
      : observedStepRunner(steps, this.#telemetry);
  }

  /**
   * Runs an action's workflow. Never throws: every failure becomes a failed AgentResult. A durable event's run is
   * a request of its own for telemetry (entry `event`).
   */
  execute(action: AgentAction, request: ExecutionRequest): Promise<AgentResult> {
    if (request.event !== true) return this.#execute(action, request);
    return this.#telemetry.request("event", request, () => this.#execute(action, request));
  }

  async #execute(action: AgentAction, request: ExecutionRequest): Promise<AgentResult> {
    if (!this.#started) return AgentResult.error(AgentFailure.MODULE_FAILED.with("engine not started"));
    const primary = this.#modules.forAction(action.type);
    if (primary === undefined)
      return AgentResult.error(AgentFailure.MODULE_DISABLED.with(action.type.id.toString()));
    // The configuration this player has (or the one a durable task was queued under); it is kept for the run.
    const features = request.standing?.features() ?? request.features;
    const module =
      request.owner === undefined
        ? this.#modules.forAction(action.type, features)
        : this.#modules.variants(primary.id).find((variant) => variant.owner?.toString() === request.owner);
    if (module === undefined || (module.owner !== undefined && !features.has(module.owner.toString())))
      return AgentResult.error(
        AgentFailure.MODULE_DISABLED.with(
          request.owner ?? primary.owner?.toString() ?? primary.id.toString(),
        ),
      );
    if (request.event === true ? !module.event : !module.interactive)
      return AgentResult.error(AgentFailure.PERMISSION_DENIED);
    const decoded = module.action.decode(action);
    if (!decoded.success) return AgentResult.error(AgentFailure.INPUT_INVALID.with(decoded.error));
    let context: ExecutionContext | undefined;
    this.#telemetry.workflow(module.id.toString(), request.requestId);
    try {
      context = this.createContext(module, request);
      request.onContext?.(context);
      context.checkAlive();
      const running = context;
      const result = await this.#telemetry.span(
        `workflow ${module.id}`,
        { "assistant.workflow": module.id.toString() },
        request.requestId,
        async (span) => {
          const outcome = await running.within(span, () => module.run(decoded.value, running));
          if (span !== NO_SPAN) span.setAttributes(budgetAttributes(running.counters));
          return outcome;
        },
      );
      // Ended from outside (its feature switched off): whatever the workflow made of the abort, say why.
      if (context.ended !== undefined) return AgentResult.error(context.ended);
      // Last check before the output: a player who lost standing meanwhile sees no answer. A durable event's
      // result is the record of what happened (a reward given), and a failure already says what went wrong.
      if (request.event !== true && !result.isFailure()) context.checkStanding();
      if (result.isPartial()) this.#logger.info(`${module.id} partially succeeded for ${request.playerId}`);
      return result;
    } catch (error) {
      // Ended from outside (its feature switched off): say that, not the cancellation it caused on the way.
      const failure = context?.ended ?? this.#failureOf(error, `${module.id} failed for ${request.playerId}`);
      return AgentResult.error(failure);
    } finally {
      context?.close();
    }
  }

  async runNested(
    moduleId: string,
    input: unknown,
    parent: ExecutionContext,
    stepPrefix: string,
  ): Promise<AgentResult> {
    if (!this.#started) return AgentResult.error(AgentFailure.MODULE_FAILED.with("engine not started"));
    const features = parent.features;
    const module = this.#modules.variant(moduleId, features);
    if (module === undefined) return AgentResult.error(AgentFailure.MODULE_DISABLED.with(moduleId));
    if (
      !module.interactive ||
      this.#modules.routing(module.id).selection === "structured_only" ||
      module.id.toString() === parent.workflow ||
      parent.depth >= MAX_NESTING
    )
      return AgentResult.error(AgentFailure.TOOL_NOT_ALLOWED.with(moduleId));
    const decoded = module.action.codec.decode(input);
    if (!decoded.success) return AgentResult.error(AgentFailure.INPUT_INVALID.with(decoded.error));
    let context: ExecutionContext | undefined;
    try {
      context = parent.child({
        workflow: module.id.toString(),
        stepPrefix,
        policy: this.#policyFor(module),
        tools: this.declaredTools(module),
        owner: module.owner?.toString(),
      });
      context.checkAlive();
      const result = await module.run(decoded.value, context);
      // the same last check before the output as a request's own workflow
      if (!result.isFailure()) context.checkStanding();
      return result;
    } catch (error) {
      const failure = this.#failureOf(
        error,
        `${module.id} (nested in ${parent.workflow}) failed for ${parent.playerId}`,
      );
      return AgentResult.error(failure);
    } finally {
      context?.close();
    }
  }

  /** The failure a workflow's error stands for; an unexpected one is logged with its stack. */
  #failureOf(error: unknown, what: string): Failure {
    const failure = AgentException.failure(error);
    if (failure.code !== AgentFailure.MODULE_FAILED.code || error instanceof AgentException) return failure;
    if (this.isStorageUnavailable(error)) {
      this.#logger.warn(
        `${what}: storage unavailable (${error instanceof Error ? error.message : String(error)})`,
      );
      return AgentFailure.STORAGE_UNAVAILABLE;
    }
    this.#logger.error(what, error);
    return failure;
  }

  #policyFor(module: AnyAgentModule): ExecutionPolicy {
    const config = this.options.config;
    return config === undefined ? module.policy : config.policyFor(module.id.toString(), module.policy);
  }
}
