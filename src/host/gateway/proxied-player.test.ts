import { constants, createHash, createPublicKey, publicEncrypt, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSessionServer } from "../../../test/support/session-server.js";
import { Languages } from "../../util/language.js";
import { MemoryLogger } from "../../util/logger.js";
import { type LoginSettings, PLAIN_LOGIN } from "./identity/login-settings.js";
import { MojangAuthenticator, minecraftHexDigest } from "./identity/mojang-auth.js";
import { FrameConnection } from "./protocol/frame-connection.js";
import { PacketCodec } from "./protocol/packet-codec.js";
import { collect, socketPair } from "./protocol/socket-pair.test-support.js";
import { ProxiedPlayer } from "./proxied-player.js";

const RESOURCES = fileURLToPath(new URL("../../../resources", import.meta.url));
const codec = PacketCodec.forVersion("1.21.4")!;
const languages = Languages.load(RESOURCES);
const HANDSHAKE = {
  protocolVersion: codec.protocolVersion,
  serverHost: "localhost",
  serverPort: 25565,
  nextState: 2,
};

/** A client and a backend scripted frame by frame around one ProxiedPlayer, over real sockets. */
interface Relay {
  readonly player: ProxiedPlayer;
  readonly client: FrameConnection;
  readonly backend: FrameConnection;
}

let relay: Relay;

const startRelay = async (login: LoginSettings): Promise<Relay> => {
  const [gatewayClient, client] = await socketPair();
  const [backend, gatewayBackend] = await socketPair();
  relay = {
    player: new ProxiedPlayer({
      client: new FrameConnection(gatewayClient),
      backend: new FrameConnection(gatewayBackend),
      codec,
      handshake: {
        name: "set_protocol",
        params: HANDSHAKE,
        frame: codec.encode("handshaking", "toServer", "set_protocol", HANDSHAKE),
      },
      login,
      languages,
      logger: new MemoryLogger(),
    }),
    client: new FrameConnection(client),
    backend: new FrameConnection(backend),
  };
  return relay;
};

beforeEach(async () => {
  await startRelay(PLAIN_LOGIN);
});

afterEach(() => {
  relay.client.close();
  relay.backend.close();
});

const next = (connection: FrameConnection, count = 1): Promise<Buffer[]> =>
  collect<Buffer>((listener) => connection.on("frame", listener), count);

/** Logs the scripted client in and acknowledges, so both sides are in CONFIGURATION. */
const reachConfiguration = async (): Promise<void> => {
  // the handshake goes on with the login, once the gateway knows who logs in
  const atBackend = next(relay.backend, 2);
  relay.client.write(
    codec.encode("login", "toServer", "login_start", { username: "Alex", playerUUID: UUID }),
  );
  await atBackend;
  const atClient = next(relay.client);
  relay.backend.write(
    codec.encode("login", "toClient", "success", { uuid: UUID, username: "Alex", properties: [] }),
  );
  await atClient;
  const acknowledged = next(relay.backend);
  relay.client.write(codec.encode("login", "toServer", "login_acknowledged", {}));
  await acknowledged;
  expect(relay.player.state).toBe("configuration");
};

const UUID = "a0d2a5a8-3c6e-3a4f-9a1e-2f1d0c9b8a7e";

