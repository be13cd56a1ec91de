import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { AssistantServer } from "../../assistant/assistant-server.js";
import { StorageOpenError } from "../../data/network/open-storage.js";
import { type GameClock, systemClock } from "../../game/context-types.js";
import { Languages } from "../../util/language.js";
import { consoleLogger, type Logger } from "../../util/logger.js";
import { checkGamePort, gamePortLine } from "../shared/game-port.js";
import { installShutdown } from "../shared/shutdown.js";
import { type HostTelemetry, listenMetrics, openTelemetry } from "../shared/telemetry/host-telemetry.js";
import { type GatewayAssistant, startGatewayAssistant } from "./assistant/gateway-assistant.js";
import { pingBackend } from "./backend-status.js";
import { type GatewayRcon, gatewayRconOver, openGatewayRcon } from "./effects/gateway-rcon.js";
import { GATEWAY_USAGE, parseGatewayCliOptions } from "./gateway-cli-options.js";
import type { GatewayCommands } from "./gateway-commands.js";
import {
  type Address,
  formatAddress,
  type GatewayConfig,
  gatewayConfigPath,
  loadGatewayConfig,
  parseAddress,
  serverDirOf,
} from "./gateway-config.js";
import { relayTraffic } from "./gateway-metrics.js";
import { GatewayServer } from "./gateway-server.js";
import { type LoginSettings, prepareLogin } from "./identity/login-settings.js";
import { PacketCodec } from "./protocol/packet-codec.js";
import type { RconCommands } from "./rcon/rcon-commands.js";
import { mergeRconFlags } from "./rcon/rcon-config.js";
import { readSavedItemIds } from "./registry-sync/saved-registry.js";

/** What `system gateway` starts; system tests start exactly this. */
export interface GatewayOptions {
  /** `--backend HOST:PORT`, `--port N`, `--data-dir DIR` (default `run`). */
  readonly argv: readonly string[];
  readonly logger: Logger;
  /** Receives the `listening on HOST:PORT` line; stdout by default. */
  readonly announce?: (line: string) => void;
  /**
   * System's commands at the gateway. Unset (the CLI), the gateway builds the assistant and its facade; tests
   * of the relay mechanism pass a facade of their own, and then no assistant is built.
   */
  readonly commands?: GatewayCommands;
  /** Where `SYSTEM_MODEL_*` settings are read; the process environment by default. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The server clock; the system clock by default. */
  readonly clock?: GameClock;
  /**
   * The backend's RCON (typed commands), instead of the one `rcon` in gateway.json or `--rcon` names: kills are
   * counted from its statistics (kill-statistics.ts) every `killPollMillis` (5 s by default), and rewards are given
   * through it.
   */
  readonly rcon?: RconCommands;
  readonly killPollMillis?: number;
  /** How long the backend may stay silent during a login (30 s by default). */
  readonly loginTimeoutMillis?: number;
}

/** A running gateway. `close` disconnects every player and stops listening; it never exits the process. */
export interface RunningGateway {
  readonly host: string;
  readonly port: number;
  readonly backend: Address;
  /** The backend's version as minecraft-data names it (`1.21.4`). */
  readonly version: string;
  readonly server: GatewayServer;
  /** The assistant behind `/system`; undefined when a `commands` facade was passed instead. */
  readonly assistant: AssistantServer | undefined;
  /** The web panel's address (`config/system/panel.json`, `--panel-port`); undefined when it is off or not started. */
  readonly panelUrl: string | undefined;
  /** Metrics and traces (telemetry.json, `OTEL_*`). */
  readonly telemetry: HostTelemetry;
  /** The `--metrics-port` address, when given. */
  readonly metricsUrl: string | undefined;
  close(): Promise<void>;
}

const RESOURCES = fileURLToPath(new URL("../../../resources", import.meta.url));

