import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GameHarness } from "../../../../test/support/game-harness.js";
import { PLAYER_QUERY_ACTION } from "./player-query-module.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const ALEX = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
let harness: GameHarness;

beforeEach(async () => {
  harness = await GameHarness.create({
    entries: [{ id: "system:player_query" }],
  });
});
afterEach(async () => {
  await harness.close();
});

describe("system:player_query", () => {
  it("reads the asking player's snapshot: health, food, xp, position, dimension, game mode, inventory", async () => {
    harness.bridge.join(STEVE, "Steve", {
      health: 13.5,
      food: 17,
      xpLevel: 5,
      xpTotal: 91,
      position: { x: 10.26, y: 70, z: -3.04 },
      dimension: "minecraft:the_nether",
      gameMode: "creative",
    });
    await harness.bridge.giveItem(STEVE, "minecraft:diamond", 3);
    await harness.bridge.giveItem(STEVE, "minecraft:diamond", 2);
    await harness.bridge.giveItem(STEVE, "minecraft:bread", 7);
    const result = await harness.command(STEVE, "/system me");
    expect(result.isSuccess()).toBe(true);
    const text = harness.render(result).text;
    expect(text).toBe(
      [
        "Status of Steve",
        "Health 13.5/20 · Food 17/20",
        "Level 5 (91 XP)",
        "Position 10.3, 70, -3 in minecraft:the_nether",
        "Game mode: Creative",
        "Inventory: 3 slots used, 33 free — Bread × 7, Diamond × 5",
      ].join("\n"),
    );
    const chinese = harness.render(await harness.command(STEVE, "我的状态", "zh_cn"), "zh_cn").text;
    expect(chinese).toContain("面包 ×7、钻石 ×5");
    expect(chinese).toContain("游戏模式：创造");
  });

  it("shows a piece the host does not know as unknown, in both languages (the gateway before it has seen it)", async () => {
    const steve = harness.bridge.join(STEVE, "Steve");
    steve.stats = { health: 18, food: 20, position: { x: 1, y: 64, z: 2 } };
    const text = harness.render(await harness.command(STEVE, "/system me")).text;
    expect(text).toBe(
      [
        "Status of Steve",
        "Health 18/20 · Food 20/20",
        "Experience: unknown",
        "Position 1, 64, 2 in unknown",
        "Game mode: unknown",
        "Inventory: 0 slots used, 36 free — empty",
      ].join("\n"),
    );
    const chinese = harness.render(await harness.command(STEVE, "/system me", "zh_cn"), "zh_cn").text;
    expect(chinese).toContain("经验：未知");
    expect(chinese).toContain("游戏模式：未知");
  });

  it("says a stack the host could not name is an unknown item with its number, in both languages", async () => {
    const steve = harness.bridge.join(STEVE, "Steve");
    // the gateway's placeholder for a number its connection's numbering does not have
    steve.stacks = [
      { slot: 36, item: "unknown:item_1305", count: 4 },
      { slot: 37, item: "minecraft:bread", count: 2 },
    ];
    const text = harness.render(await harness.command(STEVE, "/system me")).text;
    expect(text).toContain("Inventory: 2 slots used, 34 free — unknown item (number 1305) × 4, Bread × 2");
    const chinese = harness.render(await harness.command(STEVE, "/system me", "zh_cn"), "zh_cn").text;
    expect(chinese).toContain("未知物品（编号 1305） ×4");
  });

  it("never shows another player's data, and refuses when the player is not in the game", async () => {
    harness.bridge.join(STEVE, "Steve", { health: 4 });
    harness.bridge.join(ALEX, "Alex", { health: 19 });
    const alex = harness.render(await harness.run(PLAYER_QUERY_ACTION.action({}), ALEX)).text;
    expect(alex).toContain("Status of Alex");
    expect(alex).toContain("Health 19/20");
    harness.bridge.leave(ALEX);
    const offline = await harness.run(PLAYER_QUERY_ACTION.action({}), ALEX);
    expect(offline.failure?.code).toBe("PLAYER_OFFLINE");
    expect(offline.failure?.key).toBe("system.game.player_offline");
  });

  it("shows the asked field first", async () => {
    harness.bridge.join(ALEX, "Alex", { health: 19 });
    const whole = harness.render(await harness.run(PLAYER_QUERY_ACTION.action({}), ALEX)).text.split("\n");
    const where = harness
      .render(await harness.run(PLAYER_QUERY_ACTION.action({ field: "position" }), ALEX))
      .text.split("\n");
    expect(whole[1]).toContain("Health 19/20");
    expect(where[1]).toMatch(/^Position/);
    expect([...where].sort()).toEqual([...whole].sort());
    expect(PLAYER_QUERY_ACTION.codec.decode({ field: "password" }).success).toBe(false);
  });

  it("declares player.info read-only for reasoning, owned by the feature", () => {
    const tool = harness.engine.tools.get("system:player.info");
    expect(tool?.readOnly).toBe(true);
    expect(tool?.reasoningDescription).toMatch(/health/);
    expect(tool?.owner?.toString()).toBe("system:player_query");
  });
});
