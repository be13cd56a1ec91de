import mineflayer, { type Bot } from "mineflayer";
import { afterEach, describe, expect, it } from "vitest";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type ScriptedBackend, startScriptedBackend } from "../support/login-backend.js";
import {
  SCRIPTED_TEXTURES,
  type ScriptedSessionServer,
  type SessionAccount,
  startSessionServer,
} from "../support/session-server.js";
import { gatewayDataDir, loginThrough, onlineClient, SECRET } from "./gateway-login-support.js";
import {
  type GatewayUnderTest,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
} from "./gateway-support.js";

const ALEX: SessionAccount = {
  accessToken: "token-of-alex",
  id: "069a79f444e94726a5befca90e38aaf5",
  name: "Alex",
};
const ALEX_UUID = "069a79f4-44e9-4726-a5be-fca90e38aaf5";

/**
 * Online mode at the gateway, against a scripted Mojang session server on 127.0.0.1: the client encrypts its
 * leg with the gateway's key and joins through the session server; the gateway asks `hasJoined` and forwards
 * the profile the session server answered.
 */
describe("gateway: Mojang authentication at the gateway (onlineMode)", () => {
  let sessions: ScriptedSessionServer | undefined;
  let backend: ScriptedBackend | undefined;
  let plain: PlainBackend | undefined;
  let gateway: GatewayUnderTest | undefined;
  let bot: Bot | undefined;

  afterEach(async () => {
    bot?.quit();
    await gateway?.close();
    await backend?.close();
    await plain?.close();
    await sessions?.close();
    bot = undefined;
    gateway = undefined;
    backend = undefined;
    plain = undefined;
  });

  it("authenticates over an encrypted leg and forwards Mojang's UUID, name and signed skin with velocity", async () => {
    sessions = await startSessionServer([ALEX]);
    backend = await startScriptedBackend({ forwarding: "velocity", secret: SECRET, requestVersion: 4 });
    gateway = await startGatewayFor(backend.port, {
      dataDir: gatewayDataDir({
        onlineMode: true,
        sessionServer: sessions.url,
        forwarding: "velocity",
        forwardingSecretFile: "forwarding.secret",
      }),
    });
    const outcome = await loginThrough(gateway.port, "Alex", onlineClient(ALEX, sessions.url));
    expect(outcome.success).toEqual({ uuid: ALEX_UUID, username: "Alex" });
    // the client joined the hash the gateway then asked about (same key, same shared secret)
    expect(sessions.joins).toHaveLength(1);
    expect(sessions.checks).toEqual([{ username: "Alex", serverId: sessions.joins[0]?.serverId }]);
    expect(backend.logins[0]?.forwarded).toEqual({
      version: 4,
      address: "127.0.0.1",
      uuid: ALEX_UUID,
      name: "Alex",
      properties: [SCRIPTED_TEXTURES],
    });
  });

  it("refuses a client the session server has not seen join, and says so when the session server does not answer", async () => {
    sessions = await startSessionServer([ALEX]);
    backend = await startScriptedBackend({ forwarding: "none" });
    gateway = await startGatewayFor(backend.port, {
      dataDir: gatewayDataDir({ onlineMode: true, sessionServer: sessions.url }),
    });
    // an offline client answers the encryption request without joining through the session server
    const unverified = await loginThrough(gateway.port, "Alex");
    expect(unverified.refused).toContain("Your Minecraft account could not be verified.");
    expect(sessions.checks.map((check) => check.username)).toEqual(["Alex"]);
    expect(backend.logins).toEqual([]);
    await gateway.close();

    // a session server that is gone: its port refuses connections
    const gone = await startSessionServer([]);
    await gone.close();
    const down = gone.url;
    gateway = await startGatewayFor(backend.port, {
      dataDir: gatewayDataDir({ onlineMode: true, sessionServer: down }),
    });
    const unavailable = await loginThrough(gateway.port, "Alex", onlineClient(ALEX, sessions.url));
    expect(unavailable.refused).toContain("Minecraft's login servers are not answering right now.");
    expect(gateway.logger.has("the session server did not answer for Alex")).toBe(true);
    expect(backend.logins).toEqual([]);
  });

  it("carries a whole game over the encrypted client leg to a plain backend (mineflayer spawns)", async () => {
    sessions = await startSessionServer([ALEX]);
    plain = await startPlainBackend();
    gateway = await startGatewayFor(plain.port, {
      dataDir: gatewayDataDir({ onlineMode: true, sessionServer: sessions.url }),
    });
    bot = mineflayer.createBot({
      host: "127.0.0.1",
      port: gateway.port,
      username: "Alex",
      version: "1.21.4",
      validateChannelProtocol: false,
      ...(onlineClient(ALEX, sessions.url) as object),
    });
    const joined = bot;
    await new Promise<void>((resolve, reject) => {
      joined.once("spawn", () => resolve());
      joined.once("kicked", (reason) => reject(new Error(String(reason))));
      joined.once("error", reject);
    });
    // forwarding none: the backend knows the player by the offline UUID of the verified name
    const player = gateway.gateway.server.players()[0];
    expect(player?.profile?.id).toBe(ALEX_UUID);
    expect(player?.uuid).toBe(offlineUuid("Alex"));
    expect(plain.sent("Alex").some((packet) => packet.state === "play" && packet.name === "map_chunk")).toBe(
      true,
    );
  });
});