/** An error whose message is the one line the command prints (no stack trace is useful to the admin). */
export class GatewayStartError extends Error {
  override readonly name = "GatewayStartError";
}

/**
 * Reads `<dataDir>/config/system/gateway.json` and the flags, pings the backend (its version, unless the file
 * names one), warns about what is not safe, and listens; resolves once players can join. Throws a
 * GatewayStartError with one line when the flags, the file or the backend are wrong.
 */
export const startGateway = async (options: GatewayOptions): Promise<RunningGateway> => {
  const cli = parseGatewayCliOptions(options.argv);
  if (!cli.success) throw new GatewayStartError(`${cli.error} (${GATEWAY_USAGE})`);
  if (cli.value.help === true) throw new GatewayStartError(GATEWAY_USAGE);
  const { dataDir } = cli.value;
  const path = gatewayConfigPath(dataDir);
  const config = await loadGatewayConfig(dataDir, options.logger).catch((error: unknown) => {
    throw new GatewayStartError(error instanceof Error ? error.message : String(error));
  });
  const login = await prepareLogin(config, dataDir, path, options.loginTimeoutMillis);
  if (!login.success) throw new GatewayStartError(login.error);
  const backendAddress = backendOf(cli.value.backend, config.backend, path);
  const status = await pingBackend(backendAddress);
  if (!status.success) throw new GatewayStartError(status.error);
  const codec = configuredCodec(config.version, status.value.codec, path, options.logger);
  const listen = parseAddress(config.listen, true);
  if (!listen.success) throw new GatewayStartError(`"listen" in ${path} is not HOST:PORT`);
  const host = listen.value.host;
  // a taken port stops the start in one line before the assistant and its panel are opened
  await checkGamePort(host, cli.value.port ?? listen.value.port, `"listen" in ${path}`).catch(
    (error: unknown) => {
      throw new GatewayStartError((error as Error).message);
    },
  );
  warnUnsafe(host, backendAddress, login.value, options.logger);
  const announce = options.announce ?? ((line: string) => process.stdout.write(`${line}\n`));
  const environment = options.environment ?? process.env;
  const telemetry = await openTelemetry({ dataDir, environment, logger: options.logger }).catch(
    (error: unknown) => {
      throw new GatewayStartError(error instanceof Error ? error.message : String(error));
    },
  );
  const rcon = await rconOf(options, config.rcon, cli.value, dataDir, codec.minecraftVersion, telemetry);
  const serverDir =
    cli.value.serverDir === undefined ? serverDirOf(config, dataDir) : resolve(cli.value.serverDir);
  // the numbering a modded server saved with its world, for connections whose loader sync is not seen
  const saved = serverDir === undefined ? undefined : await readSavedItemIds(serverDir, options.logger);
  if (saved !== undefined)
    options.logger.info(
      `${saved.ids.size} item numbers saved in ${saved.file}, used until a loader's sync is seen`,
    );
  const assistant: GatewayAssistant | undefined =
    options.commands === undefined
      ? await startGatewayAssistant({
          dataDir,
          logger: options.logger,
          clock: options.clock ?? systemClock(),
          environment,
          panelPort: cli.value.panelPort,
          telemetry,
          announce,
          serverDir,
          effects: rcon?.effects,
          listenHost: host,
          onlineMode: config.onlineMode,
        }).catch(async (error: unknown) => {
          await rcon?.close();
          // the data folder in use, storage.json wrong, the database unreachable: one line
          if (error instanceof StorageOpenError) throw new GatewayStartError(error.message);
          throw error;
        })
      : undefined;
  if (rcon !== undefined) assistant?.watchKills(rcon.commands, options.killPollMillis);
  // RCON answering again: the rewards that waited for it are offered at once
  rcon?.availability.onBack(() => {
    assistant?.assistant.events
      .resumeWaiting()
      .catch((error: unknown) => options.logger.error("waiting rewards not offered again", error));
  });
  const commands = options.commands ?? assistant?.commands;
  const server = await GatewayServer.listen({
    host,
    port: cli.value.port ?? listen.value.port,
    backend: backendAddress,
    codec,
    login: login.value,
    languages: Languages.load(RESOURCES),
    logger: options.logger,
    ...(commands === undefined ? {} : { commands }),
    ...(telemetry.metrics === undefined ? {} : { traffic: relayTraffic(telemetry.metrics) }),
    savedItems: saved?.ids,
  }).catch(async (error: unknown) => {
    await assistant?.close();
    await rcon?.close();
    throw new GatewayStartError(
      gamePortLine({ host, port: cli.value.port ?? listen.value.port }, error, `"listen" in ${path}`),
    );
  });
  options.logger.info(
    `relaying to ${formatAddress(backendAddress)} (${status.value.versionName}, protocol ${codec.protocolVersion}), forwarding ${config.forwarding}, ${config.onlineMode ? "online mode" : "offline mode"}`,
  );
  const rconDown = rcon?.availability.down;
  if (rcon === undefined)
    options.logger.info(
      "no RCON configured: players can ask and read, but rewards, the shop and deliveries give no items",
    );
  else if (rconDown !== undefined)
    options.logger.warn(
      `RCON at ${rcon.where} does not answer (${rconDown}): rewards wait and nothing is given until it does (check rcon.port and enable-rcon in server.properties); a line says when it answers`,
    );
  else
    options.logger.info(
      `RCON at ${rcon.where}: rewards are given through it and done once a save-all after them has finished`,
    );
  telemetry.metrics?.gauge(
    "system_gateway_players",
    "Players the gateway relays now.",
    [],
    () => server.players().length,
  );
  const metricsServer =
    cli.value.metricsPort === undefined
      ? undefined
      : await listenMetrics({ telemetry, port: cli.value.metricsPort, logger: options.logger });
  announce(`listening on ${formatAddress({ host, port: server.port })}`);
  let closing: Promise<void> | undefined;
  return {
    host,
    port: server.port,
    backend: backendAddress,
    version: codec.minecraftVersion,
    server,
    assistant: assistant?.assistant,
    panelUrl: assistant?.panelUrl,
    telemetry,
    metricsUrl: metricsServer?.url,
    close: () => {
      closing ??= (async () => {
        await metricsServer?.close();
        await server.close();
        await assistant?.close();
        await rcon?.close();
        await telemetry.close();
      })();
      return closing;
    },
  };
};

