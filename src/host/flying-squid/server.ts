import { fileURLToPath } from "node:url";
import { Languages } from "../../util/language.js";
import { consoleLogger, type Logger } from "../../util/logger.js";
import { gamePortLine, StartError } from "../shared/game-port.js";
import type { HostHandler, HostPlayer } from "../shared/host-handler.js";
import { loadFlyingSquid, type SquidPlugin, type SquidServer } from "./flying-squid-types.js";
import { guardProcess } from "./process-guard.js";
import { systemPlugin } from "./system-plugin.js";

/** How to run the embedded flying-squid server. */
export interface HostOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly version?: string;
  readonly worldFolder: string;
  readonly onlineMode?: boolean;
  readonly handler: HostHandler;
  /** Extra command bases forwarded to the handler (`reason`, …); `system` is always registered. */
  readonly shortcuts?: readonly string[];
  readonly ops?: readonly string[];
  /** See `SystemPluginOptions.operatorVerified`: unset, the ops list is trusted as it is. */
  readonly operatorVerified?: (uuid: string) => boolean;
  readonly generation?: "diamond_square" | "superflat";
  readonly maxPlayers?: number;
  readonly viewDistance?: number;
  /** More flying-squid plugins, by name. */
  readonly plugins?: Readonly<Record<string, SquidPlugin>>;
  readonly logger?: Logger;
  readonly languages?: Languages;
  /** Receives the one `listening on HOST:PORT` line; defaults to stdout. */
  readonly announce?: (line: string) => void;
  /** Runs once the game port is bound, before `listening on` is announced (the panel announces itself here). */
  readonly onBound?: () => void;
  /**
   * How often every online player's data file is saved (flying-squid itself saves only at login and logout);
   * 0 turns the periodic save off. Gives save at once regardless. Default 60 s.
   */
  readonly playerSaveIntervalMillis?: number;
}

/** A started server. `close` kicks everyone and stops listening; it never exits the process. */
export interface RunningHost {
  readonly host: string;
  readonly port: number;
  readonly version: string;
  players(): HostPlayer[];
  player(uuid: string): HostPlayer | undefined;
  /** Resends declare_commands (all players, or one) after permissions or installed modules change. */
  refreshCommands(uuid?: string): void;
  /** Saves every online player's data file atomically; resolves once all are durable (failures are logged). */
  saveAll(): Promise<void>;
  /** Saves every player, kicks everyone, waits for their logout saves and stops listening. */
  close(): Promise<void>;
}

const RESOURCES = fileURLToPath(new URL("../../../resources", import.meta.url));
const READY_TIMEOUT_MILLIS = 30_000;
const CLOSE_TIMEOUT_MILLIS = 5_000;
/** The default of `playerSaveIntervalMillis`. */
export const PLAYER_SAVE_INTERVAL_MILLIS = 60_000;

