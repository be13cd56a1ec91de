import {
  type CatalogTables,
  type ContentCounts,
  type ContentItem,
  langKey,
  modNameOf,
  nameIn,
  type SourceSummary,
} from "./content-merge.js";
import type { ContentIssue, ContentRecipe, LootDrop, ModInfo } from "./content-model.js";

export type { ContentItem, SourceSummary } from "./content-merge.js";

/**
 * The content of one server, merged the way the game layers it (mods in load order < resource packs <
 * datapacks < KubeJS): items with their names per locale, recipes by output (conditions checked against the
 * installed mods, KubeJS removals applied), tags resolved, loot drops by item. Built once from layers
 * (`mergeLayers`) or read back whole from a snapshot of its merged state; read-only after.
 */
export class ContentCatalog {
  readonly #state: CatalogTables;
  /** Recipe counts by type, loot table and tag counts, for `inspect`. */
  readonly recipeTypes: ReadonlyMap<string, number>;
  readonly counts: Readonly<ContentCounts>;
  readonly skippedRecipes: ReadonlyMap<string, number>;
  readonly issues: readonly ContentIssue[];
  /** What each source gave, in layer order. */
  readonly sources: readonly SourceSummary[];
  /** The server's own game jar that gave vanilla's recipes (relative to the server folder); undefined without one. */
  readonly gameJar: string | undefined;

  constructor(state: CatalogTables) {
    this.#state = state;
    this.recipeTypes = state.recipeTypes;
    this.counts = state.counts;
    this.skippedRecipes = state.skippedRecipes;
    this.issues = state.issues;
    this.sources = state.sources;
    this.gameJar = state.sources.find((source) => source.kind === "game" && source.recipes > 0)?.source;
  }

  /** A modded item by id; undefined for vanilla ids and ids nothing in the pack names. */
  item(id: string): ContentItem | undefined {
    return this.#state.items.get(id);
  }

  items(): IterableIterator<ContentItem> {
    return this.#state.items.values();
  }

  /** The name the pack gives an id in a locale (`item.` key, else the `block.` key of a block item). */
  name(id: string, locale: string): string | undefined {
    return nameIn(this.#state.lang.get(locale), id);
  }

  /** A lang text of the pack (a KubeJS quest key, a mod's own words). */
  text(key: string, locale: string): string | undefined {
    const { lang } = this.#state;
    return lang.get(locale)?.get(key) ?? lang.get("en_us")?.get(key);
  }

  /** The mod's display name for a namespace (`create` → Create); the namespace itself when none declares it. */
  modName(namespace: string): string {
    return modNameOf(this.#state.modNames, namespace);
  }

  /** What a mod calls one of its recipe types (`create:mixing` → Mixing), from its lang; undefined if silent. */
  typeName(type: string, locale: string): string | undefined {
    const [namespace, path = ""] = type.split(":", 2) as [string, string?];
    const keys = [
      `${namespace}.recipe.${path}`,
      `recipe.${namespace}.${path}`,
      `emi.category.${namespace}.${path}`,
      `${namespace}.jei.category.${path}`,
      `jei.category.${namespace}.${path}`,
      `gui.${namespace}.category.${path}`,
      langKey("block", type),
    ];
    for (const key of keys) {
      const text = this.text(key, locale);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** Whether the server's own game jar gave vanilla's recipes (see `ServerContent.hasGameRecipes`). */
  hasGameRecipes(): boolean {
    return this.gameJar !== undefined;
  }

  /** Recipes that make an item (any layer, conditions held, not removed). */
  recipesFor(id: string): readonly ContentRecipe[] {
    return this.#state.recipesByOutput.get(id) ?? [];
  }

  /** How many of the content's recipes take an item (a pack's base materials rank first in searches). */
  uses(id: string): number {
    return this.#state.inputUses.get(id) ?? 0;
  }

  /** The items the content's recipes make from an item (at most USED_BY_LIMIT). */
  usedIn(id: string): readonly string[] {
    return this.#state.usedBy.get(id) ?? [];
  }

  /** Loot tables that drop an item. */
  dropsOf(id: string): readonly LootDrop[] {
    return this.#state.dropsByItem.get(id) ?? [];
  }

  /** The items of a tag (`#c:ingots/steel` or without `#`). */
  tagItems(tag: string): readonly string[] {
    return this.#state.tagItems.get(tag.replace(/^#/, "")) ?? [];
  }

  mods(): readonly ModInfo[] {
    return this.#state.mods;
  }

  locales(): string[] {
    return [...this.#state.lang.keys()].sort();
  }
}
