import { join, resolve } from "node:path";
import type { AssistantServer } from "../../assistant/assistant-server.js";
import { loadExtensions } from "../../assistant/extension-loader.js";
import { openStorage } from "../../data/network/open-storage.js";
import type { GameClock } from "../../game/context-types.js";
import type { AnyServerModuleType } from "../../module/server-module.js";
import type { Logger } from "../../util/logger.js";
import { openPanel, servePanel } from "../panel/open-panel.js";
import { AdminVerification, verificationRequired } from "../shared/admin-verification.js";
import { AssistantHostHandler } from "../shared/assistant-handler.js";
import { parseCliOptions, SERVE_USAGE } from "../shared/cli-options.js";
import { createAssistant } from "../shared/create-assistant.js";
import { checkGamePort, StartError } from "../shared/game-port.js";
import { OnlinePlayers } from "../shared/online-players.js";
import { loadServerConfig, serverConfigPath, worldFolderOf } from "../shared/server-config.js";
import { openNetworkLink } from "../shared/shared-reloads.js";
import {
  type HostTelemetry,
  listenMetrics,
  openTelemetry,
  watchAssistant,
} from "../shared/telemetry/host-telemetry.js";
import { type RunningHost, start } from "./server.js";

/** Aliases also registered as top-level game commands (`/reason …`), when their feature is installed. */
export const SHORTCUTS: readonly string[] = ["reason", "question", "search"];

/** How often online players' playtime is read from the clock. */
const PLAYTIME_TICK_MILLIS = 15_000;

/** What `npm start` and `system serve` start; system tests start exactly this. */
export interface SystemOptions {
  /** `--port N`, `--panel-port N`, `--data-dir DIR` (default `run`). */
  readonly argv: readonly string[];
  /** Where `SYSTEM_MODEL_*` settings are read (the process environment for `npm start`). */
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  /** The server clock (`systemClock()` for `npm start`; tests move it to cross days). */
  readonly clock: GameClock;
  /** Receives the `listening on HOST:PORT` line; stdout by default. */
  readonly announce?: (line: string) => void;
  /** Feature types of extensions embedded in this process, besides the built-in ones. */
  readonly extraTypes?: readonly AnyServerModuleType[];
}

/** A running server: the game host and the assistant inside it. `close` stops both and flushes storage. */
export interface RunningSystem {
  readonly dataDir: string;
  /** The web panel's address (`config/system/panel.json`); undefined when it is off or its port was taken. */
  readonly panelUrl: string | undefined;
  readonly host: RunningHost;
  readonly assistant: AssistantServer;
  /** Metrics and traces (telemetry.json, `OTEL_*`); `/metrics` is on the panel and on `--metrics-port`. */
  readonly telemetry: HostTelemetry;
  /** The `--metrics-port` address, when given. */
  readonly metricsUrl: string | undefined;
  close(): Promise<void>;
}

/**
 * Builds the whole server in dependency order: config, the online-player bridge, the assistant (every
 * service, feature and executor), the host handler over the assistant's facade, then the game server.
 * Throws (naming the file or service) when something it needs is missing or unreadable.
 */
