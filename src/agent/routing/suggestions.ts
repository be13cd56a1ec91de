import type { SelectionCandidate } from "../card/selection-card.js";
import type { ExecutionPolicy } from "../execution/execution-policy.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { AnyModuleRouting } from "../module/module-routing.js";
import { isReadOnlyModule } from "./direct-qualification.js";

/** The label of an extractor candidate whose module declared no `.choice(labelKey)`. */
export const DEFAULT_CHOICE_KEY = "system.selection.choice";

/**
 * What a choice button does for one parsed input ("Look up: Iron Ingot"). Suggestions are built before the reader's
 * locale is known, so `labelArgs` carry every language's value and each translation picks its own by position
 * (en_us `Look up: %1$s`, zh_cn `查询：%2$s`).
 */
export interface ChoiceLabel {
  readonly labelKey: string;
  readonly labelArgs: readonly string[];
}

/** A module that labels its choice buttons by input; modules without it get their `.choice` key. */
export interface ChoiceLabeller {
  choiceLabel(input: unknown): ChoiceLabel | undefined;
}

const choiceLabelOf = (module: AnyAgentModule, input: unknown): ChoiceLabel | undefined => {
  const labeller = module as Partial<ChoiceLabeller>;
  if (typeof labeller.choiceLabel !== "function") return undefined;
  try {
    return labeller.choiceLabel(input);
  } catch {
    return undefined;
  }
};

/**
 * The button of a confidently matched module that may not run without the player's click (SemanticMatch.offer),
 * labelled with what it will do ("Check in", "Quote: Bread × 10").
 */
export const offeredCandidate = (
  module: AnyAgentModule,
  routing: AnyModuleRouting,
  input: unknown,
): SelectionCandidate => {
  const label = choiceLabelOf(module, input) ?? {
    labelKey: routing.choiceKey ?? routing.shortcuts[0]?.labelKey ?? DEFAULT_CHOICE_KEY,
    labelArgs: [module.id.toString()],
  };
  return {
    labelKey: label.labelKey,
    labelArgs: [...label.labelArgs],
    action: module.id.toString(),
    input: module.action.codec.encode(input),
  };
};

export interface SuggestionOptions {
  readonly text: string;
  readonly modules: readonly AnyAgentModule[];
  readonly routingOf: (module: AnyAgentModule) => AnyModuleRouting;
  /** Whether this player may select the module now. */
  readonly available: (module: AnyAgentModule) => boolean;
  readonly policyOf?: (module: AnyAgentModule) => ExecutionPolicy;
  /** Similarity by module id: orders candidates; when given, an extractor candidate needs a score above 0. */
  readonly scores?: ReadonlyMap<string, number>;
  readonly limit: number;
  /** Modules to leave out (e.g. those the model did not name when it clarified). */
  readonly only?: ReadonlySet<string>;
}

/**
 * Read-only candidate actions for a text: first modules related to the text whose profile extractor parses the
 * input from this very text (labelled with `.choice`), ordered by similarity; with none, the declared shortcuts.
 */
export const buildSuggestions = (options: SuggestionOptions): SelectionCandidate[] => {
  const scoreOf = (module: AnyAgentModule): number => options.scores?.get(module.id.toString()) ?? 0;
  const eligible = options.modules
    .filter((module) => options.only === undefined || options.only.has(module.id.toString()))
    .filter((module) => options.available(module))
    .filter((module) => options.routingOf(module).selection !== "structured_only")
    .filter((module) => isReadOnlyModule(module, options.policyOf?.(module) ?? module.policy))
    .map((module, order) => ({ module, order, score: scoreOf(module) }))
    .sort((left, right) => right.score - left.score || left.order - right.order);
  const parsed: SelectionCandidate[] = [];
  for (const { module } of eligible) {
    const routing = options.routingOf(module);
    const extractor = routing.profile?.extractor;
    if (extractor === undefined || routing.profile?.onTopic(options.text) === false) continue;
    if (options.scores !== undefined && scoreOf(module) <= 0) continue;
    // the extractor's reading, else the profile's looser guess: a button is only offered, never run unclicked
    let input: unknown;
    try {
      input = extractor(options.text) ?? routing.profile?.guess?.(options.text);
    } catch {
      input = undefined;
    }
    if (input === undefined) continue;
    const decoded = module.action.codec.decode(input);
    if (!decoded.success) continue;
    const label = choiceLabelOf(module, decoded.value) ?? {
      labelKey: routing.choiceKey ?? routing.shortcuts[0]?.labelKey ?? DEFAULT_CHOICE_KEY,
      labelArgs: [module.id.toString()],
    };
    parsed.push({
      labelKey: label.labelKey,
      labelArgs: [...label.labelArgs],
      action: module.id.toString(),
      input: module.action.codec.encode(decoded.value),
    });
  }
  if (parsed.length > 0) return parsed.slice(0, options.limit);
  const shortcuts: SelectionCandidate[] = [];
  for (const { module } of eligible)
    for (const shortcut of options.routingOf(module).shortcuts)
      shortcuts.push({
        labelKey: shortcut.labelKey,
        labelArgs: [],
        action: module.id.toString(),
        input: module.action.codec.encode(shortcut.input),
      });
  return shortcuts.slice(0, options.limit);
};
