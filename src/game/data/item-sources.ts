import type { IndexedData, Recipe, RecipeItem } from "minecraft-data";
import { z } from "zod";
import { type Codec, codec } from "../../util/codec.js";
import type { ItemCatalog } from "./item-catalog.js";
import { blockDropConditionSchema, needsSilkTouch } from "./loot-drop.js";
import { readBlockLoot, readEntityLoot } from "./loot-reading.js";
import type { ServerContent, ServerRecipe } from "./server-content.js";

const ingredientSchema = z.object({
  /** An item id, or `#ns:tag` for a tag. */
  item: z.string(),
  count: z.number().int().positive(),
  /** The items a tag (or a choice of items) stands for, at most eight; absent for one plain item. */
  options: z.array(z.string()).max(8).optional(),
});
const recipeSchema = z.object({
  /** The recipe type of the server's content (`minecraft:smelting`, `create:mixing`); absent for vanilla grids. */
  type: z.string().optional(),
  shaped: z.boolean(),
  resultCount: z.number().int().positive(),
  ingredients: z.array(ingredientSchema),
  /** Rows of item ids, null for an empty cell; only for shaped recipes. */
  shape: z.array(z.array(z.string().nullable())).optional(),
});
const blockDropSchema = z.object({
  block: z.string(),
  /** Probability once `condition` holds, 0–1. */
  chance: z.number(),
  /** Fewest items of one drop; 0 means the roll can yield nothing. */
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Whether the drop needs Silk Touch (or, for leaves and cobwebs, shears); `condition` says exactly. */
  silkTouch: z.boolean(),
  condition: blockDropConditionSchema,
  /** Whether Fortune raises the count or the chance. */
  fortune: z.boolean(),
});
const entityDropSchema = z.object({
  entity: z.string(),
  chance: z.number(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  playerKill: z.boolean(),
  /** Whether Looting raises the count or the chance. */
  looting: z.boolean(),
});
/** The most items a look-up names as what an item is used in (the rest are counted). */
export const USED_IN_LIMIT = 24;

const sourcesSchema = z.object({
  item: z.string(),
  recipes: z.array(recipeSchema),
  blocks: z.array(blockDropSchema),
  entities: z.array(entityDropSchema),
  /** Items whose recipes take this one (vanilla's and the server content's), at most {@link USED_IN_LIMIT}. */
  usedIn: z.array(z.string()).max(USED_IN_LIMIT).optional(),
  /** How many items in all take it, when more than `usedIn` names. */
  usedInTotal: z.number().int().nonnegative().optional(),
});

export type CraftingRecipe = z.infer<typeof recipeSchema>;
export type BlockDrop = z.infer<typeof blockDropSchema>;
export type EntityDrop = z.infer<typeof entityDropSchema>;
/** Where an item comes from: crafting recipes that make it, blocks and entities that drop it. */
export type ItemSourcesInfo = z.infer<typeof sourcesSchema>;
export const ITEM_SOURCES: Codec<ItemSourcesInfo> = codec(sourcesSchema);

const recipeItemId = (item: RecipeItem): number | null => {
  if (item === null || typeof item === "number") return item;
  if (Array.isArray(item)) return item[0] ?? null;
  return item.id;
};

const recipeResultCount = (item: RecipeItem): number =>
  typeof item === "object" && item !== null && !Array.isArray(item) ? (item.count ?? 1) : 1;

/**
 * Crafting recipes, block loot and entity loot from minecraft-data, indexed by the item they yield. Loot is read
 * through `readBlockLoot`/`readEntityLoot`, which replace the tables minecraft-data gets wrong with vanilla's.
 */
export class ItemSources {
  readonly #blocksByItem = new Map<string, BlockDrop[]>();
  readonly #entitiesByItem = new Map<string, EntityDrop[]>();
  /** Vanilla's distinct recipes by the numeric id of the item they make, converted once (minecraft-data is fixed). */
  readonly #recipes = new Map<number, CraftingRecipe[]>();
  /** Item id → the vanilla items its recipes make (what it is used in), from the same recipes. */
  readonly #usedBy = new Map<string, string[]>();

  constructor(
    private readonly data: IndexedData,
    private readonly catalog: ItemCatalog,
  ) {
    for (const entry of Object.values(data.blockLoot)) {
      for (const { item, condition, ...drop } of readBlockLoot(entry)) {
        const list = this.#blocksByItem.get(item) ?? [];
        list.push({
          block: `minecraft:${entry.block}`,
          ...drop,
          silkTouch: needsSilkTouch(condition),
          condition,
        });
        this.#blocksByItem.set(item, list);
      }
    }
    for (const entry of Object.values(data.entityLoot)) {
      for (const { item, ...drop } of readEntityLoot(entry)) {
        const list = this.#entitiesByItem.get(item) ?? [];
        list.push({ entity: `minecraft:${entry.entity}`, ...drop });
        this.#entitiesByItem.set(item, list);
      }
    }
    // converted here, like the loot: an item's card never converts its recipes on the request's path
    for (const numericId of Object.keys(data.recipes)) {
      const output = catalog.byNumericId(Number(numericId))?.id;
      for (const recipe of this.recipes(Number(numericId)))
        for (const { item } of recipe.ingredients) {
          if (output === undefined || item.startsWith("#") || item === output) continue;
          const made = this.#usedBy.get(item);
          if (made === undefined) this.#usedBy.set(item, [output]);
          else if (!made.includes(output)) made.push(output);
        }
    }
  }

  /**
   * The items whose recipes take an item: vanilla's (unless the server's game jar gave its own recipes, which are
   * the content's then) and the server content's, each once.
   */
  usedIn(itemId: string): string[] {
    const content = this.catalog.content;
    const vanilla = content?.hasGameRecipes() === true ? [] : (this.#usedBy.get(itemId) ?? []);
    return [...new Set([...vanilla, ...(content?.usedIn(itemId) ?? [])])];
  }

  /**
   * All sources of an item id (`minecraft:diamond`, `create:andesite_alloy`): vanilla's from minecraft-data,
   * then the server content's recipes and loot (mods, datapacks, KubeJS); empty lists for an unknown item.
   */
  of(itemId: string): ItemSourcesInfo {
    const info = this.catalog.lookup(itemId);
    if (info === undefined) return { item: itemId, recipes: [], blocks: [], entities: [] };
    const usedIn = this.usedIn(info.id);
    const vanilla = info.id.startsWith("minecraft:");
    const name = info.id.slice("minecraft:".length);
    const content = this.catalog.content;
    const drops = content?.dropsOf(info.id) ?? [];
    const served = content?.recipesFor(info.id) ?? [];
    // the server's own vanilla recipes (its game jar was read) replace minecraft-data's grids for an item they make;
    // an item they give none for (a special recipe such as the firework rocket's) keeps minecraft-data's
    const ownVanilla =
      content?.hasGameRecipes() === true && served.some((recipe) => recipe.id.startsWith("minecraft:"));
    return {
      item: info.id,
      recipes: [
        ...(vanilla && info.numericId >= 0 && !ownVanilla ? this.recipes(info.numericId) : []),
        ...served.map((recipe) => contentRecipe(recipe, info.id, content!)),
      ],
      blocks: [
        ...(vanilla ? (this.#blocksByItem.get(name) ?? []) : []),
        ...drops.filter((drop) => drop.kind === "block").map(contentBlockDrop),
      ].sort((left, right) => right.chance - left.chance),
      entities: [
        ...(vanilla ? (this.#entitiesByItem.get(name) ?? []) : []),
        ...drops
          .filter((drop) => drop.kind === "entity")
          .map((drop) => ({
            entity: drop.source,
            chance: drop.chance,
            min: 1,
            max: null,
            playerKill: false,
            looting: false,
          })),
      ].sort((left, right) => right.chance - left.chance),
      ...(usedIn.length === 0 ? {} : { usedIn: usedIn.slice(0, USED_IN_LIMIT) }),
      ...(usedIn.length > USED_IN_LIMIT ? { usedInTotal: usedIn.length } : {}),
    };
  }

  /** Distinct crafting recipes producing the item (minecraft-data repeats a recipe per tag member). */
  recipes(numericId: number): CraftingRecipe[] {
    let converted = this.#recipes.get(numericId);
    if (converted === undefined) {
      converted = this.#distinctRecipes(numericId);
      this.#recipes.set(numericId, converted);
    }
    return converted;
  }

  #distinctRecipes(numericId: number): CraftingRecipe[] {
    const seen = new Set<string>();
    const result: CraftingRecipe[] = [];
    for (const recipe of this.data.recipes[numericId] ?? []) {
      const converted = this.#convert(recipe);
      const key = JSON.stringify(converted);
      if (seen.has(key)) continue;
      seen.add(key);
      result.push(converted);
    }
    return result;
  }

  #convert(recipe: Recipe): CraftingRecipe {
    const idOf = (item: RecipeItem): string | null => {
      const id = recipeItemId(item);
      return id === null ? null : (this.catalog.byNumericId(id)?.id ?? `#${id}`);
    };
    const cells = "inShape" in recipe ? recipe.inShape.flat() : recipe.ingredients;
    const counts = new Map<string, number>();
    for (const cell of cells) {
      const id = idOf(cell);
      if (id !== null) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const ingredients = [...counts].map(([item, count]) => ({ item, count }));
    const base = { resultCount: recipeResultCount(recipe.result), ingredients };
    return "inShape" in recipe
      ? { shaped: true, ...base, shape: recipe.inShape.map((row) => row.map(idOf)) }
      : { shaped: false, ...base };
  }
}

/** Items of one ingredient slot: a tag's items (at most eight), or the items it offers. */
const slotOptions = (options: readonly string[], content: ServerContent): string[] =>
  [
    ...new Set(options.flatMap((option) => (option.startsWith("#") ? content.tagItems(option) : [option]))),
  ].slice(0, 8);

/** A content recipe as the card and the tools carry it: its type, ingredients (tags with their items). */
const contentRecipe = (recipe: ServerRecipe, item: string, content: ServerContent): CraftingRecipe => ({
  type: recipe.type,
  shaped: recipe.type === "minecraft:crafting_shaped",
  resultCount: recipe.outputs.find((output) => output.item === item)?.count ?? 1,
  ingredients: recipe.inputs.map((input) => {
    const first = input.options[0] ?? "?";
    const plain = input.options.length === 1 && !first.startsWith("#");
    const options = plain ? [] : slotOptions(input.options, content);
    return options.length === 0
      ? { item: first, count: input.count }
      : { item: first, count: input.count, options };
  }),
});

/** A loot table's block drop: always one roll as far as a static read can say; Silk Touch as the table asks. */
const contentBlockDrop = (drop: { source: string; silkTouch: boolean; chance: number }): BlockDrop => ({
  block: drop.source,
  chance: drop.chance,
  min: 1,
  max: null,
  silkTouch: drop.silkTouch,
  condition: drop.silkTouch ? "silk_touch" : "none",
  fortune: false,
});
