import { CHECK_IN_FEATURE } from "../module/builtin/check-in/check-in-feature.js";
import { CORE_FEATURE_TYPE } from "../module/builtin/core/core-feature.js";
import { DELIVERIES_FEATURE } from "../module/builtin/deliveries/deliveries-feature.js";
import { FREE_CHAT_FEATURE } from "../module/builtin/free-chat/free-chat-feature.js";
import { HELP_FEATURE } from "../module/builtin/help/help-feature.js";
import { ITEM_QUERY_FEATURE } from "../module/builtin/item-query/item-query-feature.js";
import { KNOWLEDGE_MODULE_TYPE } from "../module/builtin/knowledge/knowledge-module.js";
import { WEB_PANEL_FEATURE } from "../module/builtin/panel/panel-feature.js";
import { PLAYER_QUERY_FEATURE } from "../module/builtin/player-query/player-query-feature.js";
import { POINTS_FEATURE } from "../module/builtin/points/points-feature.js";
import { QUESTION_MODULE_TYPE } from "../module/builtin/question/question-system-module.js";
import { QUESTS_FEATURE } from "../module/builtin/quests/quests-feature.js";
import { REASONING_MODULE_TYPE } from "../module/builtin/reasoning/reasoning-system-module.js";
import { SEARCH_MODULE_TYPE } from "../module/builtin/search/search-module.js";
import { SHOP_FEATURE } from "../module/builtin/shop/shop-feature.js";
import { WELCOME_FEATURE } from "../module/builtin/welcome/welcome-feature.js";
import type { AnyServerModuleType } from "../module/server-module.js";
import { Registry } from "../util/registry.js";

/** Every feature type System ships; data-pack entries choose which are installed. */
export const builtinModuleTypes = (): AnyServerModuleType[] => [
  CORE_FEATURE_TYPE,
  HELP_FEATURE,
  ITEM_QUERY_FEATURE,
  PLAYER_QUERY_FEATURE,
  CHECK_IN_FEATURE,
  POINTS_FEATURE,
  DELIVERIES_FEATURE,
  KNOWLEDGE_MODULE_TYPE,
  SEARCH_MODULE_TYPE,
  QUESTION_MODULE_TYPE,
  REASONING_MODULE_TYPE,
  FREE_CHAT_FEATURE,
  QUESTS_FEATURE,
  SHOP_FEATURE,
  WELCOME_FEATURE,
  WEB_PANEL_FEATURE,
];

/** The registry the ModuleManager installs from: built-in types plus an extension's own. */
export const moduleTypeRegistry = (
  extra: readonly AnyServerModuleType[] = [],
): Registry<AnyServerModuleType> => {
  const registry = new Registry<AnyServerModuleType>("server module types");
  for (const type of [...builtinModuleTypes(), ...extra]) registry.register(type.id, type);
  registry.freeze();
  return registry;
};
