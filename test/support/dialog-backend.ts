import type { AddressInfo } from "node:net";
import mc from "minecraft-protocol";
import { offlineUuid } from "../../src/util/offline-uuid.js";

/**
 * STAND-IN for a vanilla 1.21.6+ server (1.21.8 by default), built on minecraft-protocol's own server connection
 * (no gateway code): status, an offline login, a configuration that sends what a real server sends of dialogs —
 * the `minecraft:dialog` registry with vanilla's three entries (`server_links`, `custom_options`,
 * `quick_actions`, from the known pack, so without data) and the two dialog tags in `tags`, beside another
 * registry's tag — then `finish_configuration` and a minimal PLAY (`login`). minecraft-data's 1.21.8
 * registries lack `minecraft:dialog`, so a library server would send none. It records every frame a player sent
 * in PLAY as it arrived (before any decoding, which the library gets wrong for `custom_click_action`), and can
 * write any frame of its own to a player (a plugin's `show_dialog`).
 */
export interface DialogBackend {
  readonly port: number;
  readonly version: string;
  /** The PLAY frames each player sent, by name, as they arrived. */
  received(username: string): Buffer[];
  /** Writes a frame (id and body) to a player in PLAY. */
  sendRaw(username: string, frame: Buffer): void;
  close(): Promise<void>;
}

/** Vanilla's dialog entries in registry order (1.21.6+), and its dialog tags (both empty). */
export const VANILLA_DIALOGS = [
  "minecraft:server_links",
  "minecraft:custom_options",
  "minecraft:quick_actions",
];
export const STAND_IN_TAGS = [
  {
    tagType: "minecraft:dialog",
    tags: [
      { tagName: "minecraft:pause_screen_additions", entries: [] as number[] },
      { tagName: "minecraft:quick_actions", entries: [] as number[] },
    ],
  },
  { tagType: "minecraft:item", tags: [{ tagName: "minecraft:logs", entries: [44, 45, 46] }] },
];

type RawServer = mc.Server & {
  listen(port: number, host: string): void;
  socketServer: { address(): AddressInfo; close(callback: () => void): void };
  clients: Record<string, mc.Client>;
};

type PlayClient = mc.Client & {
  splitter: { on(event: "data", listener: (frame: Buffer) => void): void };
  writeRaw(frame: Buffer): void;
};

export const startDialogBackend = async (version = "1.21.8"): Promise<DialogBackend> => {
  const server = new (mc.Server as unknown as new (version: string) => RawServer)(version);
  const protocol = Number((await import("minecraft-data")).default(version)?.version.version);
  const received = new Map<string, Buffer[]>();
  const players = new Map<string, PlayClient>();
  server.on("connection", (connection: mc.Client) => {
    const client = connection as PlayClient;
    client.on("error", () => {});
    client.once("set_protocol", (handshake: { nextState: number }) => {
      if (handshake.nextState === 1) {
        client.state = mc.states.STATUS;
        client.on("ping_start", () =>
          client.write("server_info", {
            response: JSON.stringify({
              version: { name: version, protocol },
              players: { max: 5, online: 0 },
              description: { text: "Dialog stand-in" },
            }),
          }),
        );
        client.on("ping", (ping: { time: bigint }) => client.write("ping", ping));
        return;
      }
      client.state = mc.states.LOGIN;
      client.once("login_start", (start: { username: string }) => {
        const name = start.username;
        client.write("success", { uuid: offlineUuid(name), username: name, properties: [] });
        client.once("login_acknowledged", () => {
          client.state = mc.states.CONFIGURATION;
          client.write("registry_data", {
            id: "minecraft:dialog",
            entries: VANILLA_DIALOGS.map((key) => ({ key, value: undefined })),
          });
          client.write("tags", { tags: STAND_IN_TAGS });
          client.once("finish_configuration", () => {
            client.state = mc.states.PLAY;
            const frames: Buffer[] = [];
            received.set(name, frames);
            players.set(name, client);
            client.splitter.on("data", (frame) => frames.push(Buffer.from(frame)));
            client.write("login", playLogin());
          });
          client.write("finish_configuration", {});
        });
      });
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    port: server.socketServer.address().port,
    version,
    received: (username) => received.get(username) ?? [],
    sendRaw: (username, frame) => players.get(username)?.writeRaw(frame),
    close: () =>
      new Promise((resolve) => {
        for (const client of Object.values(server.clients)) client.socket?.destroy();
        server.socketServer.close(() => resolve());
      }),
  };
};

/** A minimal PLAY `login` (overworld, survival). */
const playLogin = () => ({
  entityId: 1,
  isHardcore: false,
  worldNames: ["minecraft:overworld"],
  maxPlayers: 20,
  viewDistance: 2,
  simulationDistance: 2,
  reducedDebugInfo: false,
  enableRespawnScreen: true,
  doLimitedCrafting: false,
  worldState: {
    dimension: 0,
    name: "minecraft:overworld",
    hashedSeed: 0n,
    gamemode: "survival",
    previousGamemode: 255,
    isDebug: false,
    isFlat: true,
    death: undefined,
    portalCooldown: 0,
    seaLevel: 63,
  },
  enforcesSecureChat: false,
});
