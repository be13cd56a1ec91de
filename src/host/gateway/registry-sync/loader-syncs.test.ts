import { describe, expect, it } from "vitest";
import {
  fabricDirectSync,
  forgeLoginWrapper,
  forgeRegistry,
  neoForgeFrozenRegistry,
  neoForgeSplit,
  neoForgeSyncStart,
} from "./loader-syncs.js";
import {
  type Entries,
  fabricDirectBytes,
  forgeRegistryMessage,
  forgeWrapperData,
  neoForgeRegistryPayload,
  neoForgeSplitPayloads,
  neoForgeStartPayload,
} from "./sync-bytes.test-support.js";
import { WireError } from "./wire-reader.js";

/** A modded numbering: mods take numbers among and after the vanilla ones (1 is not stone here). */
const ITEMS: Entries = [
  [0, "minecraft:air"],
  [1, "create:andesite_alloy"],
  [2, "minecraft:stone"],
  [3, "minecraft:diamond"],
  [1300, "mekanism:ingot_osmium"],
  [1301, "mekanism:ingot_steel"],
  [1305, "create:cogwheel"],
];

describe("NeoForge frozen registry", () => {
  it("reads the item registry's numbers with their ids, vanilla included", () => {
    const { registry, ids } = neoForgeFrozenRegistry(
      neoForgeRegistryPayload("minecraft:item", ITEMS, [["create:old", "create:andesite_alloy"]]),
    );
    expect(registry).toBe("minecraft:item");
    expect(ids?.get(1)).toBe("create:andesite_alloy");
    expect(ids?.get(1300)).toBe("mekanism:ingot_osmium");
    expect(ids?.size).toBe(ITEMS.length);
  });

  it("reads another registry's layout without keeping its ids", () => {
    expect(neoForgeFrozenRegistry(neoForgeRegistryPayload("minecraft:block", ITEMS)).ids).toBeUndefined();
  });

  it("refuses a truncated snapshot, trailing bytes and a number given twice", () => {
    const payload = neoForgeRegistryPayload("minecraft:item", ITEMS);
    expect(() => neoForgeFrozenRegistry(payload.subarray(0, payload.length - 3))).toThrow(WireError);
    expect(() => neoForgeFrozenRegistry(Buffer.concat([payload, Buffer.from([0])]))).toThrow(WireError);
    expect(() =>
      neoForgeFrozenRegistry(
        neoForgeRegistryPayload("minecraft:item", [
          [5, "a:b"],
          [5, "a:c"],
        ]),
      ),
    ).toThrow(/twice/u);
  });

  it("reads the list of registries a sync starts with", () => {
    expect(neoForgeSyncStart(neoForgeStartPayload(["minecraft:item", "minecraft:block"]))).toEqual([
      "minecraft:item",
      "minecraft:block",
    ]);
  });

  it("cuts a split packet into slices whose states say first, middle and last", () => {
    const whole = Buffer.from("0123456789abcdef");
    const slices = neoForgeSplitPayloads(whole, 3).map(neoForgeSplit);
    expect(slices.map((slice) => slice.state)).toEqual(["first", "middle", "last"]);
    expect(Buffer.concat(slices.map((slice) => slice.slice))).toEqual(whole);
    expect(() => neoForgeSplit(Buffer.from([2, 7, 1]))).toThrow(/unknown state/u);
  });
});

describe("Forge login handshake", () => {
  it("unwraps fml:handshake and reads S2CRegistry's ids (name, then number, sorted by name)", () => {
    const message = forgeLoginWrapper(forgeWrapperData(3, forgeRegistryMessage("minecraft:item", ITEMS)));
    expect(message.channel).toBe("fml:handshake");
    expect(message.discriminator).toBe(3);
    const { registry, ids } = forgeRegistry(message.body);
    expect(registry).toBe("minecraft:item");
    expect(ids?.get(1305)).toBe("create:cogwheel");
    expect(ids?.get(2)).toBe("minecraft:stone");
    expect(ids?.size).toBe(ITEMS.length);
  });

  it("gives no ids for a registry sent without its snapshot, and refuses a cut message", () => {
    expect(forgeRegistry(forgeRegistryMessage("minecraft:item", undefined)).ids).toBeUndefined();
    const body = forgeRegistryMessage("minecraft:item", ITEMS);
    expect(() => forgeRegistry(body.subarray(0, body.length - 1))).toThrow(WireError);
  });
});

describe("Fabric direct registry sync", () => {
  it("reads runs of numbers per namespace ('' is minecraft) from the joined slices", () => {
    const bytes = fabricDirectBytes({
      "minecraft:block": [
        [0, "minecraft:air"],
        [7, "create:casing"],
      ],
      "minecraft:item": ITEMS,
    });
    const ids = fabricDirectSync(bytes);
    expect(ids === undefined ? undefined : Object.fromEntries(ids)).toEqual(
      Object.fromEntries(ITEMS.map(([id, name]) => [id, name])),
    );
  });

  it("reads a buffer written out byte by byte: a run starts startDiff after the last number", () => {
    const utf8 = (text: string): number[] => [text.length, ...Buffer.from(text)];
    // 1 registry namespace "" (minecraft) with 1 registry "item"; 2 id namespaces:
    // "" with one run from 0 (diff 0) of 2, then "create" with one run 5 after number 1 → 6, of 1
    const bytes = Buffer.from([
      1,
      ...utf8(""),
      1,
      ...utf8("item"),
      2,
      ...utf8(""),
      1,
      0,
      2,
      ...utf8("air"),
      ...utf8("stone"),
      ...utf8("create"),
      1,
      5,
      1,
      ...utf8("cogwheel"),
    ]);
    const ids = fabricDirectSync(bytes);
    expect(ids === undefined ? undefined : Object.fromEntries(ids)).toEqual({
      0: "minecraft:air",
      1: "minecraft:stone",
      6: "create:cogwheel",
    });
  });

  it("gives no ids when the item registry was not sent (no mod added items)", () => {
    expect(
      fabricDirectSync(fabricDirectBytes({ "minecraft:block": [[0, "minecraft:air"]] })),
    ).toBeUndefined();
  });

  it("refuses a buffer cut short", () => {
    const bytes = fabricDirectBytes({ "minecraft:item": ITEMS });
    expect(() => fabricDirectSync(bytes.subarray(0, bytes.length - 2))).toThrow(WireError);
  });
});
