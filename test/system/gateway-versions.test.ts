import mc from "minecraft-protocol";
import mineflayer, { type Bot } from "mineflayer";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CapturedPacket,
  type GatewayUnderTest,
  type PlainBackend,
  recordReceived,
  startGatewayFor,
  startPlainBackend,
  waitFor,
} from "./gateway-support.js";

/** Joins a mineflayer bot of `version` through `port` and resolves once it has spawned. */
const joinVersion = (
  port: number,
  username: string,
  version: string,
  received: CapturedPacket[],
): Promise<Bot> => {
  const bot = mineflayer.createBot({
    host: "127.0.0.1",
    port,
    username,
    version,
    auth: "offline",
    validateChannelProtocol: false,
  });
  recordReceived(bot, received);
  return new Promise((resolve, reject) => {
    bot.once("spawn", () => resolve(bot));
    bot.once("error", reject);
    bot.once("kicked", (reason) => reject(new Error(`kicked: ${JSON.stringify(reason)}`)));
  });
};

/**
 * Backends on the other protocol versions flying-squid serves: 1.20.1's protocol (763, flying-squid's `1.20`;
 * no configuration phase) and 1.21.1 (767). The gateway reads the version from the status ping, logs the
 * bot in compressed as the backend compresses, and relays every frame as it came.
 */
describe.each([
  { backendVersion: "1.20", clientVersion: "1.20.1", protocol: 763 },
  { backendVersion: "1.21.1", clientVersion: "1.21.1", protocol: 767 },
])("gateway in front of a $clientVersion backend", ({ backendVersion, clientVersion, protocol }) => {
  let backend: PlainBackend | undefined;
  let gateway: GatewayUnderTest | undefined;
  let bot: Bot | undefined;

  afterEach(async () => {
    bot?.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("passes status through, logs in and relays configuration and play byte for byte", async () => {
    backend = await startPlainBackend({ version: backendVersion });
    gateway = await startGatewayFor(backend.port);
    const ping = (await mc.ping({
      host: "127.0.0.1",
      port: gateway.port,
      version: clientVersion,
    })) as mc.NewPingResult;
    expect(ping.version.protocol).toBe(protocol);
    expect(gateway.logger.has(`protocol ${protocol}`)).toBe(true);

    const received: CapturedPacket[] = [];
    bot = await joinVersion(gateway.port, "Relayed", clientVersion, received);
    expect((bot._client as unknown as { compressionThreshold: number }).compressionThreshold).toBe(256);
    const player = gateway.gateway.server.players()[0];
    expect([player?.username, player?.state, player?.codec.protocolVersion]).toEqual([
      "Relayed",
      "play",
      protocol,
    ]);

    const sent = () => backend?.sent("Relayed") ?? [];
    const hex = (packets: CapturedPacket[], state: string) =>
      packets.filter((packet) => packet.state === state).map((packet) => packet.bytes.toString("hex"));
    expect(hex(received, "configuration")).toEqual(hex(sent(), "configuration"));
    const readByBot = hex(received, "play");
    await waitFor(() => (hex(sent(), "play").length >= readByBot.length ? true : undefined));
    expect(readByBot.length).toBeGreaterThan(20);
    expect(readByBot).toEqual(hex(sent(), "play").slice(0, readByBot.length));
  });
});
