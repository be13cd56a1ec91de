import { afterEach, describe, expect, it } from "vitest";
import { GameHarness, RESOURCES } from "../../../../test/support/game-harness.js";
import { MemoryLogger } from "../../../util/logger.js";
import { readSystemModuleEntries } from "../../system-module-entries.js";
import { CHECK_IN_FEATURE } from "../check-in/check-in-feature.js";
import { ITEM_QUERY_FEATURE } from "../item-query/item-query-feature.js";
import { PLAYER_QUERY_FEATURE } from "../player-query/player-query-feature.js";
import { HELP_FEATURE } from "./help-feature.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const TYPES = [HELP_FEATURE, ITEM_QUERY_FEATURE, PLAYER_QUERY_FEATURE, CHECK_IN_FEATURE];
let harness: GameHarness | undefined;
afterEach(async () => {
  await harness?.close();
});

describe("the built-in data pack", () => {
  it("declares the four game features with configs their types accept", async () => {
    const entries = readSystemModuleEntries([RESOURCES], new MemoryLogger()).filter((entry) =>
      TYPES.some((type) => type.id.equals(entry.type)),
    );
    expect(entries.map((entry) => entry.id.toString()).sort()).toEqual([
      "system:check_in",
      "system:help",
      "system:item_query",
      "system:player_query",
    ]);
    harness = await GameHarness.create({
      types: TYPES,
      entries: entries.map((entry) => ({
        id: entry.id.toString(),
        type: entry.type.toString(),
        server: entry.server,
      })),
    });
    expect(
      harness.manager
        .installed()
        .map((entry) => entry.module.id.toString())
        .sort(),
    ).toEqual(["system:check_in", "system:help", "system:item_query", "system:player_query"]);
    harness.bridge.join(STEVE, "Steve");
    await harness.command(STEVE, "签到");
    await harness.events.whenIdle();
    expect(harness.bridge.count(STEVE, "minecraft:bread")).toBe(3);
  });
});
