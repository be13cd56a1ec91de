import { describe, expect, it } from "vitest";
import { gameModeName, inventoryTotals, PLAYER_STATS_SNAPSHOT } from "./snapshots.js";

describe("snapshots", () => {
  it("sums stacks per item, largest first", () => {
    expect(
      inventoryTotals([
        { slot: 36, item: "minecraft:dirt", count: 64 },
        { slot: 37, item: "minecraft:diamond", count: 3 },
        { slot: 9, item: "minecraft:dirt", count: 10 },
      ]),
    ).toEqual([
      { item: "minecraft:dirt", count: 74 },
      { item: "minecraft:diamond", count: 3 },
    ]);
  });

  it("names game modes and rejects malformed stats", () => {
    expect([0, 1, 2, 3, 9].map(gameModeName)).toEqual([
      "survival",
      "creative",
      "adventure",
      "spectator",
      "survival",
    ]);
    expect(PLAYER_STATS_SNAPSHOT.decode({ health: "full" }).success).toBe(false);
    expect(PLAYER_STATS_SNAPSHOT.decode({ gameMode: "hardcore" }).success).toBe(false);
    // a piece the host does not know is absent (the gateway before it has seen it)
    expect(PLAYER_STATS_SNAPSHOT.decode({ health: 20 }).success).toBe(true);
  });
});
