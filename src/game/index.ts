// The game services features use (`system/game`): the context types the assembly injects and the game tools.
export {
  type EventSink,
  type GameClock,
  GameContextTypes,
  systemClock,
} from "./context-types.js";
export type { ItemCatalog, ItemInfo } from "./data/item-catalog.js";
export type { GameBridge, GiveOutcome, GiveRefusal, GiveStack } from "./game-bridge.js";
export {
  GAME_EVENT_TYPES,
  GAME_EVENTS,
  type GameEvent,
  type GameEventData,
  type GameEventSink,
  type GameEventType,
  GameEventTypes,
} from "./game-events.js";
export { GameFailures } from "./tools/game-failures.js";
export {
  GIVE_ITEMS,
  giveItemsTool,
  ITEM_STACK,
  ITEM_STACKS,
  type ItemStack,
} from "./tools/give-items-tool.js";
export { ITEM_LOOKUP, type ItemLookupOutput } from "./tools/item-tools.js";
export { MemoryGameBridge, type MemoryPlayer } from "./tools/memory-game-bridge.js";
export { PLAYER_INFO, type PlayerInfoOutput, playerInfoTool } from "./tools/player-tools.js";
