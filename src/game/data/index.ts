export { gameData, ItemCatalog, type ItemInfo } from "./item-catalog.js";
export {
  type BlockDrop,
  type CraftingRecipe,
  type EntityDrop,
  ITEM_SOURCES,
  ItemSources,
  type ItemSourcesInfo,
} from "./item-sources.js";
export { loadItemNames, ZH_CN_ITEM_NAMES_PATH } from "./zh-item-names.js";
