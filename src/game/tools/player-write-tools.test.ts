import { describe, expect, it } from "vitest";
import type { AgentException } from "../../agent/agent-exception.js";
import { hadNoEffect } from "../../agent/storage/no-effect.js";
import { Identifier } from "../../util/identifier.js";
import { GIVE_ITEMS, giveItemsTool } from "./give-items-tool.js";
import { MemoryGameBridge } from "./memory-game-bridge.js";
import { takeItemsTool } from "./player-write-tools.js";

const OWNER = Identifier.parse("system:ftb_quests");
const scope = (playerId: string) => ({
  playerId,
  locale: "en_us",
  stepId: "write/0",
  signal: new AbortController().signal,
  event: true,
});
const errorOf = async (work: Promise<unknown>): Promise<unknown> => {
  try {
    await work;
  } catch (error) {
    return error;
  }
  return undefined;
};

describe("experience in game.give_items, and game.take_items", () => {
  it("is a durable write tool that is NOT idempotent, allowed in events, owned by their feature", () => {
    for (const tool of [takeItemsTool({ bridge: new MemoryGameBridge(), owner: OWNER })]) {
      expect(tool.readOnly).toBe(false);
      expect(tool.idempotent).toBe(false);
      expect(tool.allowedInEvents).toBe(true);
      expect(tool.owner?.toString()).toBe("system:ftb_quests");
    }
  });

  it("gives experience in the same save as the items; offline is a refusal without effect", async () => {
    const bridge = new MemoryGameBridge();
    const tool = giveItemsTool({ bridge, owner: OWNER });
    const steve = bridge.join("steve", "Steve");
    await tool.handler(
      { items: [{ item: "minecraft:bread", count: 1 }], experience: { points: 10, levels: 2 } },
      scope("steve"),
    );
    expect(steve.stats.xpTotal).toBe(30);
    expect(steve.stats.xpLevel).toBe(3);
    await tool.handler({ items: [], experience: { points: 0, levels: 1 } }, scope("steve"));
    expect(steve.stats.xpLevel).toBe(4);
    bridge.leave("steve");
    const offline = await errorOf(
      tool.handler({ items: [], experience: { points: 5, levels: 0 } }, scope("steve")),
    );
    expect(hadNoEffect(offline)).toBe(true);
    expect(steve.stats.xpLevel).toBe(4);
    expect(GIVE_ITEMS.input.decode({ items: [] }).success).toBe(false);
  });

  it("takes all stacks or none, summed over the inventory", async () => {
    const bridge = new MemoryGameBridge();
    const tool = takeItemsTool({ bridge, owner: OWNER });
    bridge.join("steve", "Steve");
    await bridge.giveItems("steve", [
      { item: "minecraft:oak_log", count: 3 },
      { item: "minecraft:oak_log", count: 3 },
      { item: "minecraft:stone", count: 1 },
    ]);
    const short = await errorOf(
      tool.handler(
        {
          items: [
            { item: "minecraft:oak_log", count: 4 },
            { item: "minecraft:stone", count: 2 },
          ],
        },
        scope("steve"),
      ),
    );
    expect(hadNoEffect(short)).toBe(true);
    expect((short as AgentException).failure().code).toBe("TAKE_FAILED");
    expect(bridge.count("steve", "minecraft:oak_log")).toBe(6);
    expect(await tool.handler({ items: [{ item: "minecraft:oak_log", count: 4 }] }, scope("steve"))).toEqual({
      taken: [{ item: "minecraft:oak_log", count: 4 }],
    });
    expect(bridge.count("steve", "minecraft:oak_log")).toBe(2);
    expect(bridge.count("steve", "minecraft:stone")).toBe(1);
  });
});