/** Starts flying-squid with the System plugin; resolves once players can join. */
export const start = async (options: HostOptions): Promise<RunningHost> => {
  const logger = options.logger ?? consoleLogger;
  const version = options.version ?? "1.21.4";
  const release = guardProcess(logger);
  const plugin = systemPlugin({
    handler: options.handler,
    shortcuts: options.shortcuts ?? [],
    ops: options.ops ?? [],
    operatorVerified: options.operatorVerified,
    logger,
    languages: options.languages ?? Languages.load(RESOURCES),
    worldFolder: options.worldFolder,
  });
  let serv: SquidServer;
  try {
    serv = loadFlyingSquid().createMCServer({
      "online-mode": options.onlineMode ?? false,
      host: options.host,
      port: options.port,
      version,
      worldFolder: options.worldFolder,
      generation: { name: options.generation ?? "diamond_square", options: { worldHeight: 80 } },
      logging: false,
      noConsoleOutput: true,
      // a debug function turns off flying-squid's errorHandler, which exits the process on any error
      debug: () => {},
      plugins: {},
      motd: "System",
      "max-players": options.maxPlayers ?? 100,
      gameMode: 0,
      difficulty: 1,
      kickTimeout: 10_000,
      "view-distance": options.viewDistance ?? 6,
      "everybody-op": false,
      "max-entities": 100,
      "player-list-text": { header: { text: "System" }, footer: { text: "" } },
      // the protocol library checks its own plugin-channel type definitions against a JSON schema at every
      // login (a compile per connection, most of a login's CPU); they are the library's, not the player's
      validateChannelProtocol: false,
    });
    serv.addPlugin("system", plugin, {});
    for (const [name, extra] of Object.entries(options.plugins ?? {})) serv.addPlugin(name, extra, {});
    await waitReady(serv, options.host, options.port);
    // errors after the start are logged; one during it (the port taken) is the start's own one-line error
    serv.on("error", (error: unknown) => logger.error("game server error", error));
  } catch (error) {
    release();
    throw error;
  }
  options.onBound?.();
  const port = listeningPort(serv, options.port);
  (options.announce ?? ((line: string) => process.stdout.write(`${line}\n`)))(
    `listening on ${options.host}:${port}`,
  );
  const interval = options.playerSaveIntervalMillis ?? PLAYER_SAVE_INTERVAL_MILLIS;
  const saver = interval > 0 ? setInterval(() => void plugin.saveAll(), interval) : undefined;
  saver?.unref();
  let closing: Promise<void> | undefined;
  return {
    host: options.host,
    port,
    version,
    players: () => plugin.players(),
    player: (uuid) => plugin.players().find((player) => player.uuid === uuid),
    refreshCommands: (uuid) => plugin.refreshCommands(uuid),
    saveAll: () => plugin.saveAll(),
    close: () => {
      clearInterval(saver);
      closing ??= (async () => {
        await plugin.saveAll();
        await quit(serv, logger);
        // Logout saves start when players are kicked; the process may exit right after close resolves.
        await plugin.saveAll();
        await saveWorld(serv, logger);
      })().finally(release);
      return closing;
    },
  };
};

const waitReady = (serv: SquidServer, host: string, port: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error("flying-squid did not start in time")),
      READY_TIMEOUT_MILLIS,
    );
    serv.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
    serv.once("error", (error: unknown) => {
      clearTimeout(timer);
      const code = (error as { code?: unknown } | undefined)?.code;
      reject(
        typeof code === "string" && code.startsWith("EADDR")
          ? new StartError(gamePortLine({ host, port }, error, '"port" in config/system/server.json'))
          : error instanceof Error
            ? error
            : new Error(String(error)),
      );
    });
  });

const listeningPort = (serv: SquidServer, fallback: number): number => {
  const address = serv._server.socketServer?.address();
  return typeof address === "object" &&
    address !== null &&
    "port" in address &&
    typeof address.port === "number"
    ? address.port
    : fallback;
};

/** The part of prismarine-world's World that saves chunks (every second until stopped). */
interface SavingWorld {
  stopSaving?(): void;
  waitSaving?(): Promise<void>;
}

/**
 * flying-squid's quit leaves the overworld's chunk saver running: it is stopped, and the chunks it had queued
 * are written before close resolves (a change made in the last second would be lost, and nothing writes into the
 * world folder once the server is closed).
 */
const saveWorld = async (serv: SquidServer, logger: Logger): Promise<void> => {
  const world = serv.overworld as SavingWorld | undefined;
  world?.stopSaving?.();
  try {
    await world?.waitSaving?.();
  } catch (error) {
    logger.error("saving the world's chunks failed", error);
  }
};

const quit = async (serv: SquidServer, logger: Logger): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      logger.warn("game server did not close in time");
      resolve();
    }, CLOSE_TIMEOUT_MILLIS);
  });
  try {
    await Promise.race([serv.quit("Server closed"), timeout]);
  } catch (error) {
    logger.error("closing the game server failed", error);
  } finally {
    clearTimeout(timer);
  }
};
