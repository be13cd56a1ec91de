import { describe, expect, it } from "vitest";
import { type Logger, silentLogger } from "../../../util/logger.js";
import { PacketCodec } from "../protocol/packet-codec.js";
import { ItemRegistrySync, MAX_SPLIT_BYTES } from "./item-registry-sync.js";
import {
  type Entries,
  fabricDirectBytes,
  forgeModList,
  forgeRegistryMessage,
  forgeWrapperData,
  neoForgeRegistryPayload,
  neoForgeSplitPayloads,
  neoForgeStartPayload,
} from "./sync-bytes.test-support.js";
import { varIntBytes } from "./wire-reader.js";

const ITEMS: Entries = [
  [0, "minecraft:air"],
  [1, "create:andesite_alloy"],
  [2, "minecraft:stone"],
  [900, "mekanism:ingot_osmium"],
];

const codecOf = (version: string): PacketCodec => {
  const codec = PacketCodec.forVersion(version);
  if (codec === undefined) throw new Error(version);
  return codec;
};

const recording = (): { logger: Logger; warnings: string[] } => {
  const warnings: string[] = [];
  return { logger: { ...silentLogger, warn: (line) => warnings.push(line) }, warnings };
};

const syncOf = (codec: PacketCodec, logger: Logger = silentLogger): ItemRegistrySync =>
  new ItemRegistrySync(
    codec,
    (id) => codec.itemName(id),
    logger,
    () => "Steve",
  );

/** Hands a backend frame to the sync as the relay does (after it went on). */
const relay = (
  sync: ItemRegistrySync,
  codec: PacketCodec,
  state: "login" | "configuration" | "play",
  frame: Buffer,
) => {
  const name = codec.nameOf(state, "toClient", frame);
  if (sync.reads(state, "toClient", name)) sync.observe(state, frame);
};

const payload = (
  codec: PacketCodec,
  state: "configuration" | "play",
  channel: string,
  data: Buffer,
): Buffer => codec.encode(state, "toClient", "custom_payload", { channel, data });

