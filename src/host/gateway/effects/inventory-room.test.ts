import { describe, expect, it } from "vitest";
import { CARRIED_SLOTS, carriedFromSnbt, fitsAll, itemCatalog, slotsNeeded } from "./inventory-room.js";

const catalog = itemCatalog("1.21.4");
const full = (item: string, count: number, mergeable = true) =>
  Array.from({ length: CARRIED_SLOTS }, () => ({ item, count, mergeable }));

describe("inventory room", () => {
  it("reads the carried stacks of a data get reply, leaving out armour and the offhand", () => {
    const held = carriedFromSnbt(
      `[{count: 3, Slot: 0b, id: "minecraft:bread"}, {components: {"minecraft:custom_name": '"Lucky"'}, count: 1, Slot: 5b, id: "minecraft:bread"}, {count: 1, Slot: 100b, id: "minecraft:iron_boots"}, {count: 2, Slot: -106b, id: "minecraft:torch"}]`,
    );
    expect(held).toEqual([
      { item: "minecraft:bread", count: 3, mergeable: true },
      { item: "minecraft:bread", count: 1, mergeable: false },
    ]);
    // before 1.20.5: Count as a byte, item NBT under tag
    expect(carriedFromSnbt(`[{Count: 64b, Slot: 9b, id: "minecraft:stone", tag: {Damage: 0}}]`)).toEqual([
      { item: "minecraft:stone", count: 64, mergeable: false },
    ]);
    expect(carriedFromSnbt("[]")).toEqual([]);
    expect(carriedFromSnbt("20.0f")).toBeUndefined();
    expect(carriedFromSnbt("[{oops")).toBeUndefined();
  });

  it("fits a give into partial plain stacks of the item, then empty slots, as vanilla places it", () => {
    const bread = { item: "minecraft:bread", count: 3 };
    const almost = [
      ...full("minecraft:stone", 64).slice(1),
      { item: "minecraft:bread", count: 61, mergeable: true },
    ];
    expect(fitsAll(almost, [bread], catalog)).toBe(true);
    expect(fitsAll(almost, [{ ...bread, count: 4 }], catalog)).toBe(false);
    // a named loaf takes no more bread
    expect(fitsAll([...almost.slice(0, -1), { ...almost.at(-1)!, mergeable: false }], [bread], catalog)).toBe(
      false,
    );
    expect(
      fitsAll(
        full("minecraft:stone", 64).slice(2),
        [bread, { item: "minecraft:experience_bottle", count: 2 }],
        catalog,
      ),
    ).toBe(true);
    expect(
      fitsAll(
        full("minecraft:stone", 64).slice(1),
        [bread, { item: "minecraft:experience_bottle", count: 2 }],
        catalog,
      ),
    ).toBe(false);
    // swords do not stack: three need three slots
    expect(
      slotsNeeded(
        [
          { item: "minecraft:diamond_sword", count: 3 },
          { item: "minecraft:bread", count: 65 },
        ],
        catalog,
      ),
    ).toBe(5);
  });

  it("knows vanilla items by minecraft-data and assumes modded ones stack to 64", () => {
    expect(catalog.stackSize("minecraft:bread")).toBe(64);
    expect(catalog.stackSize("minecraft:ender_pearl")).toBe(16);
    expect(catalog.stackSize("minecraft:no_such_item")).toBeUndefined();
    expect(catalog.stackSize("create:wrench")).toBe(64);
  });
});
