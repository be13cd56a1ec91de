import type { Identifier } from "../../util/identifier.js";
import type { SelectionCandidate } from "../card/selection-card.js";
import type { AgentCommand } from "../command/agent-command.js";
import { CommandRegistry } from "../command/command-registry.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { ModuleRoutes } from "../module/module-routes.js";
import { type AnyModuleRouting, ModuleRouting } from "../module/module-routing.js";
import type { RoutingProfile } from "../module/routing-profile.js";
import { type IndexEntry, SemanticIndex } from "./semantic-index.js";
import { buildSuggestions } from "./suggestions.js";
import { normalizeText, type SlotRecognizer, TextAnalyzer } from "./text-analyzer.js";

/**
 * What the samples already say, for a slot recognizer a feature adds: `has(phrase)` is true for a whole sample
 * or one word of a sample (as the index analyses them), so a name that is one ("help", "商店") is never marked.
 */
export interface SampleWords {
  has(phrase: string): boolean;
}

/** Builds a feature's slot recognizer (quest titles → `<quest>`) once the samples are known. */
export type SlotFactory = (samples: SampleWords) => SlotRecognizer;

/**
 * The routing declarations of every registered module plus the reject samples: the one command tree and, once
 * frozen, the one semantic index. The engine injects it into ModuleRegistry so registration validates
 * everything at once.
 */
export class RoutingTable implements ModuleRoutes {
  readonly commands = new CommandRegistry();
  readonly #routings = new Map<string, AnyModuleRouting>();
  readonly #rejects = new Map<string, RoutingProfile<unknown>>();
  readonly #slotFactories: SlotFactory[] = [];
  #index: SemanticIndex | undefined;
  #frozen = false;

  /** `slots` marks argument mentions for the semantic index (e.g. item names → `<item>`). */
  constructor(private readonly slots?: SlotRecognizer) {}

  /** Validates and records a module's routing; throws (changing nothing) on alias or id conflicts. */
  add(module: AnyAgentModule, usable: (features: ReadonlySet<string>) => boolean): void {
    const id = module.id.toString();
    if (this.#frozen) throw new Error(`routing is frozen; cannot add ${id}`);
    if (this.#rejects.has(id)) throw new Error(`module ${id} conflicts with a reject sample set`);
    const routing = module.routing?.() ?? ModuleRouting.defaults<unknown>();
    const profile = routing.profile;
    if (profile?.kind === "read" && routing.selection !== "defaults")
      throw new Error(`module ${id}: RoutingProfile.read needs ModuleRouting.defaults()`);
    for (const shortcut of routing.shortcuts) {
      const decoded = module.action.codec.decode(shortcut.input);
      if (!decoded.success) throw new Error(`module ${id}: shortcut ${shortcut.labelKey}: ${decoded.error}`);
    }
    this.commands.register(module, routing.commands as readonly AgentCommand<unknown>[], usable);
    this.#routings.set(id, routing);
  }

  /** Registers reject samples: no entry point; they only widen margins and feed the fallback. */
  reject(id: Identifier, profile: RoutingProfile<unknown>, isModule: (id: string) => boolean): void {
    const key = id.toString();
    if (this.#frozen) throw new Error(`routing is frozen; cannot add reject samples ${key}`);
    if (profile.kind !== "hints") throw new Error(`reject samples ${key} must be RoutingProfile.hints`);
    if (isModule(key) || this.#rejects.has(key))
      throw new Error(`reject samples ${key} conflict with an existing id`);
    this.#rejects.set(key, profile);
  }

  /**
   * Adds a slot recognizer after the engine's own (item mentions): it sees their marks and marks argument names of
   * its own (`<quest>`) in samples and queries alike. Before start only.
   */
  addSlots(factory: SlotFactory): void {
    if (this.#frozen) throw new Error("routing is frozen; cannot add slot recognizers");
    this.#slotFactories.push(factory);
  }

  /** A module's routing (`defaults()` without entries when it declared none or is unknown). */
  routing(id: Identifier | string): AnyModuleRouting {
    return this.#routings.get(id.toString()) ?? ModuleRouting.defaults<unknown>();
  }

  rejects(): ReadonlyMap<string, RoutingProfile<unknown>> {
    return this.#rejects;
  }

  freeze(): void {
    this.#frozen = true;
    this.commands.freeze();
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  /** The semantic index over every profile and reject set; built on first use after freeze. */
  index(): SemanticIndex {
    if (!this.#frozen) throw new Error("the semantic index is built after engine start");
    if (this.#index === undefined) this.#index = new SemanticIndex(this.entries(), this.#slots());
    return this.#index;
  }

  /** The engine's recognizer followed by the features' ones, each built knowing the samples' words. */
  #slots(): SlotRecognizer | undefined {
    if (this.#slotFactories.length === 0) return this.slots;
    const base = this.slots;
    const analyzer = new TextAnalyzer(base);
    const known = new Set<string>();
    for (const entry of this.entries())
      for (const sample of entry.samples) {
        known.add(normalizeText(sample, base));
        for (const word of analyzer.learn(sample).words) known.add(word);
      }
    const samples: SampleWords = {
      has: (phrase) => {
        const words = analyzer.analyze(phrase).words;
        return known.has(normalizeText(phrase, base)) || (words.length === 1 && known.has(words[0] ?? ""));
      },
    };
    const chain = [
      ...(base === undefined ? [] : [base]),
      ...this.#slotFactories.map((build) => build(samples)),
    ];
    return { mark: (text) => chain.reduce((marked, recognizer) => recognizer.mark(marked), text) };
  }

  /** Candidates from extractors (this text only), else shortcuts; ordered by local similarity once frozen. */
  suggestions(
    text: string,
    modules: readonly AnyAgentModule[],
    available: (module: AnyAgentModule) => boolean,
    options: { readonly scores?: ReadonlyMap<string, number>; readonly limit?: number },
  ): SelectionCandidate[] {
    const scores =
      options.scores ??
      (this.#frozen
        ? new Map(
            this.index()
              .search(text, 16)
              .map((score) => [score.target, score.similarity]),
          )
        : undefined);
    return buildSuggestions({
      text,
      modules,
      routingOf: (module) => this.routing(module.id),
      available,
      limit: options.limit ?? 4,
      ...(scores === undefined ? {} : { scores }),
    });
  }

  /**
   * Samples of one target that are near-identical (similarity ≥ `threshold`) to a sample of another target, e.g.
   * an extension copying a built-in sample: they make both targets' margins vanish. Each pair once.
   */
  nearDuplicates(threshold = 0.9): { sample: string; target: string; other: string; otherSample: string }[] {
    const index = this.index();
    const found: { sample: string; target: string; other: string; otherSample: string }[] = [];
    const seen = new Set<string>();
    for (const entry of this.entries())
      for (const sample of entry.samples)
        for (const score of index.search(sample, 4)) {
          if (score.target === entry.target || score.similarity < threshold) continue;
          const key = [entry.target, score.target].sort().join(" ");
          if (seen.has(key)) continue;
          seen.add(key);
          found.push({ sample, target: entry.target, other: score.target, otherSample: score.sample });
        }
    return found;
  }

  /** The index entries (for an embedding index that replaces the local vectors). */
  entries(): IndexEntry[] {
    const entries: IndexEntry[] = [];
    for (const [target, routing] of this.#routings)
      if (routing.profile !== undefined)
        entries.push({ target, reject: false, samples: routing.profile.samples() });
    for (const [target, profile] of this.#rejects)
      entries.push({ target, reject: true, samples: profile.samples() });
    return entries;
  }
}
