export { type CardButtonView, type CardView, cardButtonCommand, cardComponent } from "./card-component.js";
export {
  type ChatComponent,
  type ClickEvent,
  componentPlainText,
  componentToJson,
  componentToNbt,
} from "./chat-component.js";
export { type ChatDialect, type ChatPacket, chatDialect, chatPacket } from "./chat-packets.js";
export { type CliOptions, DEFAULT_DATA_DIR, parseCliOptions } from "./cli-options.js";
export {
  ASK_SERVER,
  brigadierTree,
  type CommandPacketNode,
  type DeclareCommandsPacket,
  declareCommands,
} from "./declare-commands.js";
export { demoHandler } from "./demo-handler.js";
export type { HostCommandTree, HostHandler, HostPlayer } from "./host-handler.js";
export { emptyCommandsPacket, withPlainCommands } from "./plain-commands.js";
export { type ServeOptions, serve } from "./serve.js";
export { type HostOptions, type RunningHost, start } from "./server.js";
export {
  DEFAULT_SERVER_CONFIG,
  loadServerConfig,
  SERVER_CONFIG,
  type ServerConfig,
  serverConfigPath,
  worldFolderOf,
} from "./server-config.js";
export { installShutdown, runShutdown, type ShutdownSteps } from "./shutdown.js";
export {
  INVENTORY_SNAPSHOT,
  type InventorySnapshot,
  type ItemStackSnapshot,
  PLAYER_STATS_SNAPSHOT,
  type PlayerStatsSnapshot,
} from "./snapshots.js";
