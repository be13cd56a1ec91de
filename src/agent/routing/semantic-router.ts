import type { ExecutionPolicy } from "../execution/execution-policy.js";
import type { AgentAction } from "../module/action-type.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { ModuleRegistry } from "../module/module-registry.js";
import { directRefusal } from "./direct-qualification.js";
import type { RouteCandidate } from "./route-decision.js";
import type { RoutingTable } from "./routing-table.js";
import type { SemanticSettings } from "./semantic-config.js";
import type { TargetScore } from "./semantic-index.js";
import { type GuardHit, StatementGuard } from "./statement-guard.js";

/** Anything that ranks targets for a text: the local TF-IDF index, or an embedding index. */
export interface SimilaritySearch {
  search(text: string, limit?: number): TargetScore[] | Promise<TargetScore[]>;
}

/** The local match of one text: a direct route when every condition held, and the figures either way. */
export interface SemanticMatch {
  readonly direct: { readonly module: AnyAgentModule; readonly action: AgentAction } | undefined;
  /** Why there is no direct route (`similarity`, `margin`, `coverage`, `guard`, `reject`, `no_arguments`…). */
  readonly refusal: string | undefined;
  readonly candidates: readonly RouteCandidate[];
  readonly margin: number;
  readonly coverage: number;
  readonly guards: readonly GuardHit[];
}

export interface SemanticRouterOptions {
  readonly modules: ModuleRegistry<RoutingTable>;
  readonly settings: () => SemanticSettings;
  /** The policy a new request of the module would get (config overrides included). */
  readonly policyOf?: (module: AnyAgentModule) => ExecutionPolicy;
  /** Replaces the local index's similarity (e.g. embeddings); coverage still comes from the local index. */
  readonly search?: SimilaritySearch;
}

/**
 * Local, model-free routing: a direct route needs similarity, margin and coverage at or above the configured
 * thresholds, no statement guard hit, and a qualifying module whose extractor parsed its input from this text.
 */
export class SemanticRouter {
  readonly #guard = new StatementGuard();

  constructor(private readonly options: SemanticRouterOptions) {}

  async match(fullText: string, available: (module: AnyAgentModule) => boolean): Promise<SemanticMatch> {
    // Samples are short; a long text is never a close match, so only its start is analysed.
    const text = fullText.length > MAX_TEXT ? fullText.slice(0, MAX_TEXT) : fullText;
    const local = this.options.modules.routes.index();
    const lexical = local.search(text, 8);
    const ranked = this.options.search === undefined ? lexical : await this.#replace(text, lexical);
    // A guard the closest sample itself hits is how that module is asked for ("what can you do" → help).
    const expected = ranked[0] === undefined ? [] : this.#guard.check(ranked[0].sample);
    const guards = this.#guard.check(text).filter((hit) => !expected.includes(hit));
    const candidates = ranked.map((score) => ({
      moduleId: score.target,
      similarity: round(score.similarity),
      coverage: round(score.coverage),
      reject: score.reject,
    }));
    const top = ranked[0];
    const margin = top === undefined ? 0 : round(top.similarity - (ranked[1]?.similarity ?? 0));
    const coverage = top === undefined ? 0 : round(top.coverage);
    const result = (refusal: string | undefined, direct?: SemanticMatch["direct"]): SemanticMatch => ({
      direct,
      refusal,
      candidates,
      margin,
      coverage,
      guards,
    });
    if (top === undefined) return result("no_match");
    if (guards.length > 0) return result("guard");
    if (top.reject) return result("reject");
    const module = this.options.modules.get(top.target);
    if (module === undefined || !available(module)) return result("unavailable");
    const settings = this.options.settings();
    if (top.similarity < settings.minSimilarity) return result("similarity");
    if (margin < settings.minMargin) return result("margin");
    if (coverage < settings.minCoverage) return result("coverage");
    const routing = this.options.modules.routing(module.id);
    const refusal = directRefusal(module, routing, this.options.policyOf?.(module) ?? module.policy);
    if (refusal !== undefined) return result(refusal);
    let input: unknown;
    try {
      input = routing.profile?.extractor?.(fullText);
    } catch {
      input = undefined;
    }
    if (input === undefined) return result("no_arguments");
    const decoded = module.action.codec.decode(input);
    if (!decoded.success) return result("no_arguments");
    return result(undefined, { module, action: module.action.action(decoded.value) });
  }

  /** Similarity from the replacement search, coverage from the local index; local scores if it fails. */
  async #replace(text: string, lexical: TargetScore[]): Promise<TargetScore[]> {
    let replaced: TargetScore[];
    try {
      replaced = await this.options.search!.search(text, 8);
    } catch {
      return lexical;
    }
    const coverage = new Map(lexical.map((score) => [score.target, score.coverage]));
    return replaced.map((score) => ({ ...score, coverage: coverage.get(score.target) ?? 0 }));
  }
}

const MAX_TEXT = 1024;

const round = (value: number): number => Math.round(value * 1000) / 1000;
