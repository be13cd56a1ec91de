import type {
  ContentIssue,
  ContentLayer,
  ContentRecipe,
  LootDrop,
  ModInfo,
  TagFile,
} from "./content-model.js";
import { TagResolver } from "./loot-tag-reading.js";
import { conditionsHold } from "./recipe-reading.js";

/** A modded (or script-registered) item: its id, the mod it belongs to, its name in every locale the pack has. */
export interface ContentItem {
  readonly id: string;
  /** The mod id (the id's namespace). */
  readonly mod: string;
  /** The mod's display name (`Create`), or its id when no jar declares it. */
  readonly modName: string;
  /** locale (`en_us`, `zh_cn`, …) → name. */
  readonly names: Readonly<Record<string, string>>;
}

/** Namespaces that are always "loaded" for recipe conditions. */
const ALWAYS_LOADED = ["minecraft", "forge", "neoforge", "fabric", "c", "kubejs"];
const langKey = (kind: string, id: string): string => {
  const colon = id.indexOf(":");
  return `${kind}.${id.slice(0, colon)}.${id.slice(colon + 1).replace(/\//g, ".")}`;
};

/**
 * The content of one server, merged the way the game layers it (mods in load order < resource packs <
 * datapacks < KubeJS): items with their names per locale, recipes by output (conditions checked against the
 * installed mods, KubeJS removals applied), tags resolved, loot drops by item. Built once, read-only after.
 */
export class ContentCatalog {
  readonly #items = new Map<string, ContentItem>();
  readonly #recipesByOutput = new Map<string, ContentRecipe[]>();
  readonly #dropsByItem = new Map<string, LootDrop[]>();
  readonly #lang = new Map<string, Map<string, string>>();
  readonly #tags = new Map<string, TagFile>();
  readonly #resolver: TagResolver;
  readonly #mods: ModInfo[] = [];
  readonly #modNames = new Map<string, string>();
  /** Recipe counts by type, loot table and tag counts, for `inspect`. */
  readonly recipeTypes = new Map<string, number>();
  readonly counts = { recipes: 0, loot: 0, tags: 0, entries: 0, unread: 0, skippedByCondition: 0 };
  readonly skippedRecipes = new Map<string, number>();
  readonly issues: ContentIssue[] = [];

