import mc from "minecraft-protocol";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayStartError } from "../../src/host/gateway/start-gateway.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import {
  type ScriptedBackend,
  type ScriptedBackendOptions,
  startScriptedBackend,
} from "../support/login-backend.js";
import { gatewayDataDir, loginThrough, SECRET } from "./gateway-login-support.js";
import { type GatewayUnderTest, startGatewayFor, waitFor } from "./gateway-support.js";

describe("gateway: forwarding who joined to the backend", () => {
  let backend: ScriptedBackend | undefined;
  let gateway: GatewayUnderTest | undefined;

  afterEach(async () => {
    await gateway?.close();
    await backend?.close();
    gateway = undefined;
    backend = undefined;
  });

  const start = async (
    backendOptions: ScriptedBackendOptions,
    config: Record<string, unknown>,
    secret = SECRET,
  ): Promise<{ backend: ScriptedBackend; gateway: GatewayUnderTest }> => {
    backend = await startScriptedBackend(backendOptions);
    gateway = await startGatewayFor(backend.port, { dataDir: gatewayDataDir(config, secret) });
    return { backend, gateway };
  };

  it("velocity: answers velocity:player_info with the HMAC-signed profile at the version asked, and relays every other login plugin message", async () => {
    const { backend, gateway } = await start(
      { forwarding: "velocity", secret: SECRET, requestVersion: 4, probeChannel: "fml:loginwrapper" },
      { forwarding: "velocity", forwardingSecretFile: "forwarding.secret" },
    );
    const outcome = await loginThrough(gateway.port, "Alex");
    const [login] = backend.logins;
    expect(login?.refused).toBeUndefined();
    expect(login?.forwarded).toEqual({
      version: 4,
      address: "127.0.0.1",
      uuid: offlineUuid("Alex"),
      name: "Alex",
      properties: [],
    });
    // the Forge-style request reached the client, and its "not understood" answer reached the backend
    expect(login?.probe).toEqual({ understood: false, data: "" });
    // the handshake went on as it came (modern forwarding leaves the address alone)
    expect(login?.serverHost).toBe("127.0.0.1");
    // the UUID the backend uses is the forwarded one, and the gateway notes it
    expect(outcome.success).toEqual({ uuid: offlineUuid("Alex"), username: "Alex" });
    await waitFor(() =>
      gateway.gateway.server.players().find((player) => player.uuid === offlineUuid("Alex")),
    );
    expect(gateway.logger.has("FORWARDING IS NONE")).toBe(false);
  });

  it("velocity: answers version 1 to a backend that asks for no version", async () => {
    const { backend, gateway } = await start(
      { forwarding: "velocity", secret: SECRET },
      { forwarding: "velocity", forwardingSecretFile: "forwarding.secret" },
    );
    expect((await loginThrough(gateway.port, "Steve")).success?.uuid).toBe(offlineUuid("Steve"));
    expect(backend.logins[0]?.forwarded?.version).toBe(1);
  });

  it("velocity: a gateway with another secret is refused by the backend, whose own reason the player reads", async () => {
    const { backend, gateway } = await start(
      { forwarding: "velocity", secret: "the backend's secret" },
      { forwarding: "velocity", forwardingSecretFile: "forwarding.secret" },
    );
    const outcome = await loginThrough(gateway.port, "Alex");
    expect(backend.logins[0]?.refused).toBe("invalid forwarding signature");
    expect(outcome.refused).toContain("invalid forwarding signature");
  });

  it("velocity: a backend that lets the player in without asking is not set up, and the player is told so", async () => {
    const { gateway } = await start(
      { forwarding: "none" },
      { forwarding: "velocity", forwardingSecretFile: "forwarding.secret" },
    );
    const outcome = await loginThrough(gateway.port, "Alex");
    expect(outcome.refused).toContain("does not accept the gateway's player forwarding");
    expect(gateway.logger.has("without asking for Velocity forwarding")).toBe(true);
  });

  it("bungeecord: puts host, address, undashed UUID and properties in the handshake, and moves Forge's marker into properties", async () => {
    const { backend, gateway } = await start({ forwarding: "bungeecord" }, { forwarding: "bungeecord" });
    const outcome = await loginThrough(gateway.port, "Alex", { fakeHost: "play.example.org\0FML3\0" });
    const uuid = offlineUuid("Alex");
    const [login] = backend.logins;
    expect(login?.serverHost.split("\0")).toEqual([
      "play.example.org",
      "127.0.0.1",
      uuid.replaceAll("-", ""),
      JSON.stringify([
        { name: "forgeClient", value: "true" },
        { name: "extraData", value: "\u0001FML3\u0001", signature: "" },
      ]),
    ]);
    expect(outcome.success?.uuid).toBe(uuid);
    expect(gateway.logger.has("BUNGEECORD FORWARDING IS NOT AUTHENTICATED")).toBe(true);
  });

  it("bungeeguard: adds the secret as the bungeeguard-token property; a wrong token is refused by the backend", async () => {
    const { backend, gateway } = await start(
      { forwarding: "bungeeguard", secret: SECRET },
      { forwarding: "bungeeguard", forwardingSecretFile: "forwarding.secret" },
    );
    expect((await loginThrough(gateway.port, "Alex")).success?.uuid).toBe(offlineUuid("Alex"));
    expect(backend.logins[0]?.forwarded?.properties).toEqual([
      { name: "bungeeguard-token", value: SECRET, signature: "" },
    ]);
    await gateway.close();
    await backend.close();

    const wrong = await start(
      { forwarding: "bungeeguard", secret: "another token" },
      { forwarding: "bungeeguard", forwardingSecretFile: "forwarding.secret" },
    );
    expect((await loginThrough(wrong.gateway.port, "Alex")).refused).toContain("invalid bungeeguard token");
  });

  it("refuses to start without a readable secret where the mode needs one, in one line", async () => {
    backend = await startScriptedBackend({ forwarding: "velocity", secret: SECRET });
    const port = backend.port;
    const noFile = startGatewayFor(port, { dataDir: gatewayDataDir({ forwarding: "velocity" }) });
    await expect(noFile).rejects.toThrow(GatewayStartError);
    await expect(noFile).rejects.toThrow(/needs a shared secret: set "forwardingSecretFile"/);
    const missing = startGatewayFor(port, {
      dataDir: gatewayDataDir({ forwarding: "bungeeguard", forwardingSecretFile: "nowhere.secret" }),
    });
    await expect(missing).rejects.toThrow(/nowhere\.secret cannot be read \(ENOENT\)/);
    const empty = startGatewayFor(port, {
      dataDir: gatewayDataDir({ forwarding: "velocity", forwardingSecretFile: "forwarding.secret" }, "  "),
    });
    await expect(empty).rejects.toThrow(/forwarding\.secret is empty/);
  });

  it("a backend that accepts but never answers a login: the player is told after the timeout, and the gateway keeps running", async () => {
    backend = await startScriptedBackend({ forwarding: "silent" });
    gateway = await startGatewayFor(backend.port, { loginTimeoutMillis: 1_000 });
    const first = await loginThrough(gateway.port, "Alex");
    expect(first.refused).toContain("The server did not answer in time.");
    expect(first.refused).toContain("服务器没有及时响应");
    expect(gateway.logger.has("the backend did not answer Alex's login within 1 s")).toBe(true);
    // still listening and relaying: a status ping goes through, and the next login is told the same
    const ping = (await mc.ping({
      host: "127.0.0.1",
      port: gateway.port,
      version: "1.21.4",
    })) as mc.NewPingResult;
    expect(ping.description).toEqual({ text: "Scripted silent backend" });
    expect((await loginThrough(gateway.port, "Steve")).refused).toContain(
      "The server did not answer in time.",
    );
    expect(backend.logins.map((login) => login.loginName)).toEqual(["Alex", "Steve"]);
  });
});
