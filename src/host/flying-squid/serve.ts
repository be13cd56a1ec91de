import type { Logger } from "../../util/logger.js";
import { parseCliOptions, SERVE_USAGE } from "../shared/cli-options.js";
import type { HostHandler } from "../shared/host-handler.js";
import { loadServerConfig, type ServerConfig, worldFolderOf } from "../shared/server-config.js";
import { installShutdown } from "../shared/shutdown.js";
import { type RunningHost, start } from "./server.js";

/** What the process entry (`npm start`, `system serve`) provides around the host. */
export interface ServeOptions {
  readonly argv: readonly string[];
  readonly logger: Logger;
  /** Builds the handler once the data directory is known (the AssistantServer assembly). */
  readonly handler: (dataDir: string, config: ServerConfig) => Promise<HostHandler> | HostHandler;
  /** Flushes storage on SIGINT/SIGTERM, after the game server has closed. */
  readonly flush: () => Promise<void>;
  readonly shortcuts?: readonly string[];
}

/**
 * Reads `<dataDir>/config/system/server.json`, applies `--port`/`--data-dir`, starts the server and
 * installs the signal handlers. Throws on bad flags so the caller can print usage and exit 1.
 */
export const serve = async (options: ServeOptions): Promise<RunningHost> => {
  const cli = parseCliOptions(options.argv);
  if (!cli.success) throw new Error(`${cli.error}\n${SERVE_USAGE}`);
  if (cli.value.help === true) throw new Error(SERVE_USAGE);
  const started = startHost(cli.value.dataDir, cli.value.port, options);
  // before the start, so that no stop signal after `listening on` meets the default action (an unflushed exit)
  const ready = started.then(
    (host) => host,
    () => undefined,
  );
  installShutdown({ close: async () => (await ready)?.close(), flush: options.flush }, options.logger);
  return started;
};

const startHost = async (
  dataDir: string,
  port: number | undefined,
  options: ServeOptions,
): Promise<RunningHost> => {
  const config = await loadServerConfig(dataDir, options.logger);
  const handler = await options.handler(dataDir, config);
  return start({
    host: config.host,
    port: port ?? config.port,
    version: config.version,
    worldFolder: worldFolderOf(config, dataDir),
    onlineMode: config.onlineMode,
    ops: config.ops,
    generation: config.generation,
    maxPlayers: config.maxPlayers,
    viewDistance: config.viewDistance,
    handler,
    logger: options.logger,
    ...(options.shortcuts === undefined ? {} : { shortcuts: options.shortcuts }),
  });
};
