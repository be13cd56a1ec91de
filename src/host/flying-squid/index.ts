export {
  type CardButtonView,
  type CardView,
  cardButtonCommand,
  cardComponent,
} from "../shared/card-component.js";
export {
  type ChatComponent,
  type ClickEvent,
  componentPlainText,
  componentToJson,
  componentToNbt,
} from "../shared/chat-component.js";
export { type ChatDialect, type ChatPacket, chatDialect, chatPacket } from "../shared/chat-packets.js";
export { type CliOptions, DEFAULT_DATA_DIR, parseCliOptions } from "../shared/cli-options.js";
export {
  ASK_SERVER,
  brigadierTree,
  type CommandPacketNode,
  type DeclareCommandsPacket,
  declareCommands,
} from "../shared/declare-commands.js";
export type { HostCommandTree, HostHandler, HostPlayer } from "../shared/host-handler.js";
export {
  DEFAULT_SERVER_CONFIG,
  loadServerConfig,
  SERVER_CONFIG,
  type ServerConfig,
  serverConfigPath,
  worldFolderOf,
} from "../shared/server-config.js";
export { installShutdown, runShutdown, type ShutdownSteps } from "../shared/shutdown.js";
export { demoHandler } from "./demo-handler.js";
export { emptyCommandsPacket, withPlainCommands } from "./plain-commands.js";
export { type ServeOptions, serve } from "./serve.js";
export { type HostOptions, type RunningHost, start } from "./server.js";
export {
  INVENTORY_SNAPSHOT,
  type InventorySnapshot,
  type ItemStackSnapshot,
  PLAYER_STATS_SNAPSHOT,
  type PlayerStatsSnapshot,
} from "./snapshots.js";
