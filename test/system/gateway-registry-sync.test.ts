import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Bot } from "mineflayer";
import nbt from "prismarine-nbt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Entries,
  forgeModList,
  forgeRegistryMessage,
  forgeWrapperData,
  neoForgeRegistryPayload,
  neoForgeSplitPayloads,
  neoForgeStartPayload,
} from "../../src/host/gateway/registry-sync/sync-bytes.test-support.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import { writeContentServer } from "../support/content-pack.js";
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

/** A modded numbering: number 1 is Create's alloy here (vanilla's stone), number 5 is in no sync. */
const ITEMS: Entries = [
  [0, "minecraft:air"],
  [1, "create:andesite_alloy"],
  [2, "minecraft:stone"],
  [3, "mekanism:ingot_osmium"],
];

const CONFIGURATION = "configuration";

interface BackendClient {
  username?: string;
  state: string;
  write(name: string, params: Record<string, unknown>): void;
  prependListener(event: string, listener: (packet: Record<string, unknown>) => void): void;
  prependOnceListener(event: string, listener: () => void): void;
}

/**
 * STAND-IN for a modded backend, on the plain backend's own minecraft-protocol server: for `Neo` it sends
 * NeoForge's configuration sync (start, the item registry as a `neoforge:split` packet in three slices,
 * completed) before the vanilla configuration; for `Forgey` it sends Forge's login handshake (`S2CModList`, then
 * `S2CRegistry` for blocks and items in `fml:loginwrapper` queries) before `success`. Unlike Forge, it does not
 * wait for the client's answers: they reach it after its own `compress` and its decoder logs "incorrect header
 * check" for them, which changes nothing the test reads.
 */
const moddedSync = (backend: PlainBackend): void => {
  const server = backend.server._server as unknown as {
    on(event: "connection", listener: (client: BackendClient) => void): void;
  };
  const inner = (channel: string, data: Buffer): Buffer => {
    const utf8 = Buffer.from(channel);
    // configuration custom_payload of 1.21.4 is packet 0x01: id, channel, payload
    return Buffer.concat([Buffer.from([0x01, utf8.length]), utf8, data]);
  };
  server.on("connection", (client) => {
    client.prependListener("login_start", (start) => {
      if (start.username !== "Forgey") return;
      let messageId = 100;
      for (const message of [
        forgeWrapperData(1, forgeModList(["forge", "create", "mekanism"])),
        forgeWrapperData(3, forgeRegistryMessage("minecraft:block", ITEMS)),
        forgeWrapperData(3, forgeRegistryMessage("minecraft:item", ITEMS)),
      ])
        client.write("login_plugin_request", {
          messageId: messageId++,
          channel: "fml:loginwrapper",
          data: message,
        });
    });
    client.prependOnceListener("login_acknowledged", () => {
      if (client.username !== "Neo") return;
      // before the first configuration packet (a state change drops what its old serializer still holds)
      const write = client.write.bind(client);
      let synced = false;
      client.write = (name, params) => {
        if (!synced && client.state === CONFIGURATION) {
          synced = true;
          const payload = (channel: string, data: Buffer) => write("custom_payload", { channel, data });
          payload("neoforge:frozen_registry_sync_start", neoForgeStartPayload(["minecraft:item"]));
          const whole = inner("neoforge:frozen_registry", neoForgeRegistryPayload("minecraft:item", ITEMS));
          for (const slice of neoForgeSplitPayloads(whole, 3)) payload("neoforge:split", slice);
          payload("neoforge:frozen_registry_sync_completed", Buffer.alloc(0));
        }
        write(name, params);
      };
    });
  });
};

/** A Forge world's `level.dat` whose `fml.Registries` saved `minecraft:item` as `entries`. */
const writeForgeLevel = (serverDir: string, entries: Entries): void => {
  const ids = entries.map(([id, name]) => ({ K: nbt.string(name), V: nbt.int(id) }));
  const root = nbt.comp({
    Data: nbt.comp({ LevelName: nbt.string("world") }),
    fml: nbt.comp({
      Registries: nbt.comp({
        // a list of compounds: { type: "list", value: { type: "compound", value: [...] } }
        "minecraft:item": nbt.comp({ ids: nbt.list(nbt.comp(ids)) }),
      }),
    }),
  });
  mkdirSync(join(serverDir, "world"), { recursive: true });
  writeFileSync(
    join(serverDir, "world", "level.dat"),
    gzipSync(nbt.writeUncompressed(root as unknown as nbt.NBT, "big")),
  );
};

