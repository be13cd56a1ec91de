/**
 * What the game layer needs of the server's own content (mods, datapacks, KubeJS; built in
 * src/data/content and handed over by the assembly): modded items with names per locale, recipes by output,
 * loot drops by item, tags. Vanilla stays minecraft-data's; this adds to it.
 */
export interface ServerContent {
  /** Every modded or script-registered item: id, mod id, the mod's display name, locale → name. */
  items(): Iterable<{
    readonly id: string;
    readonly mod: string;
    readonly modName: string;
    readonly names: Readonly<Record<string, string>>;
  }>;
  /** The mods the server loads, as their own metadata names them, in load order. */
  mods(): readonly ServerMod[];
  /** One modded item by id, if the pack has it. */
  item(id: string): { readonly names: Readonly<Record<string, string>> } | undefined;
  /** The pack's name of an item or block id in a locale, if it has one. */
  name(id: string, locale: string): string | undefined;
  /** Recipes that make an item: inputs as options (items, `#tags`) with counts, outputs with counts. */
  recipesFor(id: string): readonly ServerRecipe[];
  /**
   * Whether vanilla's recipes were read from the server's own game jar: then they are the server's (furnace,
   * stonecutter and smithing too, datapacks' changes applied) and minecraft-data's crafting grids are not shown.
   */
  hasGameRecipes(): boolean;
  /** How many of the content's recipes take an item as an input. */
  uses(id: string): number;
  /** The items the content's recipes make from an item (what it is used in), each once, in recipe order. */
  usedIn(id: string): readonly string[];
  /** Loot tables that drop an item. */
  dropsOf(id: string): readonly {
    readonly kind: "block" | "entity" | "chest" | "other";
    readonly source: string;
    readonly silkTouch: boolean;
    readonly chance: number;
  }[];
  /** The items a tag stands for. */
  tagItems(tag: string): readonly string[];
  /** A mod's own name for one of its recipe types (`create:mixing`), if its lang has one. */
  typeName(type: string, locale: string): string | undefined;
}

/** One recipe of the server's content, in the shape every layout is read into. */
export interface ServerRecipe {
  readonly id: string;
  readonly type: string;
  readonly inputs: readonly { readonly options: readonly string[]; readonly count: number }[];
  readonly outputs: readonly { readonly item: string; readonly count: number; readonly chance?: number }[];
}

/** One mod of the server: id (`create`), display name, version and loader, from its own metadata. */
export interface ServerMod {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly loader: string;
}