export const startSystem = async (options: SystemOptions): Promise<RunningSystem> => {
  const cli = parseCliOptions(options.argv);
  if (!cli.success) throw new StartError(`${cli.error} (${SERVE_USAGE})`);
  if (cli.value.help === true) throw new StartError(SERVE_USAGE);
  const { dataDir } = cli.value;
  const config = await loadServerConfig(dataDir, options.logger);
  const world = worldFolderOf(config, dataDir);
  const port = cli.value.port ?? config.port;
  // a taken game port stops the start here, in one line, before the panel or the storage is opened
  await checkGamePort(config.host, port, `"port" in ${serverConfigPath(dataDir)}`);
  const players = new OnlinePlayers(options.logger);
  const verification = verificationRequired(config)
    ? await AdminVerification.open(join(world, "system", "verified-ops.json"))
    : undefined;
  if (verification !== undefined) {
    options.logger.warn(
      `OFFLINE MODE on ${config.host}: anyone who can reach this address can join under any name, an operator's included.`,
    );
    options.logger.warn(
      `Operators get admin commands only after typing, once: /system verify ${verification.code}  (this run's code; keep it private)`,
    );
  }
  // metrics and traces first: a broken telemetry.json stops the start before anything is locked or listening
  const telemetry = await openTelemetry({
    dataDir,
    environment: options.environment,
    logger: options.logger,
  });
  // the data folder's lock and the configured storage (a database that cannot be reached stops here, one line)
  const storage = await openStorage({
    dataDir,
    world,
    logger: options.logger,
    environment: options.environment,
    now: () => options.clock.now(),
    lock: true,
  });
  // network (storage.json `postgres`): the shared knowledge store and reloads told to the other servers
  const network = openNetworkLink({ storage, bridge: players, logger: options.logger });
  const extensions = await loadExtensions(dataDir, options.logger).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  // the web panel opens first: `/system bind` tells players its address
  const panel = await openPanel({
    dataDir,
    world,
    panelPort: cli.value.panelPort,
    now: () => options.clock.now(),
    logger: options.logger,
    telemetry,
  });
  const assistant = await createAssistant({
    paths: {
      dataDir,
      world,
      packRoots: [...extensions.packRoots, join(dataDir, "datapacks")],
      ...(cli.value.serverDir === undefined ? {} : { serverDir: resolve(cli.value.serverDir) }),
    },
    storage,
    bridge: players,
    logger: options.logger,
    clock: options.clock,
    environment: options.environment,
    extraTypes: [...(options.extraTypes ?? []), ...extensions.types],
    services: extensions.services,
    network,
    panel,
    telemetry: telemetry.telemetry,
  });
  watchAssistant(telemetry.metrics, assistant);
  let host: RunningHost;
  let metricsServer: { readonly url: string; close(): Promise<void> } | undefined;
  try {
    if (cli.value.metricsPort !== undefined)
      metricsServer = await listenMetrics({ telemetry, port: cli.value.metricsPort, logger: options.logger });
    host = await start({
      host: config.host,
      port,
      version: config.version,
      worldFolder: world,
      onlineMode: config.onlineMode,
      ops: config.ops,
      ...(verification === undefined
        ? {}
        : { operatorVerified: (uuid: string) => verification.isVerified(uuid) }),
      generation: config.generation,
      maxPlayers: config.maxPlayers,
      viewDistance: config.viewDistance,
      playerSaveIntervalMillis: config.playerSaveSeconds * 1000,
      handler: new AssistantHostHandler(assistant, players, verification),
      logger: options.logger,
      shortcuts: SHORTCUTS,
      ...(options.announce === undefined ? {} : { announce: options.announce }),
      // the panel is announced once the game port is bound, just before `listening on`
      onBound: () => {
        if (panel !== undefined)
          servePanel(
            panel,
            assistant,
            options.announce ?? ((line: string) => process.stdout.write(`${line}\n`)),
          );
      },
    });
  } catch (error) {
    await metricsServer?.close();
    await panel?.close();
    await assistant.close();
    await network.close();
    await storage.close();
    await telemetry.close();
    throw error;
  }
  // playtime events: the minutes online are read from the clock every 15 s (one event per whole minute)
  const playtime = setInterval(() => {
    assistant.tickPlaytime().catch(() => {});
  }, PLAYTIME_TICK_MILLIS);
  playtime.unref();
  let closing: Promise<void> | undefined;
  return {
    dataDir,
    panelUrl: panel?.url,
    host,
    assistant,
    telemetry,
    metricsUrl: metricsServer?.url,
    close: () => {
      closing ??= (async () => {
        clearInterval(playtime);
        await metricsServer?.close();
        await panel?.close();
        await host.close();
        await assistant.close();
        await network.close();
        await storage.close();
        await telemetry.close();
      })();
      return closing;
    },
  };
};
