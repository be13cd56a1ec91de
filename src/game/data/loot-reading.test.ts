import { describe, expect, it } from "vitest";
import { readBlockLoot, readEntityLoot } from "./loot-reading.js";

describe("readBlockLoot", () => {
  it("reads Silk Touch branches as certain once the tool picks the branch", () => {
    const drops = readBlockLoot({
      block: "example_ore",
      drops: [
        { item: "example_ore", dropChance: 0.5, stackSizeRange: [1, 1], silkTouch: true },
        { item: "gem", dropChance: 0.5, stackSizeRange: [2, 3], noSilkTouch: true },
      ],
    });
    expect(drops).toEqual([
      { item: "example_ore", min: 1, max: 1, chance: 1, condition: "silk_touch", fortune: false },
      { item: "gem", min: 2, max: 3, chance: 1, condition: "no_silk_touch", fortune: false },
    ]);
  });

  it("keeps an equal share for a branch of several items and the stated chance for unconditional drops", () => {
    const drops = readBlockLoot({
      block: "example_gravel",
      drops: [
        { item: "example_gravel", dropChance: 1 / 3, stackSizeRange: [1, 1], silkTouch: true },
        { item: "shard", dropChance: 1 / 3, stackSizeRange: [1, 1], noSilkTouch: true },
        { item: "example_gravel", dropChance: 1 / 3, stackSizeRange: [1, 1], noSilkTouch: true },
        { item: "seed", dropChance: 0.25, stackSizeRange: [null, 1] },
      ],
    });
    expect(drops.map((drop) => [drop.item, drop.chance, drop.condition, drop.min])).toEqual([
      ["example_gravel", 1, "silk_touch", 1],
      ["shard", 0.5, "no_silk_touch", 1],
      ["example_gravel", 0.5, "no_silk_touch", 1],
      ["seed", 0.25, "none", null],
    ]);
  });

  it("uses the vanilla table where minecraft-data's is known to be wrong", () => {
    const drops = readBlockLoot({
      block: "diamond_ore",
      drops: [{ item: "diamond", dropChance: 0.5, stackSizeRange: [1, 2], noSilkTouch: true }],
    });
    expect(drops).toContainEqual({
      item: "diamond",
      min: 1,
      max: 1,
      chance: 1,
      condition: "no_silk_touch",
      fortune: true,
    });
  });
});

describe("readEntityLoot", () => {
  it("keeps minecraft-data's drops and the player-kill mark for mobs without a vanilla override", () => {
    expect(
      readEntityLoot({
        entity: "example_mob",
        drops: [{ item: "hide", dropChance: 0.1, stackSizeRange: [1, 1], playerKill: true }],
      }),
    ).toEqual([{ item: "hide", min: 1, max: 1, chance: 0.1, playerKill: true, looting: false }]);
  });
});
