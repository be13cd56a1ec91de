import { afterEach, describe, expect, it } from "vitest";
import { GameHarness, RESOURCES } from "../../../../test/support/game-harness.js";
import { MemoryLogger } from "../../../util/logger.js";
import { readSystemModuleEntries } from "../../system-module-entries.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const GAME_FEATURES = ["system:check_in", "system:help", "system:item_query", "system:player_query"];
let harness: GameHarness | undefined;
afterEach(async () => {
  await harness?.close();
});

describe("the built-in data pack", () => {
  it("declares the four game features with configs their types accept", async () => {
    const entries = readSystemModuleEntries([RESOURCES], new MemoryLogger()).filter((entry) =>
      GAME_FEATURES.includes(entry.id.toString()),
    );
    expect(entries.map((entry) => `${entry.id}=${entry.type}`).sort()).toEqual(
      GAME_FEATURES.map((id) => `${id}=${id}`),
    );
    // the server's own data pack lists them exactly as shipped: their configs are the built-in ones
    harness = await GameHarness.create({
      entries: entries.map((entry) => ({
        id: entry.id.toString(),
        type: entry.type.toString(),
        server: entry.server,
      })),
    });
    const installed = harness.manager.installed().map((entry) => entry.module.id.toString());
    for (const id of GAME_FEATURES) {
      expect(installed).toContain(id);
      expect(harness.manager.enabled(id)).toBe(true);
    }
    expect([...harness.features(STEVE)].filter((id) => GAME_FEATURES.includes(id)).sort()).toEqual(
      GAME_FEATURES,
    );
    harness.bridge.join(STEVE, "Steve");
    await harness.command(STEVE, "签到");
    await harness.events.whenIdle();
    expect(harness.bridge.count(STEVE, "minecraft:bread")).toBe(3);
  });
});
