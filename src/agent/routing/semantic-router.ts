import type { ExecutionPolicy } from "../execution/execution-policy.js";
import type { AgentAction } from "../module/action-type.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { ModuleRegistry } from "../module/module-registry.js";
import type { AnyModuleRouting } from "../module/module-routing.js";
import { directRefusal } from "./direct-qualification.js";
import type { RouteCandidate } from "./route-decision.js";
import type { RoutingTable } from "./routing-table.js";
import type { SemanticSettings } from "./semantic-config.js";
import type { TargetScore } from "./semantic-index.js";
import { type GuardHit, StatementGuard } from "./statement-guard.js";
import { isFunctionWord } from "./text-analyzer.js";

/** Anything that ranks targets for a text: the local TF-IDF index, or an embedding index. */
export interface SimilaritySearch {
  search(text: string, limit?: number): TargetScore[] | Promise<TargetScore[]>;
}

/** The local match of one text: a direct route when every condition held, and the figures either way. */
export interface SemanticMatch {
  readonly direct: { readonly module: AnyAgentModule; readonly action: AgentAction } | undefined;
  /**
   * Why there is no direct route (`similarity`, `margin`, `coverage`, `uncovered_mention`, `off_topic`, `guard`,
   * `reject`, `no_arguments`…).
   */
  readonly refusal: string | undefined;
  readonly candidates: readonly RouteCandidate[];
  readonly margin: number;
  readonly coverage: number;
  readonly guards: readonly GuardHit[];
  /**
   * The confident closest module when it may not run without an explicit entry (it writes or only hints), with
   * the input its extractor read from this text: a fallback card offers it as a button, never runs it.
   */
  readonly offer?: { readonly module: AnyAgentModule; readonly input: unknown } | undefined;
}

