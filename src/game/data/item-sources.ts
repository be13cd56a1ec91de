import type { IndexedData, Recipe, RecipeItem } from "minecraft-data";
import { z } from "zod";
import { type Codec, codec } from "../../util/codec.js";
import type { ItemCatalog } from "./item-catalog.js";
import { blockDropConditionSchema, needsSilkTouch } from "./loot-drop.js";
import { readBlockLoot, readEntityLoot } from "./loot-reading.js";

const ingredientSchema = z.object({ item: z.string(), count: z.number().int().positive() });
const recipeSchema = z.object({
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
const sourcesSchema = z.object({
  item: z.string(),
  recipes: z.array(recipeSchema),
  blocks: z.array(blockDropSchema),
  entities: z.array(entityDropSchema),
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
  }

  /** All sources of an item id (`minecraft:diamond`); empty lists for an unknown item. */
  of(itemId: string): ItemSourcesInfo {
    const info = this.catalog.lookup(itemId);
    if (info === undefined) return { item: itemId, recipes: [], blocks: [], entities: [] };
    const name = info.id.slice("minecraft:".length);
    return {
      item: info.id,
      recipes: this.recipes(info.numericId),
      blocks: [...(this.#blocksByItem.get(name) ?? [])].sort((left, right) => right.chance - left.chance),
      entities: [...(this.#entitiesByItem.get(name) ?? [])].sort((left, right) => right.chance - left.chance),
    };
  }

  /** Distinct crafting recipes producing the item (minecraft-data repeats a recipe per tag member). */
  recipes(numericId: number): CraftingRecipe[] {
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
