import { AgentFailure } from "../agent-failure.js";
import type { AgentResult } from "../agent-result.js";
import type { SelectionCardData } from "../card/selection-card.js";
import type { CommandOutcome } from "../command/command-registry.js";
import { BudgetCounters } from "../execution/budget-counters.js";
import type { HistoryTurn, ModelActivity } from "../execution/execution-context.js";
import type { ExecutionPolicy } from "../execution/execution-policy.js";
import type { ModelPort } from "../model/model-client.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { ModuleRegistry } from "../module/module-registry.js";
import type { TraceParent } from "../telemetry/telemetry.js";
import { directRefusal } from "./direct-qualification.js";
import { IntentCache } from "./intent-cache.js";
import { ModelRouter } from "./model-router.js";
import type { RouteDecision, RouteEvidence, RouteSource } from "./route-decision.js";
import type { Availability, RoutingPlayer } from "./routing-player.js";
import type { RoutingTable } from "./routing-table.js";
import type { SemanticSettings } from "./semantic-config.js";
import { type SemanticMatch, SemanticRouter, type SimilaritySearch } from "./semantic-router.js";
import { buildSuggestions, offeredCandidate } from "./suggestions.js";

/**
 * The longest plain text the router routes, in UTF-8 bytes (2,000 Chinese characters, the longest question a
 * workflow accepts); longer text is INPUT_TOO_LARGE before any similarity or model work.
 */
export const ROUTED_TEXT_LIMIT_BYTES = 6_000;

/** The prompt of the local fallback card when nothing was understood. */
const FALLBACK_PROMPT = "system.selection.fallback";

/** The prompt of the local fallback card when the model router could not decide, by failure code. */
const FALLBACK_PROMPTS: Readonly<Record<string, string>> = {
  QUOTA_EXCEEDED: "system.selection.quota",
  MODEL_UNAVAILABLE: "system.selection.model_unavailable",
  TIMEOUT: "system.selection.model_timeout",
  MODEL_INVALID_OUTPUT: "system.selection.model_invalid",
};

export interface HybridRouterOptions {
  readonly modules: ModuleRegistry<RoutingTable>;
  readonly settings: () => SemanticSettings;
  /** The model gateway; undefined when no model is configured (then no model routing at all). */
  readonly model?: ModelPort | undefined;
  /** The router system prompt, e.g. `() => prompts.get(PromptNames.ROUTER)`. */
  readonly system?: () => string;
  /** The host's permission filter; the owner-feature check is always applied as well. */
  readonly availability?: Availability;
  readonly policyOf?: (module: AnyAgentModule) => ExecutionPolicy;
  /** Replaces local similarity (embeddings). */
  readonly search?: SimilaritySearch;
  readonly now?: () => number;
}

/** One text to route for one player. */
export interface RouteRequest {
  readonly requestId: string;
  readonly text: string;
  readonly player: RoutingPlayer;
  readonly signal?: AbortSignal;
  /** Counters to charge (a new set otherwise); the decision returns them for AgentEngine.execute. */
  readonly counters?: BudgetCounters;
  /** The text already parsed as a command for this player (parsed once per request). */
  readonly command?: CommandOutcome;
  /** Recent conversation turns for the model router's `context` (empty when history is off). */
  readonly history?: readonly HistoryTurn[];
  /** Told of the routing model call. */
  readonly modelActivity?: ModelActivity;
  /** The span routing runs inside (the router's model call hangs under it). */
  readonly trace?: TraceParent;
}

/** A click on a candidate or card button: action id plus string arguments. */
export interface StructuredRequest {
  readonly player: RoutingPlayer;
  readonly action: string;
  readonly args: readonly string[];
}

/**
 * Chooses a module for a text, never running it: exact command → local direct route → intent cache → model
 * router → LOCAL_FALLBACK selection card. Only the model step costs a model call, charged to the request.
 */
export class HybridRouter {
  readonly cache: IntentCache;
  readonly semantic: SemanticRouter;
  readonly #model: ModelRouter;

  constructor(private readonly options: HybridRouterOptions) {
    this.cache = new IntentCache(() => options.settings().cacheEntriesPerPlayer);
    this.semantic = new SemanticRouter({
      modules: options.modules,
      settings: options.settings,
      ...(options.policyOf === undefined ? {} : { policyOf: options.policyOf }),
      ...(options.search === undefined ? {} : { search: options.search }),
    });
    this.#model = new ModelRouter({
      modules: options.modules,
      model: options.model,
      system: options.system ?? (() => ""),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  }