/**
 * The one RCON of the gateway: the caller's commands (tests), else the one `--rcon`/`--rcon-password-file` and
 * the file's `rcon` block name (a relative password file is found in the data folder, as every relative path
 * of the gateway); undefined when none is configured.
 */
const rconOf = async (
  options: GatewayOptions,
  fromFile: GatewayConfig["rcon"],
  flags: { readonly rcon?: string; readonly rconPasswordFile?: string },
  dataDir: string,
  version: string,
  telemetry: HostTelemetry,
): Promise<GatewayRcon | undefined> => {
  if (options.rcon !== undefined)
    return gatewayRconOver({
      commands: options.rcon,
      version,
      logger: options.logger,
      metrics: telemetry.metrics,
      ...(fromFile === undefined ? {} : { saveIntervalSeconds: fromFile.saveIntervalSeconds }),
    });
  const merged = mergeRconFlags(fromFile, flags);
  if (!merged.success) throw new GatewayStartError(merged.error);
  if (merged.value === undefined) return undefined;
  const opened = await openGatewayRcon({
    config: merged.value,
    // one base for every relative path an admin writes (flag or file): the data folder
    baseDir: dataDir,
    version,
    logger: options.logger,
    metrics: telemetry.metrics,
    telemetry: telemetry.telemetry,
  });
  if (!opened.success) throw new GatewayStartError(opened.error);
  return opened.value;
};

