import { describe, expect, it } from "vitest";
import { AgentException } from "../../agent/agent-exception.js";
import { Identifier } from "../../util/identifier.js";
import { giveItemsTool } from "./give-items-tool.js";
import { MemoryGameBridge } from "./memory-game-bridge.js";

const OWNER = Identifier.parse("system:check_in");
const scope = (playerId: string) => ({
  playerId,
  locale: "en_us",
  stepId: "give/0",
  signal: new AbortController().signal,
  event: true,
});
const failureOf = async (work: Promise<unknown>): Promise<string | undefined> => {
  try {
    await work;
    return undefined;
  } catch (error) {
    return error instanceof AgentException ? error.failure().code : String(error);
  }
};

describe("game.give_items", () => {
  it("is a durable idempotent write tool allowed in events, owned by its feature", () => {
    const tool = giveItemsTool({ bridge: new MemoryGameBridge(), owner: OWNER });
    expect(tool.readOnly).toBe(false);
    expect(tool.idempotent).toBe(true);
    expect(tool.allowedInEvents).toBe(true);
    expect(tool.owner?.toString()).toBe("system:check_in");
  });

  it("gives to an online player, refuses an offline one (PLAYER_OFFLINE) and a refused give (GIVE_FAILED)", async () => {
    const bridge = new MemoryGameBridge((id) => id !== "minecraft:unknown_thing");
    const tool = giveItemsTool({ bridge, owner: OWNER });
    bridge.join("steve", "Steve");
    const given = await tool.handler({ items: [{ item: "minecraft:bread", count: 3 }] }, scope("steve"));
    expect(given).toEqual({ given: [{ item: "minecraft:bread", count: 3 }] });
    expect(
      await failureOf(
        tool.handler({ items: [{ item: "minecraft:unknown_thing", count: 1 }] }, scope("steve")),
      ),
    ).toBe("GIVE_FAILED");
    bridge.leave("steve");
    expect(
      await failureOf(tool.handler({ items: [{ item: "minecraft:bread", count: 1 }] }, scope("steve"))),
    ).toBe("PLAYER_OFFLINE");
    expect(bridge.gives).toHaveLength(1);
  });
});
