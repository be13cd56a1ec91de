import type { ServerContent } from "../../../game/data/server-content.js";

/** Vanilla recipe types players know by their block (`minecraft:smelting` → furnace); keys in the lang files. */
const VANILLA_STATIONS = new Set([
  "crafting_shaped",
  "crafting_shapeless",
  "smelting",
  "blasting",
  "smoking",
  "campfire_cooking",
  "smithing_transform",
  "stonecutting",
]);

/** Where a recipe is made, as the card shows it: a vanilla station's key, or a mod's own name of its type. */
export interface RecipeStation {
  readonly key?: string;
  readonly name?: string;
}

/**
 * The station of a recipe type: vanilla types by their block (translated), a mod's type by the words its lang
 * gives it (`create:mixing` → 混合搅拌), else the type id itself; undefined for vanilla grids without a type.
 */
export const recipeStation = (
  type: string | undefined,
  content: ServerContent | undefined,
  locale: string,
): RecipeStation | undefined => {
  if (type === undefined) return undefined;
  if (type.startsWith("minecraft:")) {
    const path = type.slice("minecraft:".length);
    return VANILLA_STATIONS.has(path) ? { key: `system.item.station.${path}` } : { name: path };
  }
  return { name: content?.typeName(type, locale) ?? type };
};
