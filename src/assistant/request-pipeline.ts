import { randomUUID } from "node:crypto";
import { AgentFailure } from "../agent/agent-failure.js";
import { AgentResult } from "../agent/agent-result.js";
import type { CardRegistry } from "../agent/card/card-registry.js";
import { SELECTION_CARD } from "../agent/card/selection-card.js";
import type { CommandOutcome } from "../agent/command/command-registry.js";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { BudgetCounters } from "../agent/execution/budget-counters.js";
import type { ConversationService } from "../agent/execution/conversation-service.js";
import type { ExecutionContext, HistoryTurn, ModelActivity } from "../agent/execution/execution-context.js";
import type { MemoryGenerations } from "../agent/execution/memory-generations.js";
import type { Failure } from "../agent/failure.js";
import type { AgentAction } from "../agent/module/action-type.js";
import type { AnyAgentModule } from "../agent/module/agent-module.js";
import type { HybridRouter, RouteRequest } from "../agent/routing/hybrid-router.js";
import type { RouteDecision } from "../agent/routing/route-decision.js";
import type { RoutingPlayer } from "../agent/routing/routing-player.js";
import { routePathOf } from "../agent/telemetry/telemetry.js";
import type { PermissionSnapshot } from "../module/permissions/permission-service.js";
import type { Logger } from "../util/logger.js";
import type { PlayerStandings } from "./player-standing.js";
import { failureCause, failureText, requestLogLine } from "./request-log.js";
import type { ProgressChannel } from "./thinking-indicator.js";

/** How plain text is handled in a mode other than routing: the action to run instead, if that feature exists. */
export interface ModeTargets {
  /** `ask`: plain text → the question workflow. */
  readonly ask?: (text: string) => AgentAction | undefined;
  /** `full`: plain text → the free-chat workflow. */
  readonly full?: (text: string) => AgentAction | undefined;
  /** `routing`: plain text the model router found no workflow for → one plain chat reply (extension chat). */
  readonly chat?: (text: string) => AgentAction | undefined;
}

/** What the assembly parsed before admission: typed text with its command outcome, or a resolved card button. */
export type RequestPayload =
  | { readonly kind: "text"; readonly command: CommandOutcome }
  | { readonly kind: "button"; readonly action: string; readonly args: readonly string[] };

/** How a request was routed and which workflow it ran, filled in while it runs (for the request's log line). */
interface RouteTrace {
  route: string;
  workflow: string | undefined;
}

/** One request as the pipeline runs it. */
export interface PipelineRequest {
  readonly requestId: string;
  readonly text: string;
  readonly payload: RequestPayload;
  readonly snapshot: PermissionSnapshot;
  readonly locale: string;
  readonly generation: number;
  readonly signal: AbortSignal;
  readonly counters: BudgetCounters;
  /** Settles once the player's earlier turns are written (read history only after it). */
  readonly earlierTurns: Promise<void>;
}

/**
 * Routes and runs one request: the mode decides whether plain text goes to the hybrid router, the question or
 * free-chat workflow; commands and card clicks are structured in every mode. Every workflow runs under the
 * player's live standing; successful SEMANTIC/MODEL routes are remembered in the intent cache. Never throws.
 */
export class RequestPipeline {
  /** Workflows running for players now (ended when their feature is switched off). */
  readonly #running = new Set<ExecutionContext>();

  constructor(
    private readonly options: {
      readonly engine: AgentEngine;
      readonly router: HybridRouter;
      readonly cards: CardRegistry;
      readonly modes: ModeTargets;
      readonly standings: PlayerStandings;
      readonly conversation: ConversationService;
      readonly generations: MemoryGenerations;
      readonly logger: Logger;
      readonly progress: ProgressChannel;
      /** The name an admin knows the player by, for the log (the id when unknown). */
      readonly playerName: (playerId: string) => string | undefined;
    },
  ) {}

  routingPlayer(snapshot: PermissionSnapshot, locale: string, generation: number): RoutingPlayer {
    return {
      playerId: snapshot.playerId,
      permissionLevel: snapshot.opLevel,
      features: snapshot.features,
      locale,
      aiEnabled: this.options.standings.modelRefusal(snapshot) === undefined,
      generation,
    };
  }

  async run(request: PipelineRequest): Promise<AgentResult> {
    const indicator = this.options.progress.indicator(request.snapshot.playerId, request.locale);
    const route: RouteTrace = { route: "none", workflow: undefined };
    try {
      const result = await this.#run({ ...request, modelActivity: indicator }, route);
      // one line per request: who, the start of the text, the route, the workflow and the outcome; written once
      // the answer is on its way (a console write never delays the player)
      setImmediate(() => this.#logRequest(request, route, result));
      return result;
    } finally {
      indicator.close();
    }
  }

  #logRequest(request: PipelineRequest, route: RouteTrace, result: AgentResult): void {
    const playerId = request.snapshot.playerId;
    this.options.logger.info(
      requestLogLine({
        requestId: request.requestId,
        player: this.options.playerName(playerId) ?? playerId,
        text: request.payload.kind === "button" ? request.payload.action : request.text,
        ...route,
        result,
      }),
    );
  }

