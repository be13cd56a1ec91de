import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import mc from "minecraft-protocol";
import type { Bot } from "mineflayer";
import nbt from "prismarine-nbt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayStartError, startGateway } from "../../src/host/gateway/start-gateway.js";
import { MemoryLogger } from "../../src/util/logger.js";
import {
  type CapturedPacket,
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  recordReceived,
  startGatewayFor,
  startPlainBackend,
  tempFolder,
  waitFor,
} from "./gateway-support.js";

/** The gateway in front of a plain flying-squid 1.21.4 (no System inside), with mineflayer bots through it. */
describe("gateway: a raw relay in front of a plain backend", () => {
  let backend: PlainBackend;
  let gateway: GatewayUnderTest;
  const bots: Bot[] = [];

  beforeAll(async () => {
    backend = await startPlainBackend();
    gateway = await startGatewayFor(backend.port);
  }, 60_000);

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("reads the backend's version from its status ping and passes status pings through", async () => {
    expect(gateway.gateway.version).toBe("1.21.4");
    const ping = async (port: number) => {
      const answer = (await mc.ping({ host: "127.0.0.1", port, version: "1.21.4" })) as mc.NewPingResult;
      return { version: answer.version, description: answer.description, max: answer.players.max };
    };
    const relayed = await ping(gateway.port);
    expect(relayed).toEqual(await ping(backend.port));
    expect(relayed).toMatchObject({ version: { protocol: 769 }, max: 20 });
  });

  it("logs a bot in through the gateway, compressed as the backend compresses, and relays configuration and play byte for byte", async () => {
    const received: CapturedPacket[] = [];
    const bot = await joinBot(gateway.port, "Relayed", (joining) => recordReceived(joining, received));
    bots.push(bot);
    // the backend's threshold reached the client, and every later frame was compressed on both legs
    expect((bot._client as unknown as { compressionThreshold: number }).compressionThreshold).toBe(256);
    expect(gateway.gateway.server.players().map((player) => [player.username, player.state])).toEqual([
      ["Relayed", "play"],
    ]);

    const sent = backend.sent("Relayed");
    const configuration = (packets: CapturedPacket[]) =>
      packets
        .filter((packet) => packet.state === "configuration")
        .map((packet) => packet.bytes.toString("hex"));
    expect(configuration(sent).length).toBeGreaterThan(3);
    expect(configuration(received)).toEqual(configuration(sent));
    expect(sent.some((packet) => packet.name === "registry_data")).toBe(true);

    // play: every packet the bot read so far is the backend's, in order and unchanged
    const play = (packets: CapturedPacket[]) => packets.filter((packet) => packet.state === "play");
    const readByBot = play(received);
    await waitFor(() => (play(backend.sent("Relayed")).length >= readByBot.length ? true : undefined));
    const sentByBackend = play(backend.sent("Relayed")).slice(0, readByBot.length);
    expect(readByBot.length).toBeGreaterThan(20);
    expect(readByBot.map((packet) => packet.bytes.toString("hex"))).toEqual(
      sentByBackend.map((packet) => packet.bytes.toString("hex")),
    );
    expect(readByBot.some((packet) => packet.name === "map_chunk" && packet.bytes.length > 256)).toBe(true);
  });

  it("follows the backend from play back into configuration and out again, relaying that phase raw too", async () => {
    const received: CapturedPacket[] = [];
    const bot = await joinBot(gateway.port, "Reconfigured", (joining) => recordReceived(joining, received));
    bots.push(bot);
    const squid = backend.server.players.find((player) => player.username === "Reconfigured");
    const client = squid?._client as unknown as BackendPlayerClient;
    const configurationBefore = received.filter((packet) => packet.state === "configuration").length;
    // the backend asks the client to reconfigure (as a server does to resend registries or switch worlds)
    const acknowledged = new Promise<void>((resolve) =>
      client.once("configuration_acknowledged", () => {
        // at once, as a server does: what the client sends next is configuration
        client.state = "configuration";
        resolve();
      }),
    );
    client.write("start_configuration", {});
    await acknowledged;
    expect(player(gateway, "Reconfigured")?.state).toBe("configuration");
    client.write("feature_flags", { features: ["minecraft:vanilla"] });
    const finished = new Promise<void>((resolve) =>
      client.once("finish_configuration", () => {
        client.state = "play";
        resolve();
      }),
    );
    client.write("finish_configuration", {});
    await finished;
    expect(player(gateway, "Reconfigured")?.state).toBe("play");

    const configuration = (packets: CapturedPacket[]) =>
      packets
        .filter((packet) => packet.state === "configuration")
        .map((packet) => packet.bytes.toString("hex"));
    // the client acknowledged finish_configuration, so it has read every configuration frame by now
    expect(configuration(received).length).toBeGreaterThan(configurationBefore + 1);
    // flying-squid keeps sending play packets until it sees the acknowledgement, and the client reads those
    // few as configuration (as much of each as that state's parser takes): each must be one of the backend's
    // play frames; all the rest is the backend's configuration, in order and unchanged
    const sent = backend.sent("Reconfigured");
    const sentConfiguration = new Set(configuration(sent));
    const play = sent
      .filter((packet) => packet.state === "play")
      .map((packet) => packet.bytes.toString("hex"));
    const stray = configuration(received).filter((bytes) => !sentConfiguration.has(bytes));
    for (const bytes of stray) expect(play.some((frame) => frame.startsWith(bytes))).toBe(true);
    expect(configuration(received).filter((bytes) => sentConfiguration.has(bytes))).toEqual(
      configuration(sent),
    );
    // play goes on after the second configuration
    const chat = new Promise<string>((resolve) =>
      bot._client.on("system_chat", (packet: { content: unknown }) =>
        resolve(JSON.stringify(packet.content)),
      ),
    );
    client.write("system_chat", {
      content: nbt.comp({ text: nbt.string("back in play") }),
      isActionBar: false,
    });
    expect(await chat).toContain("back in play");
  });
});

/** The minecraft-protocol connection of a backend player, driven by the test as a server would. */
interface BackendPlayerClient {
  state: string;
  write(name: string, params: Record<string, unknown>): void;
  once(event: string, listener: (...args: unknown[]) => void): void;
}

const player = (gateway: GatewayUnderTest, name: string) =>
  gateway.gateway.server.players().find((candidate) => candidate.username === name);

describe("gateway: a backend that is not there", () => {
  it("refuses to start with one clear line when nothing listens at the backend address", async () => {
    const start = startGateway({
      argv: ["--backend", "127.0.0.1:1", "--port", "0", "--data-dir", tempFolder("gateway-none-")],
      logger: new MemoryLogger(),
      announce: () => {},
    });
    await expect(start).rejects.toBeInstanceOf(GatewayStartError);
    const message = await start.catch((error: Error) => error.message);
    expect(message).toBe(
      "backend 127.0.0.1:1 is not reachable (ECONNREFUSED): start the server there first, or fix --backend",
    );
  });

  it("prints that one line, and no stack trace, from `system gateway`", async () => {
    const bin = fileURLToPath(new URL("../../bin/system.js", import.meta.url));
    const run = promisify(execFile)(
      process.execPath,
      [bin, "gateway", "--backend", "127.0.0.1:1", "--port", "0", "--data-dir", tempFolder("gateway-cli-")],
      { timeout: 30_000 },
    );
    const failure = await run.then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr.trim().split("\n")).toEqual([
      "system gateway: backend 127.0.0.1:1 is not reachable (ECONNREFUSED): start the server there first, or fix --backend",
    ]);
  }, 40_000);
});