describe("ProxiedPlayer", () => {
  it("relays a frame it cannot decode, and a frame of an id it does not know, exactly as they came", async () => {
    await reachConfiguration();
    // a `settings` packet (id 0) cut short: the handler reads settings, the decode fails, the bytes go on
    const truncated = Buffer.from([0x00, 0x05, 0x65, 0x6e]);
    const unknown = Buffer.from([0x7f, 0x01, 0x02, 0x03]);
    const atBackend = next(relay.backend, 2);
    relay.client.write(truncated);
    relay.client.write(unknown);
    expect(await atBackend).toEqual([truncated, unknown]);
    expect(relay.player.locale).toBeUndefined();
    expect(relay.player.state).toBe("configuration");
  });

  it("reads the client's language from its settings and still relays them unchanged", async () => {
    await reachConfiguration();
    const settings = codec.encode("configuration", "toServer", "settings", {
      locale: "zh_CN",
      viewDistance: 2,
      chatFlags: 0,
      chatColors: true,
      skinParts: 127,
      mainHand: 1,
      enableTextFiltering: false,
      enableServerListing: true,
      particleStatus: "all",
    });
    const atBackend = next(relay.backend);
    relay.client.write(settings);
    expect(await atBackend).toEqual([settings]);
    expect(relay.player.locale).toBe("zh_cn");
  });

  it("drops the client's chat session toward the backend (no forwarding: its key is for another UUID)", async () => {
    await reachConfiguration();
    const finished = next(relay.backend);
    relay.client.write(codec.encode("configuration", "toServer", "finish_configuration", {}));
    await finished;
    expect(relay.player.state).toBe("play");
    const session = codec.encode("play", "toServer", "chat_session_update", {
      sessionUUID: UUID,
      expireTime: 0n,
      publicKey: Buffer.from([1, 2, 3]),
      signature: Buffer.from([4, 5, 6]),
    });
    const chat = codec.encode("play", "toServer", "chat_command", { command: "spawn" });
    const atBackend = next(relay.backend);
    relay.client.write(session);
    relay.client.write(chat);
    expect(await atBackend).toEqual([chat]);
  });

  it("hands the PLAY frames its observer names to it only after relaying them unchanged; a throwing observer stops nothing", async () => {
    await reachConfiguration();
    const finished = next(relay.backend);
    relay.client.write(codec.encode("configuration", "toServer", "finish_configuration", {}));
    await finished;
    const seen: Buffer[] = [];
    const order: string[] = [];
    const toClient = relay.player.client;
    const forward = toClient.forward.bind(toClient);
    toClient.forward = (frame, wire) => {
      order.push("relayed");
      forward(frame, wire);
    };
    relay.player.observe({
      observes: (direction, name) => direction === "toClient" && name === "update_health",
      observe: (_direction, _name, frame) => {
        seen.push(frame);
        order.push("observed");
        throw new Error("an observer bug");
      },
    });
    const health = codec.encode("play", "toClient", "update_health", {
      health: 7,
      food: 20,
      foodSaturation: 5,
    });
    const broken = health.subarray(0, 3);
    const time = codec.encode("play", "toClient", "update_time", { age: 1n, time: 2n, tickDayTime: true });
    const arrived = next(relay.client, 3);
    relay.backend.write(health);
    relay.backend.write(broken);
    relay.backend.write(time);
    expect(await arrived).toEqual([health, broken, time]);
    expect(seen).toEqual([health, broken]);
    // each frame was written on to the client before the observer read it
    expect(order).toEqual(["relayed", "observed", "relayed", "observed", "relayed"]);
    expect(relay.player.logger instanceof MemoryLogger && relay.player.logger.lines.join("\n")).toContain(
      "reading update_health of Alex failed",
    );
  });

  it("relays the chat session of a player authenticated at the gateway and forwarded (the backend knows the signed UUID)", async () => {
    const account = { accessToken: "token", id: "069a79f444e94726a5befca90e38aaf5", name: "Alex" };
    const sessions = await startSessionServer([account]);
    relay.client.close();
    relay.backend.close();
    const authenticator = new MojangAuthenticator(sessions.url);
    await startRelay({ ...PLAIN_LOGIN, forwarding: "bungeecord", authenticator });
    // the client's side of an online login: encryption request, join at the session server, encrypted answer
    const request = next(relay.client);
    relay.client.write(
      codec.encode("login", "toServer", "login_start", { username: "Alex", playerUUID: UUID }),
    );
    const encryption = codec.decode("login", "toClient", (await request)[0]!)!;
    const key = createPublicKey({ key: encryption.params.publicKey as Buffer, format: "der", type: "spki" });
    const encrypt = (data: Buffer) => publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, data);
    const secret = randomBytes(16);
    const serverId = minecraftHexDigest(
      createHash("sha1")
        .update("")
        .update(secret)
        .update(encryption.params.publicKey as Buffer)
        .digest(),
    );
    await fetch(`${sessions.url}/session/minecraft/join`, {
      method: "POST",
      body: JSON.stringify({ accessToken: "token", selectedProfile: account.id, serverId }),
    });
    const atBackend = next(relay.backend, 2);
    relay.client.write(
      codec.encode("login", "toServer", "encryption_begin", {
        sharedSecret: encrypt(secret),
        verifyToken: encrypt(encryption.params.verifyToken as Buffer),
      }),
    );
    relay.client.enableEncryption(secret);
    await atBackend;
    expect(relay.player.profile?.id).toBe("069a79f4-44e9-4726-a5be-fca90e38aaf5");
    const atClient = next(relay.client);
    relay.backend.write(
      codec.encode("login", "toClient", "success", {
        uuid: relay.player.profile?.id,
        username: "Alex",
        properties: [],
      }),
    );
    await atClient;
    const acknowledged = next(relay.backend);
    relay.client.write(codec.encode("login", "toServer", "login_acknowledged", {}));
    await acknowledged;
    const finished = next(relay.backend);
    relay.client.write(codec.encode("configuration", "toServer", "finish_configuration", {}));
    await finished;
    const session = codec.encode("play", "toServer", "chat_session_update", {
      sessionUUID: UUID,
      expireTime: 0n,
      publicKey: Buffer.from([1, 2, 3]),
      signature: Buffer.from([4, 5, 6]),
    });
    const relayed = next(relay.backend);
    relay.client.write(session);
    expect(await relayed).toEqual([session]);
    await sessions.close();
  });

  it("adds no reason of its own after the backend's own disconnect", async () => {
    const reason = codec.encode("login", "toClient", "disconnect", {
      reason: JSON.stringify({ text: "Banned" }),
    });
    const frames: Buffer[] = [];
    relay.client.on("frame", (frame) => frames.push(frame));
    const closed = new Promise<void>((resolve) => relay.client.on("close", () => resolve()));
    relay.backend.write(reason);
    relay.backend.close();
    await closed;
    expect(frames).toEqual([reason]);
  });

  it("tells the client in its own state and language when the backend closes without a word", async () => {
    await reachConfiguration();
    relay.player.locale = "zh_cn";
    const atClient = next(relay.client);
    relay.backend.close();
    const [frame] = await atClient;
    const packet = codec.decode("configuration", "toClient", frame!);
    expect(packet?.name).toBe("disconnect");
    expect(JSON.stringify(packet?.params.reason)).toContain("服务器断开了连接");
  });
});