/** Puts item number `itemId` into hotbar slot `slot` (36–44) of the player's window, as the backend does. */
const setSlot = (backend: PlainBackend, name: string, slot: number, itemId: number, count: number): void => {
  const serv = backend.server as unknown as {
    registry: unknown;
    getPlayer(name: string): { _client: BackendClient };
  };
  const Item = createRequire(import.meta.url)("prismarine-item")(serv.registry) as {
    new (type: number, count: number): unknown;
    toNotch(item: unknown): unknown;
  };
  serv.getPlayer(name)._client.write("set_slot", {
    windowId: 0,
    stateId: 1,
    slot,
    item: Item.toNotch(new Item(itemId, count)),
  });
};

/**
 * Modded item numbers through the shipped gateway: the loader's registry sync is relayed byte for byte and read
 * on the way, and the stacks the backend then puts in the player's inventory are named by that connection's
 * numbering in `/system me`; a number the sync did not include is said to be unknown, never named by vanilla.
 */
describe("gateway: modded item numbers learnt from the loader's registry sync", () => {
  let backend: PlainBackend;
  let gateway: GatewayUnderTest;
  const bots: Bot[] = [];

  const me = async (bot: Bot, chat: ChatMessage[], match: (text: string) => boolean): Promise<string> => {
    let last = "";
    for (let attempt = 0; attempt < 50; attempt++) {
      const card = await command(bot, chat, "/system me", (message) => message.text.startsWith("Status of"));
      if (match(card.text)) return card.text;
      last = card.text;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`/system me never matched; last: ${last}`);
  };

  beforeAll(async () => {
    backend = await startPlainBackend({ vanilla: true });
    moddedSync(backend);
    // the server's folder: its mods name the items (content catalog), its world saved Forge's numbering
    const serverDir = tempFolder("gateway-registry-server-");
    await writeContentServer(serverDir);
    writeForgeLevel(serverDir, [
      [0, "minecraft:air"],
      [2, "mekanism:ingot_osmium"],
    ]);
    const dataDir = tempFolder("gateway-registry-");
    mkdirSync(join(dataDir, "config/system"), { recursive: true });
    writeFileSync(join(dataDir, "config/system/gateway.json"), JSON.stringify({ serverDir }));
    gateway = await startGatewayFor(backend.port, { assistant: true, dataDir });
  }, 120_000);

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await gateway?.close();
    await backend?.close();
  });

  for (const [name, loader] of [
    ["Neo", "NeoForge"],
    ["Forgey", "Forge"],
  ] as const)
    it(`names a modded stack after a ${loader}-style sync, and says a number it lacks is unknown`, async () => {
      let chat: ChatMessage[] = [];
      const received: CapturedPacket[] = [];
      const bot = await joinBot(gateway.port, name, (joining) => {
        chat = recordChat(joining);
        recordReceived(joining, received);
      });
      bots.push(bot);
      await waitFor(() =>
        gateway.logger.lines.some((line) => line.includes(`from the ${loader} registry sync`))
          ? true
          : undefined,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}: ${gateway.logger.lines.join("\n")}`);
      });
      // the sync reached the client byte for byte (the gateway reads it on the way, never rewrites it)
      const plugin = (packets: readonly CapturedPacket[]) =>
        packets
          .filter((packet) => packet.name === "custom_payload" || packet.name === "login_plugin_request")
          .filter((packet) => packet.state !== "play")
          .map((packet) => packet.bytes.toString("hex"));
      const sent = plugin(backend.sent(name));
      expect(sent.length).toBeGreaterThanOrEqual(3);
      expect(plugin(received)).toEqual(sent);
      await me(bot, chat, (text) => text.includes("Inventory: 0 slots used"));
      setSlot(backend, name, 36, 1, 3);
      setSlot(backend, name, 37, 5, 2);
      const card = await me(bot, chat, (text) => text.includes("Inventory: 2 slots used"));
      expect(card).toContain("Andesite Alloy × 3");
      expect(card).toContain("unknown item (number 5) × 2");
      // vanilla's number 1 (stone) is never used for a connection whose sync was seen
      expect(card).not.toMatch(/stone/iu);
    });

  it("uses the numbering the server saved with its world for a connection whose sync was not seen", async () => {
    expect(gateway.logger.has("2 item numbers saved in")).toBe(true);
    let chat: ChatMessage[] = [];
    const bot = await joinBot(gateway.port, "Plain", (joining) => {
      chat = recordChat(joining);
    });
    bots.push(bot);
    await me(bot, chat, (text) => text.includes("Inventory: 0 slots used"));
    setSlot(backend, "Plain", 36, 2, 4);
    setSlot(backend, "Plain", 37, 1, 1);
    const card = await me(bot, chat, (text) => text.includes("Inventory: 2 slots used"));
    expect(card).toContain("Osmium Ingot × 4");
    expect(card).toContain("unknown item (number 1) × 1");
  });
});
