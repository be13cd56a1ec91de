import { randomUUID } from "node:crypto";
import { AgentFailure } from "../agent/agent-failure.js";
import { AgentResult } from "../agent/agent-result.js";
import { parseCardRef } from "../agent/card/card-ref.js";
import type { CardRegistry } from "../agent/card/card-registry.js";
import { SELECTION_CARD } from "../agent/card/selection-card.js";
import type { ServerCards } from "../agent/card/server-cards.js";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { BudgetCounters } from "../agent/execution/budget-counters.js";
import type { Failure } from "../agent/failure.js";
import type { AgentAction } from "../agent/module/action-type.js";
import type { HybridRouter } from "../agent/routing/hybrid-router.js";
import type { RouteDecision } from "../agent/routing/route-decision.js";
import type { RoutingPlayer } from "../agent/routing/routing-player.js";
import type { PermissionSnapshot } from "../module/permissions/permission-service.js";

/** How plain text is handled in a mode other than routing: the action to run instead, if that feature exists. */
export interface ModeTargets {
  /** `ask`: plain text → the question workflow. */
  readonly ask?: (text: string) => AgentAction | undefined;
  /** `full`: plain text → the free-chat workflow. */
  readonly full?: (text: string) => AgentAction | undefined;
}

/** One request as the pipeline runs it. */
export interface PipelineRequest {
  readonly requestId: string;
  readonly text: string;
  readonly snapshot: PermissionSnapshot;
  readonly locale: string;
  readonly generation: number;
  readonly signal: AbortSignal;
  readonly counters: BudgetCounters;
  readonly onContext?: Parameters<AgentEngine["execute"]>[1]["onContext"];
}

/**
 * Routes and runs one request: the mode decides whether plain text goes to the hybrid router, the question or
 * free-chat workflow; commands and card clicks are structured in every mode. Never throws.
 */
export class RequestPipeline {
  constructor(
    private readonly options: {
      readonly engine: AgentEngine;
      readonly router: HybridRouter;
      readonly cards: CardRegistry;
      readonly modes: ModeTargets;
      readonly modelConfigured: () => boolean;
    },
  ) {}

  routingPlayer(snapshot: PermissionSnapshot, locale: string, generation: number): RoutingPlayer {
    const aiEnabled = snapshot.ai && snapshot.mode !== "simple" && this.options.modelConfigured();
    return {
      playerId: snapshot.playerId,
      permissionLevel: snapshot.opLevel,
      features: snapshot.features,
      locale,
      aiEnabled,
      generation,
    };
  }

  async run(request: PipelineRequest): Promise<AgentResult> {
    const player = this.routingPlayer(request.snapshot, request.locale, request.generation);
    const modeAction = await this.#modeAction(request, player);
    if (modeAction !== undefined) return this.execute(modeAction, request);
    const decision = await this.options.router.route({
      requestId: request.requestId,
      text: request.text,
      player,
      signal: request.signal,
      counters: request.counters,
    });
    return this.#finish(decision, request);
  }

  /** A card click: the button at `index` of this player's current page, run as a new structured request. */
  async click(
    request: PipelineRequest,
    issued: ServerCards,
    refText: string,
    indexText: string,
  ): Promise<AgentResult> {
    const ref = parseCardRef(refText);
    const index = Number.parseInt(indexText, 10);
    if (ref === undefined || !/^\d{1,3}$/.test(indexText))
      return AgentResult.error(AgentFailure.INPUT_INVALID.with("card"));
    const button = issued.button(ref, index);
    if (!button.success) return AgentResult.error(AgentFailure.INPUT_INVALID.with(button.error));
    const player = this.routingPlayer(request.snapshot, request.locale, request.generation);
    const decision = this.options.router.structured({
      player,
      action: button.value.action,
      args: button.value.args,
    });
    return this.#finish(decision, request);
  }

  async execute(action: AgentAction, request: PipelineRequest): Promise<AgentResult> {
    return this.options.engine.execute(action, {
      requestId: request.requestId,
      playerId: request.snapshot.playerId,
      locale: request.locale,
      features: request.snapshot.features,
      permissionLevel: request.snapshot.opLevel,
      signal: request.signal,
      counters: request.counters,
      ...(request.onContext === undefined ? {} : { onContext: request.onContext }),
    });
  }

  async #modeAction(request: PipelineRequest, player: RoutingPlayer): Promise<AgentAction | undefined> {
    const mode = request.snapshot.mode;
    if (mode !== "ask" && mode !== "full") return undefined;
    if (!player.aiEnabled && mode === "full") return undefined;
    const command = await this.options.engine.modules().commands().parse(request.text, player);
    if (command.kind !== "none") return undefined;
    const action =
      mode === "ask" ? this.options.modes.ask?.(request.text) : this.options.modes.full?.(request.text);
    if (action === undefined) return undefined;
    // the same availability filter as routing: a workflow the player may not use falls back to routing
    const module = this.options.engine.modules().forAction(action.type);
    return module !== undefined && this.options.router.available(player, module) ? action : undefined;
  }

  async #finish(decision: RouteDecision, request: PipelineRequest): Promise<AgentResult> {
    if (decision.failure !== undefined) return AgentResult.error(decision.failure as Failure);
    if (decision.action !== undefined) return this.execute(decision.action, request);
    if (decision.selection !== undefined)
      return AgentResult.success().withPresentation(
        this.options.cards.encode(SELECTION_CARD.card(decision.selection)),
      );
    return AgentResult.error(AgentFailure.UNKNOWN_COMMAND.with(request.text.slice(0, 64)));
  }
}

export const newRequestId = (): string => randomUUID();
