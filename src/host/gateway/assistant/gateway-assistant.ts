import { join } from "node:path";
import type { AssistantServer } from "../../../assistant/assistant-server.js";
import { loadExtensions } from "../../../assistant/extension-loader.js";
import { openStorage } from "../../../data/network/open-storage.js";
import type { GameClock } from "../../../game/context-types.js";
import type { Logger } from "../../../util/logger.js";
import { openPanel, servePanel } from "../../panel/open-panel.js";
import { AdminVerification, verificationRequired } from "../../shared/admin-verification.js";
import { AssistantHostHandler } from "../../shared/assistant-handler.js";
import { createAssistant } from "../../shared/create-assistant.js";
import { OnlinePlayers } from "../../shared/online-players.js";
import { DEFAULT_SERVER_CONFIG } from "../../shared/server-config.js";
import { openNetworkLink } from "../../shared/shared-reloads.js";
import { type HostTelemetry, watchAssistant } from "../../shared/telemetry/host-telemetry.js";
import type { RconEffects } from "../effects/rcon-effects.js";
import { KillStatistics, type KillStatisticsOptions } from "../rcon/kill-statistics.js";
import { AssistantGatewayCommands } from "./assistant-commands.js";
import { listedOperators } from "./listed-operators.js";

/** How often online players' playtime is read from the clock (as in the embedded world). */
const PLAYTIME_TICK_MILLIS = 15_000;

/** The assistant behind a gateway: what `startGateway` gives the relay, and how to stop it. */
export interface GatewayAssistant {
  readonly assistant: AssistantServer;
  readonly commands: AssistantGatewayCommands;
  /** The web panel's address; undefined when it is off or its port was taken. */
  readonly panelUrl: string | undefined;
  /**
   * Counts the kills the relayed packets do not show from the backend's statistics over RCON (`commands`), for the
   * players whose kill rules or quest kill tasks need them, as the embedded world reports kills; until `close`.
   */
  watchKills(commands: KillStatisticsOptions["commands"], intervalMillis?: number): KillStatistics;
  close(): Promise<void>;
}

/**
 * Builds the same assistant `npm start` builds (built-in features, the data directory's extensions and data
 * packs, the model from `SYSTEM_MODEL_*`) over the gateway's players. Its files live in `<dataDir>/world/system`
 * as they do for the embedded world, and the web panel serves it as it does there. Its operators are the players
 * the backend made operators (the level it sends the client) and those in `ops` of System's server.json. Items are
 * given over the backend's RCON (`effects`); without it the bridge refuses every give and take as unsupported.
 */
export const startGatewayAssistant = async (options: {
  readonly dataDir: string;
  readonly logger: Logger;
  readonly clock: GameClock;
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** `--panel-port`, instead of `port` in `config/system/panel.json`. */
  readonly panelPort: number | undefined;
  /** Prints `panel on …` once the panel serves. */
  readonly announce: (line: string) => void;
  /** The backend's folder (`serverDir` of gateway.json): FTB Quests files are read there. */
  readonly serverDir?: string | undefined;
  /** World effects over the backend's RCON (rewards, the shop, deliveries). */
  readonly effects?: RconEffects | undefined;
  /**
   * Where players connect and whether the gateway authenticates them: offline mode off loopback makes operators
   * prove themselves with `/system verify <code>`, as in the embedded world. Loopback and offline by default.
   */
  readonly listenHost?: string;
  readonly onlineMode?: boolean;
  /** Metrics and traces the gateway opened (telemetry.json, `OTEL_*`); none when absent. */
  readonly telemetry?: HostTelemetry;
}): Promise<GatewayAssistant> => {
  const { dataDir, logger } = options;
  const world = join(dataDir, DEFAULT_SERVER_CONFIG.worldFolder);
  const players = new OnlinePlayers(logger, { givesItems: options.effects !== undefined });
  const operators = await listedOperators(dataDir);
  const verification = verificationRequired({
    host: options.listenHost ?? "127.0.0.1",
    onlineMode: options.onlineMode ?? false,
  })
    ? await AdminVerification.open(join(world, "system", "verified-ops.json"))
    : undefined;
  if (verification !== undefined)
    logger.warn(
      `Operators get admin commands only after typing, once: /system verify ${verification.code}  (this run's code; keep it private)`,
    );
  // the data folder's lock and the configured storage (a database that cannot be reached stops here, one line)
  const storage = await openStorage({
    dataDir,
    world,
    logger,
    environment: options.environment,
    now: () => options.clock.now(),
    lock: true,
  });
  // network (storage.json `postgres`): the shared knowledge store and reloads told to the other servers
  const network = openNetworkLink({ storage, bridge: players, logger });
  const extensions = await loadExtensions(dataDir, logger).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  // the web panel opens first, as in the embedded world: `/system bind` tells players its address
  const panel = await openPanel({
    dataDir,
    world,
    panelPort: options.panelPort,
    now: () => options.clock.now(),
    logger,
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
  });
  const assistant = await createAssistant({
    paths: {
      dataDir,
      world,
      packRoots: [...extensions.packRoots, join(dataDir, "datapacks")],
      ...(options.serverDir === undefined ? {} : { serverDir: options.serverDir }),
    },
    storage,
    bridge: players,
    logger,
    clock: options.clock,
    environment: options.environment,
    extraTypes: extensions.types,
    services: extensions.services,
    network,
    panel,
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry.telemetry }),
  });
  watchAssistant(options.telemetry?.metrics, assistant);
  if (panel !== undefined) servePanel(panel, assistant, options.announce);
  const handler = new AssistantHostHandler(assistant, players, verification);
  const playtime = setInterval(() => {
    assistant.tickPlaytime().catch(() => {});
  }, PLAYTIME_TICK_MILLIS);
  playtime.unref();
  let kills: KillStatistics | undefined;
  return {
    assistant,
    commands: new AssistantGatewayCommands(assistant, handler, logger, operators, options.effects),
    panelUrl: panel?.url,
    watchKills: (commands, intervalMillis) => {
      kills?.stop();
      kills = new KillStatistics({
        commands,
        players: () => players.all().map((player) => ({ uuid: player.uuid, name: player.name })),
        hunted: (uuid) => assistant.huntedEntities(uuid),
        report: (uuid, entity, entityId) => {
          const player = players.get(uuid);
          if (player !== undefined) handler.onKill(player, entity, entityId);
        },
        logger,
        ...(intervalMillis === undefined ? {} : { intervalMillis }),
      });
      kills.start();
      return kills;
    },
    close: async () => {
      kills?.stop();
      clearInterval(playtime);
      await panel?.close();
      await assistant.close();
      await network.close();
      await storage.close();
    },
  };
};
