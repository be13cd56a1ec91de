/**
 * Where a layer of content came from, lowest first: the server's own game jar (`game`: vanilla's recipes and item
 * tags in its `data/minecraft`) < mods (load order) < resource packs < datapacks < KubeJS.
 */
export type LayerKind = "game" | "mod" | "resourcepack" | "datapack" | "kubejs";

/** One mod a jar declares (`mods.toml`, `neoforge.mods.toml` or `fabric.mod.json`). */
export interface ModInfo {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly loader: "forge" | "neoforge" | "fabric";
  /** The jar file (and nested jar) it came from. */
  readonly file: string;
}

/** One ingredient slot: any of `options` (`ns:path` items, `#ns:path` tags), `count` of them. */
export interface Ingredient {
  readonly options: readonly string[];
  readonly count: number;
}

/** One output of a recipe; `chance` below 1 for a chanced byproduct (Create's crushing). */
export interface RecipeOutput {
  readonly item: string;
  readonly count: number;
  readonly chance?: number;
}

/** A recipe in one shape whatever its layout (1.20.1, 1.20.5+, 1.21.2+) or mod. */
export interface ContentRecipe {
  /** The recipe id (`create:mixing/andesite_alloy`). */
  readonly id: string;
  /** The recipe type (`minecraft:crafting_shaped`, `create:mixing`). */
  readonly type: string;
  readonly inputs: readonly Ingredient[];
  readonly outputs: readonly RecipeOutput[];
  /** Load conditions as written (`forge:mod_loaded`, `neoforge:conditions`…), checked when layers merge. */
  readonly conditions?: readonly unknown[];
}

/** What a loot table drops: the item, the block/entity/chest it comes from, and whether it needs Silk Touch. */
export interface LootDrop {
  readonly item: string;
  /** `block`, `entity` or `chest` (any other table: `other`). */
  readonly kind: "block" | "entity" | "chest" | "other";
  /** The block or entity id (`mekanism:osmium_ore`), or the table id for chests. */
  readonly source: string;
  readonly silkTouch: boolean;
  /** The chance of the roll as far as `random_chance` conditions say (1 when none). */
  readonly chance: number;
}

/** A tag file: its values (`ns:id`, `#ns:tag`, optional ones marked) and whether it replaces lower layers. */
export interface TagFile {
  readonly replace: boolean;
  readonly values: readonly { readonly id: string; readonly required: boolean }[];
}

/** Something that could not be read, with the file and entry it was in. */
export interface ContentIssue {
  readonly file: string;
  readonly entry?: string;
  readonly message: string;
}

/** Everything read from one source (a jar with its nested jars, a datapack, a resource pack, `kubejs/`). */
export interface ContentLayer {
  readonly kind: LayerKind;
  /** The file or folder, relative to the server folder. */
  readonly source: string;
  readonly mods: ModInfo[];
  /** locale (`en_us`) → key → text; only `item.`, `block.`, `entity.` keys and recipe-type names. */
  readonly lang: Record<string, Record<string, string>>;
  /** Recipe id → recipe; null removes the recipe of that id (KubeJS `remove({id})`). */
  readonly recipes: Record<string, ContentRecipe | null>;
  /** Outputs whose recipes KubeJS removes (`remove({output})`). */
  readonly removedOutputs: string[];
  /** Tag id (`c:ingots/steel`) → its file. */
  readonly tags: Record<string, TagFile>;
  /** Loot table id → its item drops. */
  readonly loot: Record<string, LootDrop[]>;
  /** Recipe files of a type whose item outputs could not be found (fluid-only, unknown shape), by type. */
  readonly skippedRecipes: Record<string, number>;
  /** Item ids registered by a script (KubeJS startup), named by lang or their path. */
  readonly registered: string[];
  /** Script statements that cannot be read statically (loops, variables, filters). */
  unread: number;
  readonly issues: ContentIssue[];
  /** Entries read, for the progress line and `inspect`. */
  entries: number;
}

export const emptyLayer = (kind: LayerKind, source: string): ContentLayer => ({
  kind,
  source,
  mods: [],
  lang: {},
  recipes: {},
  removedOutputs: [],
  skippedRecipes: {},
  tags: {},
  loot: {},
  registered: [],
  unread: 0,
  issues: [],
  entries: 0,
});
