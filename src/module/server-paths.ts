import { ContextType } from "../agent/module/context-type.js";

/** Where one server keeps its files; features resolve their own files against these. */
export interface ServerPaths {
  /** The data directory: config under `<dataDir>/config/system`. */
  readonly dataDir: string;
  /** The world save folder: System's data under `<world>/system`. */
  readonly world: string;
  /**
   * The game server's own folder when System stands in front of it (the gateway's `serverDir`): FTB Quests files
   * are read from there (`config/ftbquests/quests/`, and the mod's progress in its world); unset in the embedded world.
   */
  readonly serverDir?: string;
}

/** The server's folders, provided by the assembly to every feature. */
export const SERVER_PATHS = ContextType.of<ServerPaths>("system:server_paths");
