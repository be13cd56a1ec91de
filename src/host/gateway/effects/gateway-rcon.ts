import { NO_TELEMETRY, type Telemetry } from "../../../agent/telemetry/telemetry.js";
import type { Logger } from "../../../util/logger.js";
import { invalid, type Validation, valid } from "../../../util/validation.js";
import type { SystemMetrics } from "../../shared/telemetry/system-metrics.js";
import { ObservedRconCommands, ObservedSaveBatcher } from "../gateway-metrics.js";
import { RconClient } from "../rcon/rcon-client.js";
import type { RconCommands } from "../rcon/rcon-commands.js";
import { DEFAULT_SAVE_INTERVAL_SECONDS, loadRconSettings, type RconConfig } from "../rcon/rcon-config.js";
import { RconError } from "../rcon/rcon-error.js";
import { loadReplyLanguage } from "../rcon/reply-language.js";
import { saveAllCommand } from "../rcon/server-commands.js";
import { itemCatalog } from "./inventory-room.js";
import { RconAvailability } from "./rcon-availability.js";
import { RconEffects } from "./rcon-effects.js";
import type { SaveBatcher } from "./save-batcher.js";

/** How long the start-up check of the RCON login may take. */
const START_CHECK_MILLIS = 5_000;

/** The one RCON of a gateway: kills are read and rewards given through it; effects wait for its batched saves. */
export interface GatewayRcon {
  readonly commands: RconCommands;
  readonly effects: RconEffects;
  readonly saves: SaveBatcher;
  /** Whether RCON can be reached now (rewards wait while it cannot), and who hears when it answers again. */
  readonly availability: RconAvailability;
  /** Where it connects, for the start line. */
  readonly where: string;
  /** Saves once more for effects still waiting, then closes the connection (when the gateway opened it). */
  close(): Promise<void>;
}

/** Effects over typed commands someone else opened (tests pass their own); `close` leaves the client open. */
export const gatewayRconOver = (options: {
  readonly commands: RconCommands;
  readonly version: string;
  readonly saveIntervalSeconds?: number;
  readonly logger: Logger;
  readonly where?: string;
  readonly closeClient?: () => Promise<void>;
  /** Counts the waits of deliveries for their save-all. */
  readonly metrics?: SystemMetrics | undefined;
}): GatewayRcon => {
  const { commands, logger } = options;
  const saves = new ObservedSaveBatcher(
    {
      target: { save: () => commands.run(saveAllCommand()), logins: () => commands.logins },
      intervalMillis: (options.saveIntervalSeconds ?? DEFAULT_SAVE_INTERVAL_SECONDS) * 1000,
      logger,
    },
    options.metrics,
  );
  const where = options.where ?? "RCON";
  const availability = new RconAvailability({ commands, where, logger });
  const effects = new RconEffects({
    commands,
    saves,
    items: itemCatalog(options.version),
    logger,
    availability,
  });
  return {
    commands,
    effects,
    saves,
    availability,
    where,
    close: async () => {
      availability.close();
      await saves.flush().catch(() => {});
      saves.close();
      await options.closeClient?.();
    },
  };
};

/**
 * Opens the configured RCON (`rcon` of gateway.json merged with the flags): reads the password file (warning
 * loudly off loopback), and logs in once so that a wrong password stops the start. A backend whose RCON does not
 * answer yet (down, or a mistyped port) leaves `availability` down: rewards wait, and a probe asks again.
 */
export const openGatewayRcon = async (options: {
  readonly config: RconConfig;
  /** Where a relative password file is found. */
  readonly baseDir: string;
  /** The backend's version (its reply texts and items). */
  readonly version: string;
  readonly logger: Logger;
  /** Counts commands by outcome with their latency, and traces them inside requests. */
  readonly metrics?: SystemMetrics | undefined;
  readonly telemetry?: Telemetry;
}): Promise<Validation<GatewayRcon>> => {
  const { config, logger } = options;
  const settings = await loadRconSettings({ config, baseDir: options.baseDir, logger });
  if (!settings.success) return settings;
  const client = new RconClient({ ...settings.value, logger });
  const commands = new ObservedRconCommands(
    { client, language: loadReplyLanguage(options.version, logger), logger },
    { metrics: options.metrics, telemetry: options.telemetry ?? NO_TELEMETRY },
  );
  const where = `${config.host}:${config.port}`;
  let down: string | undefined;
  try {
    await commands.dialect({ timeoutMillis: START_CHECK_MILLIS });
  } catch (error) {
    if (error instanceof RconError && error.kind === "login_refused") {
      await client.close();
      return invalid(error.message);
    }
    down = error instanceof Error ? error.message : String(error);
  }
  const rcon = gatewayRconOver({
    commands,
    version: options.version,
    saveIntervalSeconds: config.saveIntervalSeconds,
    logger,
    where,
    closeClient: () => client.close(),
    metrics: options.metrics,
  });
  // the start line says it; the probe then asks again until RCON answers
  if (down !== undefined) rcon.availability.failed(down, { quiet: true });
  return valid(rcon);
};