describe("ItemRegistrySync", () => {
  const neo = codecOf("1.21.1");

  it("learns NeoForge's item numbers from a split frozen registry, and names nothing else", () => {
    const sync = syncOf(neo);
    const vanillaStone = neo.itemName(1);
    expect(sync.name(1)).toBe(vanillaStone);
    relay(
      sync,
      neo,
      "configuration",
      payload(
        neo,
        "configuration",
        "neoforge:frozen_registry_sync_start",
        neoForgeStartPayload(["minecraft:item"]),
      ),
    );
    // while the sync is under way no number is named (vanilla numbering would be wrong)
    expect(sync.name(1)).toBeUndefined();
    const inner = codecOf("1.21.1").encode("configuration", "toClient", "custom_payload", {
      channel: "neoforge:frozen_registry",
      data: neoForgeRegistryPayload("minecraft:item", ITEMS),
    });
    for (const slice of neoForgeSplitPayloads(inner, 3))
      relay(sync, neo, "configuration", payload(neo, "configuration", "neoforge:split", slice));
    relay(
      sync,
      neo,
      "configuration",
      payload(neo, "configuration", "neoforge:frozen_registry_sync_completed", Buffer.alloc(0)),
    );
    expect(sync.learning.kind).toBe("learnt");
    expect(sync.name(1)).toBe("create:andesite_alloy");
    expect(sync.name(900)).toBe("mekanism:ingot_osmium");
    expect(sync.name(3)).toBeUndefined();
  });

  it("says the numbers are unknown when a NeoForge sync ends without a readable item registry", () => {
    const { logger, warnings } = recording();
    const sync = syncOf(neo, logger);
    relay(
      sync,
      neo,
      "configuration",
      payload(
        neo,
        "configuration",
        "neoforge:frozen_registry_sync_start",
        neoForgeStartPayload(["minecraft:item"]),
      ),
    );
    const broken = neoForgeRegistryPayload("minecraft:item", ITEMS);
    relay(
      sync,
      neo,
      "configuration",
      payload(neo, "configuration", "neoforge:frozen_registry", broken.subarray(0, broken.length - 2)),
    );
    relay(
      sync,
      neo,
      "configuration",
      payload(neo, "configuration", "neoforge:frozen_registry_sync_completed", Buffer.alloc(0)),
    );
    expect(sync.learning.kind).toBe("unreadable");
    expect(sync.name(1)).toBeUndefined();
    expect(sync.name(0)).toBeUndefined();
    expect(warnings.join("\n")).toMatch(/NeoForge item registry sent to Steve could not be read/u);
  });

  it("drops a split packet that joins past the limit", () => {
    const { logger, warnings } = recording();
    const sync = syncOf(neo, logger);
    const big = Buffer.alloc(MAX_SPLIT_BYTES / 2 + 1);
    for (const state of [1, 0, 2]) {
      const slice = Buffer.concat([Buffer.from([state]), big]);
      const sized = Buffer.concat([varIntBytes(slice.length), slice]);
      relay(sync, neo, "configuration", payload(neo, "configuration", "neoforge:split", sized));
    }
    expect(warnings.join("\n")).toMatch(/over \d+ bytes: not read/u);
    expect(sync.learning.kind).toBe("none");
  });

  it("learns Forge 1.20.1's numbers from the login handshake's S2CRegistry", () => {
    const forge = codecOf("1.20.1");
    const sync = syncOf(forge);
    const query = (messageId: number, data: Buffer) =>
      forge.encode("login", "toClient", "login_plugin_request", {
        messageId,
        channel: "fml:loginwrapper",
        data,
      });
    relay(sync, forge, "login", query(1, forgeWrapperData(1, forgeModList(["forge", "create"]))));
    expect(sync.name(2)).toBeUndefined();
    relay(
      sync,
      forge,
      "login",
      query(2, forgeWrapperData(3, forgeRegistryMessage("minecraft:block", ITEMS))),
    );
    relay(sync, forge, "login", query(3, forgeWrapperData(3, forgeRegistryMessage("minecraft:item", ITEMS))));
    expect(sync.learning).toMatchObject({ kind: "learnt", loader: "Forge" });
    expect(sync.name(2)).toBe("minecraft:stone");
    expect(sync.name(1)).toBe("create:andesite_alloy");
  });

  it("learns Fabric's numbers from play slices joined up to the empty one", () => {
    const fabric = codecOf("1.20.1");
    const sync = syncOf(fabric);
    const bytes = fabricDirectBytes({ "minecraft:item": ITEMS });
    const half = Math.floor(bytes.length / 2);
    for (const slice of [bytes.subarray(0, half), bytes.subarray(half), Buffer.alloc(0)])
      relay(sync, fabric, "play", payload(fabric, "play", "fabric:registry/sync/direct", slice));
    expect(sync.learning).toMatchObject({ kind: "learnt", loader: "Fabric" });
    expect(sync.name(900)).toBe("mekanism:ingot_osmium");
  });

  it("learns Fabric 1.21's numbers from configuration slices", () => {
    const sync = syncOf(neo);
    const bytes = fabricDirectBytes({ "minecraft:item": ITEMS });
    for (const slice of [bytes, Buffer.alloc(0)])
      relay(sync, neo, "configuration", payload(neo, "configuration", "fabric:registry/sync/direct", slice));
    expect(sync.name(1)).toBe("create:andesite_alloy");
  });

  it("keeps vanilla numbering when Fabric syncs registries without the item registry", () => {
    const fabric = codecOf("1.20.1");
    const sync = syncOf(fabric);
    const bytes = fabricDirectBytes({ "minecraft:block": [[0, "minecraft:air"]] });
    for (const slice of [bytes, Buffer.alloc(0)])
      relay(sync, fabric, "play", payload(fabric, "play", "fabric:registry/sync/direct", slice));
    expect(sync.learning.kind).toBe("vanilla");
    expect(sync.name(1)).toBe(fabric.itemName(1));
  });
});