/** The backend from `--backend`, else from the file; a missing or malformed one is a start error. */
const backendOf = (flag: Address | undefined, file: string | undefined, path: string): Address => {
  if (flag !== undefined) return flag;
  if (file === undefined)
    throw new GatewayStartError(
      `no backend: pass --backend HOST:PORT or set "backend" in ${path}, or move that file away to start the embedded world (${GATEWAY_USAGE})`,
    );
  const address = parseAddress(file);
  if (!address.success) throw new GatewayStartError(`"backend" in ${path}: ${address.error}`);
  return address.value;
};

/** The version the file names when minecraft-data knows it (a mismatch with the backend is logged), else the ping's. */
const configuredCodec = (
  version: string | undefined,
  pinged: PacketCodec,
  path: string,
  logger: Logger,
): PacketCodec => {
  if (version === undefined) return pinged;
  const codec = PacketCodec.forVersion(version);
  if (codec === undefined)
    throw new GatewayStartError(`"version" ${version} in ${path} is unknown to minecraft-data`);
  if (codec.protocolVersion !== pinged.protocolVersion)
    logger.warn(`"version" ${version} in ${path} differs from the backend's ${pinged.minecraftVersion}`);
  return codec;
};

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/**
 * The loud warnings: without authentication at the gateway, or without forwarding the backend can check,
 * a name is no proof of identity.
 */
const warnUnsafe = (listenHost: string, backend: Address, login: LoginSettings, logger: Logger): void => {
  if (login.forwarding === "none")
    logger.warn(
      "FORWARDING IS NONE: the backend sees offline UUIDs and no skins. Keep it in offline mode on loopback (server-ip=127.0.0.1) with enforce-secure-profile=false.",
    );
  const checksForwarding = login.forwarding === "velocity" || login.forwarding === "bungeeguard";
  if (login.forwarding === "bungeecord")
    logger.warn(
      "BUNGEECORD FORWARDING IS NOT AUTHENTICATED: anyone who reaches the backend can claim any UUID. Keep it on loopback, or use bungeeguard or velocity.",
    );
  if (!checksForwarding && !LOOPBACK.test(backend.host))
    logger.warn(
      `THE BACKEND ${formatAddress(backend)} IS NOT ON LOOPBACK: an offline-mode backend reachable by anyone else can be joined under any name.`,
    );
  if (login.authenticator === undefined && !LOOPBACK.test(listenHost))
    logger.warn(
      `THE GATEWAY DOES NOT AUTHENTICATE PLAYERS ("onlineMode": false): anyone who can reach ${listenHost} can join under any name.`,
    );
};

/** What `--help` prints under the usage line: where the settings and relative paths live. */
const GATEWAY_HELP = [
  "settings: <data-dir>/config/system/gateway.json (written with its defaults at the first start; flags override it)",
  "relative paths (--rcon-password-file, rcon.passwordFile, forwardingSecretFile) are read from the data folder (--data-dir, default run)",
  "see docs/gateway.md",
].join("\n");

/**
 * `system gateway`: starts the gateway and stops it on SIGINT/SIGTERM. A start error is one line on stderr
 * and exit code 1; resolves to the exit code (0 once listening).
 */
export const runGateway = async (
  argv: readonly string[],
  err: { write(text: string): unknown },
  out: { write(text: string): unknown } = process.stdout,
): Promise<number> => {
  const cli = parseGatewayCliOptions(argv);
  if (cli.success && cli.value.help === true) {
    out.write(`${GATEWAY_USAGE}\n${GATEWAY_HELP}\n`);
    return 0;
  }
  try {
    const gateway = await startGateway({ argv, logger: consoleLogger });
    installShutdown({ close: () => gateway.close(), flush: async () => {} }, consoleLogger);
    return 0;
  } catch (error) {
    if (!(error instanceof GatewayStartError)) throw error;
    err.write(`system gateway: ${error.message}\n`);
    return 1;
  }
};