  constructor(readonly layers: readonly ContentLayer[]) {
    const recipes = new Map<string, ContentRecipe | null>();
    const loot = new Map<string, LootDrop[]>();
    const removedOutputs = new Set<string>();
    const registered = new Set<string>();
    for (const layer of layers) {
      this.#mods.push(...layer.mods);
      for (const [locale, table] of Object.entries(layer.lang)) {
        const merged = this.#lang.get(locale) ?? new Map<string, string>();
        for (const [key, value] of Object.entries(table)) merged.set(key, value);
        this.#lang.set(locale, merged);
      }
      for (const [id, recipe] of Object.entries(layer.recipes)) recipes.set(id, recipe);
      for (const output of layer.removedOutputs) removedOutputs.add(output);
      for (const [id, tag] of Object.entries(layer.tags)) {
        const known = this.#tags.get(id);
        this.#tags.set(
          id,
          tag.replace || known === undefined
            ? tag
            : { replace: false, values: [...known.values, ...tag.values] },
        );
      }
      for (const [id, drops] of Object.entries(layer.loot)) loot.set(id, drops);
      for (const id of layer.registered) registered.add(id);
      for (const [type, count] of Object.entries(layer.skippedRecipes))
        this.skippedRecipes.set(type, (this.skippedRecipes.get(type) ?? 0) + count);
      this.counts.entries += layer.entries;
      this.counts.unread += layer.unread;
      this.issues.push(...layer.issues);
    }
    for (const mod of this.#mods) if (!this.#modNames.has(mod.id)) this.#modNames.set(mod.id, mod.name);
    const loaded = new Set([...ALWAYS_LOADED, ...this.#mods.map((mod) => mod.id)]);
    const ids = new Set<string>(registered);
    for (const recipe of recipes.values()) {
      if (recipe === null) continue;
      if (!conditionsHold(recipe.conditions, loaded)) {
        this.counts.skippedByCondition++;
        continue;
      }
      if (recipe.outputs.some((output) => removedOutputs.has(output.item))) continue;
      this.counts.recipes++;
      this.recipeTypes.set(recipe.type, (this.recipeTypes.get(recipe.type) ?? 0) + 1);
      for (const output of new Set(recipe.outputs.map((made) => made.item))) {
        const list = this.#recipesByOutput.get(output) ?? [];
        list.push(recipe);
        this.#recipesByOutput.set(output, list);
        ids.add(output);
      }
    }
    for (const drops of loot.values()) {
      this.counts.loot++;
      for (const drop of drops) {
        const list = this.#dropsByItem.get(drop.item) ?? [];
        list.push(drop);
        this.#dropsByItem.set(drop.item, list);
        ids.add(drop.item);
      }
    }
    this.counts.tags = this.#tags.size;
    const cycles = new Set<string>();
    this.#resolver = new TagResolver(
      this.#tags,
      (tag) => cycles.add(tag),
      (id) => loaded.has(id.slice(0, id.indexOf(":"))),
    );
    for (const tag of this.#tags.keys()) for (const item of this.#resolver.items(tag)) ids.add(item);
    for (const tag of cycles)
      this.issues.push({ file: `#${tag}`, message: "tag refers to itself (cycle cut)" });
    for (const table of this.#lang.values())
      for (const key of table.keys()) {
        const match = /^(item|block)\.([a-z0-9_.-]+?)\.([a-z0-9_.]+)$/.exec(key);
        if (match !== null && this.#modNames.has(match[2]!))
          ids.add(`${match[2]}:${match[3]!.replace(/\./g, "/")}`);
      }
    for (const id of ids) {
      const namespace = id.slice(0, id.indexOf(":"));
      if (namespace === "minecraft" || namespace === "") continue;
      const names: Record<string, string> = {};
      for (const locale of this.#lang.keys()) {
        const name = this.name(id, locale);
        if (name !== undefined) names[locale] = name;
      }
      this.#items.set(id, { id, mod: namespace, modName: this.modName(namespace), names });
    }
  }

  /** A modded item by id; undefined for vanilla ids and ids nothing in the pack names. */
  item(id: string): ContentItem | undefined {
    return this.#items.get(id);
  }

  items(): IterableIterator<ContentItem> {
    return this.#items.values();
  }

  /** The name the pack gives an id in a locale (`item.` key, else the `block.` key of a block item). */
  name(id: string, locale: string): string | undefined {
    const table = this.#lang.get(locale);
    return table?.get(langKey("item", id)) ?? table?.get(langKey("block", id));
  }

  /** A lang text of the pack (a KubeJS quest key, a mod's own words). */
  text(key: string, locale: string): string | undefined {
    return this.#lang.get(locale)?.get(key) ?? this.#lang.get("en_us")?.get(key);
  }

  /** The mod's display name for a namespace (`create` → Create); the namespace itself when none declares it. */
  modName(namespace: string): string {
    return this.#modNames.get(namespace) ?? (namespace === "kubejs" ? "KubeJS" : namespace);
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
      const text = this.#lang.get(locale)?.get(key) ?? this.#lang.get("en_us")?.get(key);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** Recipes that make an item (any layer, conditions held, not removed). */
  recipesFor(id: string): readonly ContentRecipe[] {
    return this.#recipesByOutput.get(id) ?? [];
  }

  /** Loot tables that drop an item. */
  dropsOf(id: string): readonly LootDrop[] {
    return this.#dropsByItem.get(id) ?? [];
  }

  /** The items of a tag (`#c:ingots/steel` or without `#`). */
  tagItems(tag: string): readonly string[] {
    return this.#resolver.items(tag);
  }

  mods(): readonly ModInfo[] {
    return this.#mods;
  }

  locales(): string[] {
    return [...this.#lang.keys()].sort();
  }
}
