import { type ChildProcess, spawn } from "node:child_process";
import type { EventEmitter } from "node:events";
import { fileURLToPath } from "node:url";
import type { Bot } from "mineflayer";
import { loadFlyingSquid, type SquidServer } from "../../src/host/flying-squid/flying-squid-types.js";
import type { GatewayCommands } from "../../src/host/gateway/gateway-commands.js";
import { PacketCodec, type ProtocolState } from "../../src/host/gateway/protocol/packet-codec.js";
import { type RunningGateway, startGateway } from "../../src/host/gateway/start-gateway.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { tempFolder, waitFor } from "../e2e/host-support.js";
import { vanillaStandIn } from "../support/vanilla-backend-stand-in.js";

export { joinBot, tempFolder, waitFor } from "../e2e/host-support.js";

/** One packet as its sender serialized it or its receiver read it: the uncompressed frame (id and body). */
export interface CapturedPacket {
  readonly state: string;
  readonly name: string;
  readonly bytes: Buffer;
}

/** The minecraft-protocol connection of a flying-squid player (only what the capture reads). */
interface BackendClient extends EventEmitter {
  readonly username?: string;
  readonly serializer: EventEmitter;
}

/** A plain flying-squid world with no System inside: what an admin's own server is to the gateway. */
export interface PlainBackend {
  readonly server: SquidServer;
  readonly port: number;
  /** Every packet the backend serialized, per player name (captured at the backend's end). */
  sent(username: string): CapturedPacket[];
  close(): Promise<void>;
}

/**
 * Starts flying-squid (1.21.4 unless `version`) offline on a free port (or `port`), superflat, with nothing of
 * System's. `vanilla` adds the test support's STAND-IN for what a vanilla server sends and flying-squid does not
 * (the player's window at spawn, operator levels, a respawn that encodes).
 */
export const startPlainBackend = async (
  options: {
    readonly port?: number;
    readonly version?: string;
    readonly worldFolder?: string;
    readonly vanilla?: boolean;
  } = {},
): Promise<PlainBackend> => {
  const server = loadFlyingSquid().createMCServer({
    "online-mode": false,
    host: "127.0.0.1",
    port: options.port ?? 0,
    version: options.version ?? "1.21.4",
    worldFolder: options.worldFolder ?? tempFolder("gateway-backend-"),
    generation: { name: "superflat", options: { worldHeight: 80 } },
    logging: false,
    noConsoleOutput: true,
    debug: () => {},
    plugins: {},
    motd: "Plain backend",
    "max-players": 20,
    "view-distance": 2,
    "everybody-op": false,
    "max-entities": 100,
    gameMode: 0,
    difficulty: 1,
    kickTimeout: 10_000,
    "player-list-text": { header: { text: "Plain" }, footer: { text: "" } },
  });
  if (options.vanilla === true) server.addPlugin("vanilla-stand-in", vanillaStandIn(), {});
  const codec = PacketCodec.forVersion(options.version ?? "1.21.4")!;
  const captured: { client: BackendClient; packets: CapturedPacket[] }[] = [];
  server._server.on("connection", (client: BackendClient) => {
    const packets: CapturedPacket[] = [];
    captured.push({ client, packets });
    // before flying-squid's own `state` listener, which writes packets as soon as a state begins
    client.prependListener("state", (state: string) => {
      client.serializer.on("data", (bytes: Buffer) => {
        packets.push({ state, name: packetName(codec, bytes, state), bytes: Buffer.from(bytes) });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("ready", () => resolve());
    server.once("error", reject);
  });
  const address = (server._server.socketServer?.address() ?? {}) as { port?: number };
  return {
    server,
    port: address.port ?? 0,
    sent: (username) =>
      captured.filter((entry) => entry.client.username === username).flatMap((entry) => entry.packets),
    close: async () => {
      await server.quit("test over").catch(() => {});
    },
  };
};

/** Records every packet a bot's client reads (attach before it connects: `joinBot`'s `beforeSpawn`). */
export const recordReceived = (bot: Bot, into: CapturedPacket[]): void => {
  bot._client.on("raw", (bytes: Buffer, meta: { state: string; name: string }) => {
    into.push({ state: meta.state, name: meta.name, bytes: Buffer.from(bytes) });
  });
};

/** A gateway started exactly as `system gateway` starts it, with its log kept. */
export interface GatewayUnderTest {
  readonly gateway: RunningGateway;
  readonly logger: MemoryLogger;
  readonly port: number;
  readonly dataDir: string;
  close(): Promise<void>;
}

/** A facade that owns nothing: the gateway relays every frame, System's tree and commands included none. */
export const RELAY_ONLY: GatewayCommands = { tree: () => undefined, owns: () => false, run: () => {} };

/**
 * Starts the gateway in front of `backendPort` on a free port, with a fresh data directory. With `assistant`
 * it passes no facade, so `startGateway` builds the assistant as the CLI does (with the model of `environment`,
 * none by default); otherwise it relays with `commands`, or only relays.
 */
export const startGatewayFor = async (
  backendPort: number,
  options: {
    readonly dataDir?: string;
    readonly commands?: GatewayCommands;
    readonly assistant?: boolean;
    readonly environment?: Readonly<Record<string, string>>;
    /** How long the backend may stay silent during a login. */
    readonly loginTimeoutMillis?: number;
  } = {},
): Promise<GatewayUnderTest> => {
  const commands = options.assistant === true ? undefined : (options.commands ?? RELAY_ONLY);
  const dataDir = options.dataDir ?? tempFolder("gateway-");
  const logger = new MemoryLogger();
  const lines: string[] = [];
  const gateway = await startGateway({
    argv: [
      "--backend",
      `127.0.0.1:${backendPort}`,
      "--port",
      "0",
      "--panel-port",
      "0",
      "--data-dir",
      dataDir,
    ],
    logger,
    announce: (line) => lines.push(line),
    environment: options.environment ?? {},
    ...(commands === undefined ? {} : { commands }),
    ...(options.loginTimeoutMillis === undefined ? {} : { loginTimeoutMillis: options.loginTimeoutMillis }),
  });
  // `panel on …` comes first when the assistant serves a panel; `listening on …` is the last line
  if (lines.at(-1) !== `listening on 127.0.0.1:${gateway.port}`)
    throw new Error(`announced ${JSON.stringify(lines)}`);
  return { gateway, logger, port: gateway.port, dataDir, close: () => gateway.close() };
};

/** The kick reason a bot saw (mineflayer gives it as JSON text or as a component object). */
export const waitKicked = (bot: Bot): Promise<string> =>
  new Promise((resolve) => {
    bot.once("kicked", (reason: unknown) =>
      resolve(typeof reason === "string" ? reason : JSON.stringify(reason)),
    );
  });

const BACKEND_SCRIPT = fileURLToPath(new URL("./gateway-backend-process.ts", import.meta.url));

/** A plain backend in its own process, so a test can kill it as a crash would. */
export interface BackendProcess {
  readonly port: number;
  readonly child: ChildProcess;
  kill(): Promise<void>;
}

/** Starts `gateway-backend-process.ts` on `port` (0: a free one) and waits for its `listening on` line. */
export const startBackendProcess = async (port = 0): Promise<BackendProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", BACKEND_SCRIPT, String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const bound = await waitFor(() => /listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1], 60_000);
  return {
    port: Number(bound),
    child,
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
};

const packetName = (codec: PacketCodec, bytes: Buffer, state: string): string =>
  codec.nameOf(state as ProtocolState, "toClient", bytes) ?? "unknown";
