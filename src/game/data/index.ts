export {
  type GameNameKind,
  type GameNames,
  GameNameTable,
  ZH_CN_ENTITY_NAMES_PATH,
} from "./game-names.js";
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