  /** Whether this player may select the module now (owner feature enabled and the host's filter). */
  available(player: RoutingPlayer, module: AnyAgentModule): boolean {
    if (!this.options.modules.usable(module.id, player.features)) return false;
    return this.options.availability?.(player.playerId, module.id.toString()) ?? true;
  }

  async route(request: RouteRequest): Promise<RouteDecision> {
    const { player, text } = request;
    const counters = request.counters ?? new BudgetCounters();
    const path: string[] = [];
    let match: SemanticMatch | undefined;
    const decide = (source: RouteSource, rest: Partial<RouteDecision>): RouteDecision => ({
      source,
      counters,
      evidence: evidence(path, match),
      ...rest,
    });

    const command = request.command ?? (await this.options.modules.commands().parse(text, player));
    if (command.kind === "failure") {
      path.push("command:failure");
      return decide("COMMAND", {
        failure: command.failure,
        ...(command.module ? { module: command.module } : {}),
      });
    }
    if (command.kind === "action") {
      path.push("command:action");
      if (!this.available(player, command.module))
        return decide("COMMAND", {
          failure: AgentFailure.MODULE_DISABLED.with(command.module.id.toString()),
        });
      return decide("COMMAND", { module: command.module, action: command.action });
    }
    path.push("command:none");
    // Plain text is routed only up to a limit, checked before any similarity or model work.
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > ROUTED_TEXT_LIMIT_BYTES) {
      path.push("input:too_large");
      return decide("COMMAND", {
        failure: AgentFailure.INPUT_TOO_LARGE.with(bytes, ROUTED_TEXT_LIMIT_BYTES),
      });
    }

    const available = this.options.modules.values().filter((module) => this.available(player, module));
    const availableIds = new Set(available.map((module) => module.id.toString()));
    match = await this.semantic.match(text, (module) => availableIds.has(module.id.toString()));
    path.push(`semantic:${match.refusal ?? "direct"}`);
    if (match.direct !== undefined) return decide("SEMANTIC", match.direct);

    const cached = this.#cached(request, availableIds);
    path.push(cached === undefined ? "cache:miss" : "cache:hit");
    if (cached !== undefined) return decide("CACHE", cached);

