export {
  CRITERION,
  ITEM_ID,
  MAX_GIVE_COUNT,
  NBT_PATH,
  OBJECTIVE_NAME,
  PLAYER_NAME,
} from "./command-arguments.js";
export { type ClearReply, clearCommand, type GiveReply, giveCommand } from "./item-commands.js";
export {
  type DataReply,
  dataGetEntityCommand,
  type ExperienceReply,
  experienceAddCommand,
  type ListedPlayer,
  type ListReply,
  listCommand,
} from "./player-commands.js";
export {
  DEFAULT_BACKOFF,
  DEFAULT_COMMAND_TIMEOUT_MILLIS,
  DEFAULT_CONNECT_TIMEOUT_MILLIS,
  RconClient,
  type RconClientOptions,
} from "./rcon-client.js";
export {
  type CommandDialect,
  commandText,
  type NoEntity,
  type NoPlayer,
  type RconCommand,
  type UnknownCommand,
  type UnknownItem,
} from "./rcon-command.js";
export { RconCommands } from "./rcon-commands.js";
export {
  DEFAULT_RCON_PORT,
  isLoopbackHost,
  loadRconSettings,
  mergeRconFlags,
  parseRconAddress,
  type RconConfig,
  type RconSettings,
  rconConfigSchema,
} from "./rcon-config.js";
export { RconError, type RconFailureKind } from "./rcon-error.js";
export { loadReplyLanguage, REPLY_KEYS, type ReplyKey, ReplyLanguage } from "./reply-language.js";
export {
  type ObjectiveAddReply,
  objectiveAddCommand,
  type SaveReply,
  type ScoreReply,
  saveAllCommand,
  scoreGetCommand,
} from "./server-commands.js";
