import type {
  ContentIssue,
  ContentLayer,
  ContentRecipe,
  LayerKind,
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

/** What one source gave, for `content inspect`: its kind and file, and what a KubeJS folder's scripts did. */
export interface SourceSummary {
  readonly kind: LayerKind;
  /** The file or folder, relative to the server folder. */
  readonly source: string;
  /** Recipes added (KubeJS `shaped`, …), removals by id or output, items registered by startup scripts. */
  readonly recipes: number;
  readonly removals: number;
  readonly registered: number;
}

export interface ContentCounts {
  recipes: number;
  loot: number;
  tags: number;
  entries: number;
  unread: number;
  skippedByCondition: number;
}

/** One entry of a table by key: a map, or a table whose entries are parsed when first asked. */
export interface Table<T> {
  get(key: string): T | undefined;
}

/** What `ContentCatalog` answers from: the merged state, or the same read back from a snapshot. */
export interface CatalogTables {
  readonly items: ReadonlyMap<string, ContentItem>;
  readonly recipesByOutput: Table<readonly ContentRecipe[]>;
  readonly dropsByItem: Table<readonly LootDrop[]>;
  readonly lang: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Tag id (without `#`) → its items, resolved. */
  readonly tagItems: Table<readonly string[]>;
  readonly mods: readonly ModInfo[];
  readonly modNames: ReadonlyMap<string, string>;
  readonly recipeTypes: ReadonlyMap<string, number>;
  /** How many of the recipes take each item as an input (a tag ingredient counts for each of its items). */
  readonly inputUses: ReadonlyMap<string, number>;
  /** Item → the items its recipes make (at most {@link USED_BY_LIMIT}, in recipe order): what it is used in. */
  readonly usedBy: Table<readonly string[]>;
  readonly counts: Readonly<ContentCounts>;
  readonly skippedRecipes: ReadonlyMap<string, number>;
  readonly issues: readonly ContentIssue[];
  readonly sources: readonly SourceSummary[];
}

/** The merged catalog as plain data (maps, arrays, objects); tags are kept resolved (tag → items). */
export interface CatalogState extends CatalogTables {
  readonly items: Map<string, ContentItem>;
  readonly recipesByOutput: Map<string, ContentRecipe[]>;
  readonly dropsByItem: Map<string, LootDrop[]>;
  readonly lang: Map<string, Map<string, string>>;
  readonly tagItems: Map<string, readonly string[]>;
  readonly mods: ModInfo[];
  readonly modNames: Map<string, string>;
  readonly recipeTypes: Map<string, number>;
  readonly inputUses: Map<string, number>;
  readonly usedBy: Map<string, string[]>;
  readonly counts: ContentCounts;
  readonly skippedRecipes: Map<string, number>;
  readonly issues: ContentIssue[];
  readonly sources: SourceSummary[];
}

/** Namespaces that are always "loaded" for recipe conditions. */
const ALWAYS_LOADED = ["minecraft", "forge", "neoforge", "fabric", "c", "kubejs"];

export const langKey = (kind: string, id: string): string => {
  const colon = id.indexOf(":");
  return `${kind}.${id.slice(0, colon)}.${id.slice(colon + 1).replace(/\//g, ".")}`;
};

/** The name a lang table gives an id (`item.` key, else the `block.` key of a block item). */
export const nameIn = (table: ReadonlyMap<string, string> | undefined, id: string): string | undefined =>
  table?.get(langKey("item", id)) ?? table?.get(langKey("block", id));

export const modNameOf = (modNames: ReadonlyMap<string, string>, namespace: string): string =>
  modNames.get(namespace) ?? (namespace === "kubejs" ? "KubeJS" : namespace);

const summary = (layer: ContentLayer): SourceSummary => {
  const recipes = Object.values(layer.recipes);
  const removed = recipes.filter((recipe) => recipe === null).length;
  return {
    kind: layer.kind,
    source: layer.source,
    recipes: recipes.length - removed,
    removals: removed + layer.removedOutputs.length,
    registered: layer.registered.length,
  };
};

/**
 * Merges layers the way the game layers them (mods in load order < resource packs < datapacks < KubeJS): items
 * with their names per locale, recipes by output (conditions checked against the installed mods, KubeJS removals
 * applied), tags resolved, loot drops by item.
 */
export const mergeLayers = (layers: readonly ContentLayer[]): CatalogState => {
  const state: CatalogState = {
    items: new Map(),
    recipesByOutput: new Map(),
    dropsByItem: new Map(),
    lang: new Map(),
    tagItems: new Map(),
    mods: [],
    modNames: new Map(),
    recipeTypes: new Map(),
    inputUses: new Map(),
    usedBy: new Map(),
    counts: { recipes: 0, loot: 0, tags: 0, entries: 0, unread: 0, skippedByCondition: 0 },
    skippedRecipes: new Map(),
    issues: [],
    sources: layers.map(summary),
  };
  const { lang, counts } = state;
  const tags = new Map<string, TagFile>();
  const recipes = new Map<string, ContentRecipe | null>();
  const loot = new Map<string, LootDrop[]>();
  const removedOutputs = new Set<string>();
  const registered = new Set<string>();
  for (const layer of layers) {
    state.mods.push(...layer.mods);
    for (const [locale, table] of Object.entries(layer.lang)) {
      const merged = lang.get(locale) ?? new Map<string, string>();
      for (const [key, value] of Object.entries(table)) merged.set(key, value);
      lang.set(locale, merged);
    }
    for (const [id, recipe] of Object.entries(layer.recipes)) recipes.set(id, recipe);
    for (const output of layer.removedOutputs) removedOutputs.add(output);
    for (const [id, tag] of Object.entries(layer.tags)) {
      const known = tags.get(id);
      tags.set(
        id,
        tag.replace || known === undefined
          ? tag
          : { replace: false, values: [...known.values, ...tag.values] },
      );
    }
    for (const [id, drops] of Object.entries(layer.loot)) loot.set(id, drops);
    for (const id of layer.registered) registered.add(id);
    for (const [type, count] of Object.entries(layer.skippedRecipes))
      state.skippedRecipes.set(type, (state.skippedRecipes.get(type) ?? 0) + count);
    counts.entries += layer.entries;
    counts.unread += layer.unread;
    state.issues.push(...layer.issues);
  }
  for (const mod of state.mods) if (!state.modNames.has(mod.id)) state.modNames.set(mod.id, mod.name);
  const loaded = new Set([...ALWAYS_LOADED, ...state.mods.map((mod) => mod.id)]);
  const ids = new Set<string>(registered);
  const kept: ContentRecipe[] = [];
  for (const recipe of recipes.values()) {
    if (recipe === null) continue;
    if (!conditionsHold(recipe.conditions, loaded)) {
      counts.skippedByCondition++;
      continue;
    }
    if (recipe.outputs.some((output) => removedOutputs.has(output.item))) continue;
    counts.recipes++;
    state.recipeTypes.set(recipe.type, (state.recipeTypes.get(recipe.type) ?? 0) + 1);
    kept.push(recipe);
    for (const output of new Set(recipe.outputs.map((made) => made.item))) {
      const list = state.recipesByOutput.get(output) ?? [];
      list.push(recipe);
      state.recipesByOutput.set(output, list);
      ids.add(output);
    }
  }
  for (const drops of loot.values()) {
    counts.loot++;
    for (const drop of drops) {
      const list = state.dropsByItem.get(drop.item) ?? [];
      list.push(drop);
      state.dropsByItem.set(drop.item, list);
      ids.add(drop.item);
    }
  }
  counts.tags = tags.size;
  const cycles = new Set<string>();
  const resolver = new TagResolver(
    tags,
    (tag) => cycles.add(tag),
    (id) => loaded.has(id.slice(0, id.indexOf(":"))),
  );
  for (const tag of tags.keys()) {
    const items = resolver.items(tag);
    for (const item of items) ids.add(item);
  }
  // every tag is resolved by now (a tag of a cycle as far as the cut left it): kept as the answers
  for (const tag of tags.keys()) state.tagItems.set(tag, resolver.items(tag));
  indexInputs(kept, state.tagItems, state);
  for (const tag of cycles)
    state.issues.push({ file: `#${tag}`, message: "tag refers to itself (cycle cut)" });
  for (const table of lang.values())
    for (const key of table.keys()) {
      const match = /^(item|block)\.([a-z0-9_.-]+?)\.([a-z0-9_.]+)$/.exec(key);
      if (match !== null && state.modNames.has(match[2]!))
        ids.add(`${match[2]}:${match[3]!.replace(/\./g, "/")}`);
    }
  for (const id of ids) {
    const namespace = id.slice(0, id.indexOf(":"));
    if (namespace === "minecraft" || namespace === "") continue;
    const names: Record<string, string> = {};
    for (const [locale, table] of lang) {
      const name = nameIn(table, id);
      if (name !== undefined) names[locale] = name;
    }
    state.items.set(id, { id, mod: namespace, modName: modNameOf(state.modNames, namespace), names });
  }
  return state;
};

/** The most items kept as what one item is used in (a base material of a big pack is in thousands). */
export const USED_BY_LIMIT = 64;

/**
 * How many recipes take each item (once per recipe; a `#tag` option counts for each item it stands for), and what
 * those recipes make (each item once, at most {@link USED_BY_LIMIT}).
 */
const indexInputs = (
  recipes: readonly ContentRecipe[],
  tagItems: ReadonlyMap<string, readonly string[]>,
  into: { readonly inputUses: Map<string, number>; readonly usedBy: Map<string, string[]> },
): void => {
  for (const recipe of recipes) {
    const taken = new Set<string>();
    for (const input of recipe.inputs)
      for (const option of input.options)
        if (option.startsWith("#")) for (const item of tagItems.get(option.slice(1)) ?? []) taken.add(item);
        else taken.add(option);
    for (const item of taken) {
      into.inputUses.set(item, (into.inputUses.get(item) ?? 0) + 1);
      const made = into.usedBy.get(item) ?? [];
      if (made.length === 0) into.usedBy.set(item, made);
      for (const output of recipe.outputs)
        if (output.item !== item && made.length < USED_BY_LIMIT && !made.includes(output.item))
          made.push(output.item);
    }
  }
};