    const scores = new Map(match.candidates.map((candidate) => [candidate.moduleId, candidate.similarity]));
    if (!this.#model.configured || !player.aiEnabled) {
      path.push(this.#model.configured ? "model:ai_disabled" : "model:not_configured");
    } else {
      const routed = await this.#model.route({
        requestId: request.requestId,
        ...(request.trace === undefined ? {} : { trace: request.trace }),
        text,
        player,
        modules: available,
        counters,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
        ...(request.history === undefined ? {} : { history: request.history }),
        ...(request.modelActivity === undefined ? {} : { modelActivity: request.modelActivity }),
      });
      if (routed.kind === "module") {
        path.push("model:module");
        return decide("MODEL", { module: routed.module, action: routed.action });
      }
      if (routed.kind === "clarify") {
        path.push("model:clarify");
        return decide("CLARIFY", {
          selection: this.#selection("system.selection.clarify", text, available, scores),
        });
      }
      path.push(routed.kind === "invalid" ? "model:invalid" : `model:failed:${routed.failure.code}`);
      // The fallback card says why the model did not decide: quota, model down, timeout, unreadable reply.
      const why = routed.kind === "invalid" ? "MODEL_INVALID_OUTPUT" : routed.failure.code;
      return decide("LOCAL_FALLBACK", {
        selection: this.#fallback(
          FALLBACK_PROMPTS[why] ?? FALLBACK_PROMPT,
          text,
          available,
          scores,
          match,
          path,
        ),
        ...(routed.kind === "failed" ? { modelFailure: routed.failure } : {}),
      });
    }
    return decide("LOCAL_FALLBACK", {
      selection: this.#fallback(FALLBACK_PROMPT, text, available, scores, match, path),
    });
  }

  /**
   * Records a finished request: only a successful SEMANTIC or MODEL route to a module that qualifies for direct
   * routing, and only while the player's memory generation is still the one routing saw.
   */
  remember(
    request: RouteRequest,
    decision: RouteDecision,
    result: AgentResult,
    generationNow: number,
  ): boolean {
    if (!result.isSuccess() || generationNow !== request.player.generation) return false;
    if (decision.source !== "SEMANTIC" && decision.source !== "MODEL") return false;
    const module = decision.module;
    if (module === undefined || decision.action === undefined) return false;
    if (directRefusal(module, this.options.modules.routing(module.id), this.#policy(module)) !== undefined)
      return false;
    const input = module.action.codec.encode(decision.action.input);
    // Web permission comes only from the current request: a route that opened the web is never replayed.
    if (typeof input === "object" && input !== null && !Array.isArray(input) && input.allowWeb === true)
      return false;
    this.cache.put(request.player, request.text, { moduleId: module.id.toString(), input });
    return true;
  }

  /** A clicked candidate or button: decoded with the module's button adapter and codec; no model, no cache. */
  structured(request: StructuredRequest): RouteDecision {
    const counters = new BudgetCounters();
    const base = { counters, evidence: evidence(["structured"], undefined) };
    const module = this.options.modules.get(request.action);
    if (module === undefined || !this.available(request.player, module))
      return { source: "STRUCTURED", failure: AgentFailure.MODULE_DISABLED.with(request.action), ...base };
    const adapter = this.options.modules.routing(module.id).buttonAdapter;
    let input: unknown;
    try {
      input = adapter !== undefined ? adapter(request.args) : JSON.parse(request.args[0] ?? "null");
    } catch {
      input = undefined;
    }
    const decoded = module.action.codec.decode(input);
    if (!decoded.success)
      return {
        source: "STRUCTURED",
        failure: AgentFailure.INPUT_INVALID.with(decoded.error),
        module,
        ...base,
      };
    return { source: "STRUCTURED", module, action: module.action.action(decoded.value), ...base };
  }

  #cached(request: RouteRequest, availableIds: ReadonlySet<string>): Partial<RouteDecision> | undefined {
    const route = this.cache.get(request.player, request.text);
    if (route === undefined || !availableIds.has(route.moduleId)) return undefined;
    const module = this.options.modules.get(route.moduleId);
    if (module === undefined) return undefined;
    if (directRefusal(module, this.options.modules.routing(module.id), this.#policy(module)) !== undefined)
      return undefined;
    const decoded = module.action.codec.decode(route.input);
    return decoded.success ? { module, action: module.action.action(decoded.value) } : undefined;
  }

  #selection(
    promptKey: string,
    text: string,
    available: readonly AnyAgentModule[],
    scores: ReadonlyMap<string, number>,
  ): SelectionCardData {
    const candidates = buildSuggestions({
      text,
      modules: available,
      routingOf: (module) => this.options.modules.routing(module.id),
      available: () => true,
      policyOf: (module) => this.#policy(module),
      scores,
      limit: this.options.settings().fallbackCandidates,
    });
    return { promptKey, candidates };
  }

  /**
   * The local fallback card: a confidently matched workflow that may not run without the player's click comes first
   * as a button with its arguments filled (the click is the consent), then the usual read-only candidates.
   */
  #fallback(
    promptKey: string,
    text: string,
    available: readonly AnyAgentModule[],
    scores: ReadonlyMap<string, number>,
    match: SemanticMatch,
    path: string[],
  ): SelectionCardData {
    const selection = this.#selection(promptKey, text, available, scores);
    const offer = match.offer;
    if (offer === undefined) return selection;
    path.push(`fallback:offer:${offer.module.id.toString()}`);
    const first = offeredCandidate(offer.module, this.options.modules.routing(offer.module.id), offer.input);
    const rest = selection.candidates.filter((candidate) => candidate.action !== first.action);
    return { promptKey, candidates: [first, ...rest].slice(0, this.options.settings().fallbackCandidates) };
  }

  #policy(module: AnyAgentModule): ExecutionPolicy {
    return this.options.policyOf?.(module) ?? module.policy;
  }
}

const evidence = (path: readonly string[], match: SemanticMatch | undefined): RouteEvidence => ({
  path: [...path],
  candidates: match?.candidates ?? [],
  margin: match?.margin ?? 0,
  coverage: match?.coverage ?? 0,
  guards: match?.guards ?? [],
});