  async #run(
    request: PipelineRequest & { readonly modelActivity: ModelActivity },
    trace: RouteTrace,
  ): Promise<AgentResult> {
    const player = this.routingPlayer(request.snapshot, request.locale, request.generation);
    const payload = request.payload;
    if (payload.kind === "button") {
      const decision = this.options.router.structured({ player, action: payload.action, args: payload.args });
      trace.route = "button";
      trace.workflow = decision.module?.id.toString();
      this.options.engine.telemetry.routed("structured", 0, request.requestId);
      return this.#finish(decision, request, []);
    }
    // History reaches prompts only: a player who may not call a model needs none read.
    const history = player.aiEnabled ? await this.#history(request) : [];
    const modeAction = this.#modeAction(request, player, payload.command);
    if (modeAction !== undefined) {
      trace.route = `mode:${request.snapshot.mode}`;
      trace.workflow = modeAction.type.id.toString();
      this.options.engine.telemetry.routed("mode", 0, request.requestId);
      return this.execute(modeAction, request, history);
    }
    const routeRequest: RouteRequest = {
      requestId: request.requestId,
      text: request.text,
      player,
      signal: request.signal,
      counters: request.counters,
      command: payload.command,
      history,
      modelActivity: request.modelActivity,
    };
    const decision = await this.#route(routeRequest);
    // how the text was routed, so an admin sees what routes locally and what does not
    trace.route = decision.source === "COMMAND" ? "command" : (decision.evidence.path.at(-1) ?? "none");
    trace.workflow = decision.module?.id.toString();
    const modelStep = decision.evidence.path.find((step) => /^model:(failed|invalid)/.test(step));
    if (modelStep !== undefined)
      this.options.logger.warn(
        `request ${request.requestId}: ${modelStep}${decision.modelFailure === undefined ? "" : ` (${failureCause(decision.modelFailure) ?? "no cause"})`}; local fallback card shown`,
      );
    const result = await this.#finish(decision, request, history);
    this.options.router.remember(
      routeRequest,
      decision,
      result,
      this.options.generations.generation(player.playerId),
    );
    return result;
  }

  /** Routes plain text inside a `route` span; the route path and its latency are recorded. */
  async #route(request: RouteRequest): Promise<RouteDecision> {
    const telemetry = this.options.engine.telemetry;
    const started = performance.now();
    const decision = await telemetry.span("route", {}, request.requestId, async (span) => {
      const decided = await this.options.router.route({ ...request, trace: span });
      span.setAttributes({
        "assistant.route.path": routePathOf(decided.source),
        "assistant.route.workflow": decided.module?.id.toString(),
      });
      return decided;
    });
    telemetry.routed(routePathOf(decision.source), (performance.now() - started) / 1000, request.requestId);
    return decision;
  }

  async execute(
    action: AgentAction,
    request: Omit<PipelineRequest, "payload" | "text" | "earlierTurns"> & {
      readonly modelActivity?: ModelActivity;
    },
    history: readonly HistoryTurn[] = [],
  ): Promise<AgentResult> {
    const playerId = request.snapshot.playerId;
    let running: ExecutionContext | undefined;
    const result = await this.options.engine.execute(action, {
      requestId: request.requestId,
      playerId,
      locale: request.locale,
      features: request.snapshot.features,
      permissionLevel: request.snapshot.opLevel,
      signal: request.signal,
      counters: request.counters,
      standing: this.options.standings.of(playerId, request.generation),
      history,
      ...(request.modelActivity === undefined ? {} : { modelActivity: request.modelActivity }),
      onContext: (context) => {
        running = context;
        this.#running.add(context);
      },
    });
    if (running !== undefined) this.#running.delete(running);
    // Model trouble is logged once per request, with its id and never the player's text.
    const code = result.failure?.code;
    if (code !== undefined && MODEL_FAILURES.has(code) && result.failure !== undefined)
      this.options.logger.warn(
        `request ${request.requestId}: ${action.type.id} ended with ${failureText(result.failure)}`,
      );
    return result;
  }

  /**
   * Ends every running workflow owned by one of `features` (switched off by an admin) with MODULE_DISABLED;
   * returns how many were running.
   */
  endFeatures(features: ReadonlySet<string>): number {
    let ended = 0;
    for (const context of this.#running) {
      const owner = context.owner;
      if (owner === undefined || !features.has(owner)) continue;
      context.end(AgentFailure.MODULE_DISABLED.with(owner));
      ended++;
    }
    return ended;
  }

  async #history(request: PipelineRequest): Promise<readonly HistoryTurn[]> {
    await request.earlierTurns;
    return this.options.conversation.projection(request.snapshot.playerId);
  }

  /** A control of the player's own session (cancel, clear): its standing is fixed, since it changes it itself. */
  control(
    action: AgentAction,
    request: Omit<PipelineRequest, "payload" | "text" | "earlierTurns">,
  ): Promise<AgentResult> {
    return this.options.engine.execute(action, {
      requestId: request.requestId,
      playerId: request.snapshot.playerId,
      locale: request.locale,
      features: request.snapshot.features,
      permissionLevel: request.snapshot.opLevel,
      signal: request.signal,
      counters: request.counters,
    });
  }

  #modeAction(
    request: PipelineRequest,
    player: RoutingPlayer,
    command: CommandOutcome,
  ): AgentAction | undefined {
    const mode = request.snapshot.mode;
    if (mode !== "ask" && mode !== "full") return undefined;
    if (!player.aiEnabled && mode === "full") return undefined;
    if (command.kind !== "none") return undefined;
    const action =
      mode === "ask" ? this.options.modes.ask?.(request.text) : this.options.modes.full?.(request.text);
    if (action === undefined) return undefined;
    // the same availability filter as routing: a workflow the player may not use falls back to routing
    const module = this.options.engine.modules().forAction(action.type);
    return module !== undefined && this.options.router.available(player, module) ? action : undefined;
  }

  async #finish(
    decision: RouteDecision,
    request: PipelineRequest & { readonly modelActivity: ModelActivity },
    history: readonly HistoryTurn[],
  ): Promise<AgentResult> {
    if (decision.failure !== undefined) return AgentResult.error(this.#explain(decision, request));
    if (decision.action !== undefined) return this.execute(decision.action, request, history);
    const chat = this.#chatAction(decision, request);
    if (chat !== undefined) {
      // a chat reply that fails (the model down, its quota used up) leaves the candidates card
      const reply = await this.execute(chat, request, history);
      if (!reply.isFailure() || decision.selection === undefined) return reply;
    }
    if (decision.selection !== undefined)
      return AgentResult.success().withPresentation(
        this.options.cards.encode(SELECTION_CARD.card(decision.selection)),
      );
    return AgentResult.error(AgentFailure.UNKNOWN_COMMAND.with(request.text.slice(0, 64)));
  }

  /**
   * Extension chat: in `routing` mode, plain text for which the model router found no workflow (it asked to
   * clarify) gets one plain model reply instead of the candidates card, when the chat workflow is installed and
   * the player may use it (AI on, a model configured).
   */
  #chatAction(decision: RouteDecision, request: PipelineRequest): AgentAction | undefined {
    if (decision.source !== "CLARIFY" || request.snapshot.mode !== "routing") return undefined;
    if (request.payload.kind !== "text" || request.payload.command.kind !== "none") return undefined;
    const action = this.options.modes.chat?.(request.text);
    if (action === undefined) return undefined;
    const module = this.options.engine.modules().forAction(action.type);
    const player = this.routingPlayer(request.snapshot, request.locale, request.generation);
    return module !== undefined && this.options.router.available(player, module) ? action : undefined;
  }

  /**
   * A workflow refused only because the player may not call a model says so (AI off, no model, quota used up),
   * not "disabled".
   */
  #explain(decision: RouteDecision, request: PipelineRequest): Failure {
    const failure = decision.failure as Failure;
    const module: AnyAgentModule | undefined =
      decision.module ??
      (failure.code === AgentFailure.MODULE_DISABLED.code
        ? this.options.engine.modules().get(failure.args[0] ?? "")
        : undefined);
    if (failure.code !== AgentFailure.MODULE_DISABLED.code || module === undefined) return failure;
    if (!this.options.engine.modules().usable(module.id, request.snapshot.features)) return failure;
    return this.options.standings.workflowRefusal(request.snapshot) ?? failure;
  }
}

/** Failures of the model or its quota: an admin wants to see them in the log. */
const MODEL_FAILURES: ReadonlySet<string> = new Set(
  [
    AgentFailure.QUOTA_EXCEEDED,
    AgentFailure.MODEL_UNAVAILABLE,
    AgentFailure.TIMEOUT,
    AgentFailure.MODEL_INVALID_OUTPUT,
  ].map((failure) => failure.code),
);

export const newRequestId = (): string => randomUUID();