/** Refusals that leave a module confidently matched but not to be run without the player's click. */
const OFFERED_REFUSALS: ReadonlySet<string> = new Set(["no_read_profile", "writes", "write_tool"]);

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

  /** `thresholds` replaces the configured ones for this call (fitting measures every text at zero). */
  async match(
    fullText: string,
    available: (module: AnyAgentModule) => boolean,
    thresholds?: Pick<SemanticSettings, "minSimilarity" | "minMargin" | "minCoverage">,
  ): Promise<SemanticMatch> {
    // Samples are short; a long text is never a close match, so only its start is analysed.
    const text = fullText.length > MAX_TEXT ? fullText.slice(0, MAX_TEXT) : fullText;
    const local = this.options.modules.routes.index();
    const lexical = local.search(text, 8);
    const searched = this.options.search === undefined ? lexical : await this.#replace(text, lexical);
    // A module whose topic the text does not name is not a candidate at all (RoutingProfile.about).
    const scored = searched.filter(
      (score) =>
        score.reject || this.options.modules.routing(score.target).profile?.onTopic(fullText) !== false,
    );
    // Slot-aware: a module whose extractor finds no argument in this text (no item named, someone else's
    // health) cannot take it, so it neither wins nor narrows another module's margin.
    const inputs = new Map<string, unknown>();
    const ranked = scored.filter((score) => {
      if (score.reject) return true;
      const profile = this.options.modules.routing(score.target).profile;
      if (profile?.kind !== "read" || profile.extractor === undefined) return true;
      const input = extract(profile.extractor, fullText);
      inputs.set(score.target, input);
      return input !== undefined;
    });
    // A guard the closest sample itself hits is how that module is asked for ("what can you do" → help), when
    // the text says nothing beyond that module's words ("can you tp me" is still a capability question).
    const expected =
      ranked[0] === undefined || ranked[0].coverage < 1 ? [] : this.#guard.check(ranked[0].sample);
    const guards = this.#guard.check(text).filter((hit) => !expected.includes(hit));
    const candidates = scored.map((score) => ({
      moduleId: score.target,
      similarity: round(score.similarity),
      coverage: round(score.coverage),
      reject: score.reject,
      sample: score.sample,
      ...(score.uncovered === undefined ? {} : { uncovered: score.uncovered }),
    }));
    const top = ranked[0];
    const margin = top === undefined ? 0 : round(top.similarity - (ranked[1]?.similarity ?? 0));
    const coverage = top === undefined ? 0 : round(top.coverage);
    const result = (
      refusal: string | undefined,
      direct?: SemanticMatch["direct"],
      offer?: SemanticMatch["offer"],
    ): SemanticMatch => ({
      direct,
      refusal,
      candidates,
      margin,
      coverage,
      guards,
      ...(offer === undefined ? {} : { offer }),
    });
    // The closest module could not take this text: say so, and route nothing else in its place.
    if (scored[0] !== undefined && scored[0] !== top) return result("no_arguments");
    if (top === undefined) return result("no_match");
    if (guards.length > 0) return result("guard");
    if (top.reject) return result("reject");
    const module = this.options.modules.get(top.target);
    if (module === undefined || !available(module)) return result("unavailable");
    const settings = thresholds ?? this.options.settings();
    if (top.similarity < settings.minSimilarity) return result("similarity");
    if (margin < settings.minMargin) return result("margin");
    if (coverage < settings.minCoverage) return result("coverage");
    // The text names an item, a player or a quest that the workflow has no slot for ("<id> 物品信息" is not the
    // player's own status): routing it there would drop what was asked about.
    if (top.uncovered?.some(isMention) === true) return result("uncovered_mention");
    // Only question words in common ("what do I cook soups in" and "what world am I in" share "what", "I", "in"):
    // the text asks about something none of the workflow's samples speaks of.
    if (asksElsewhere(top)) return result("off_topic");
    const routing = this.options.modules.routing(module.id);
    const refusal = directRefusal(module, routing, this.options.policyOf?.(module) ?? module.policy);
    if (refusal !== undefined) return result(refusal, undefined, offerOf(module, routing, fullText, refusal));
    const input = inputs.has(module.id.toString())
      ? inputs.get(module.id.toString())
      : routing.profile?.extractor === undefined
        ? undefined
        : extract(routing.profile.extractor, fullText);
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
    const local = new Map(lexical.map((score) => [score.target, score]));
    return replaced.map((score) => {
      const match = local.get(score.target);
      return {
        ...score,
        coverage: match?.coverage ?? 0,
        ...(match?.uncovered === undefined ? {} : { uncovered: match.uncovered }),
        ...(match?.covered === undefined ? {} : { covered: match.covered }),
      };
    });
  }
}

const MAX_TEXT = 1024;

/** The input a confidently matched module that may not run directly would get from this text, if any. */
const offerOf = (
  module: AnyAgentModule,
  routing: AnyModuleRouting,
  text: string,
  refusal: string,
): SemanticMatch["offer"] => {
  const extractor = routing.profile?.extractor;
  if (!OFFERED_REFUSALS.has(refusal) || extractor === undefined) return undefined;
  const input = extract(extractor, text);
  if (input === undefined) return undefined;
  const decoded = module.action.codec.decode(input);
  return decoded.success ? { module, input: decoded.value } : undefined;
};

/**
 * Whether a text shares only function words (question words, pronouns, prepositions) with a workflow's samples
 * while it has words of its own they lack: what it asks about is not what the workflow answers.
 */
const asksElsewhere = (score: TargetScore): boolean =>
  score.uncovered !== undefined &&
  score.covered !== undefined &&
  score.uncovered.some((word) => !isFunctionWord(word)) &&
  score.covered.every(isFunctionWord);

/** A slot token that stands for something the text names (`<item>`, `<player>`, `<quest>`, `<id>`); not `<num>`. */
const isMention = (word: string): boolean => /^<[a-z_]+>$/.test(word) && word !== "<num>";

/** An extractor's input for a text; undefined when it finds none or throws. */
const extract = (extractor: (text: string) => unknown, text: string): unknown => {
  try {
    return extractor(text);
  } catch {
    return undefined;
  }
};

const round = (value: number): number => Math.round(value * 1000) / 1000;
