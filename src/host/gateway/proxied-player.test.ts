import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Languages } from "../../util/language.js";
import { MemoryLogger } from "../../util/logger.js";
import { PLAIN_LOGIN } from "./identity/login-settings.js";
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

beforeEach(async () => {
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
      login: PLAIN_LOGIN,
      languages,
      logger: new MemoryLogger(),
    }),
    client: new FrameConnection(client),
    backend: new FrameConnection(backend),
  };
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
