import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_PACK_ROOT } from "../../../data/prompts/prompt-store.js";
import { loadQuestBook } from "../../../data/quests/quest-loader.js";
import { FileAgentStore } from "../../../data/store/file-agent-store.js";
import { ItemCatalog } from "../../../game/data/item-catalog.js";
import { MemoryGameBridge } from "../../../game/tools/memory-game-bridge.js";
import { Identifier } from "../../../util/identifier.js";
import { Languages } from "../../../util/language.js";
import { questProgressStorage } from "./quest-progress.js";
import { QuestService } from "./quest-service.js";
import { observe, QuestState } from "./quest-state.js";

const FIXTURES = join(import.meta.dirname, "../../../../test/fixtures/ftbquests");

const serviceOver = (pack: string) => {
  const { book } = loadQuestBook(join(FIXTURES, pack));
  return new QuestService({
    book,
    store: new FileAgentStore({ world: mkdtempSync(join(tmpdir(), "quests-world-")) }),
    storage: questProgressStorage(Identifier.parse("system:ftb_quests")),
    bridge: new MemoryGameBridge(),
    catalog: ItemCatalog.forVersion("1.21.4"),
    languages: Languages.load(BUILTIN_PACK_ROOT),
    now: () => 0,
    gameEvents: { emit: async () => {} },
  });
};

describe("QuestService names and search", () => {
  it("names an untitled quest after what its task asks for, in the player's language; kill counts come from value", () => {
    const service = serviceOver("create-applied-machine");
    const dragon = service.book.quests.get("5452FBDAA29F0087");
    if (dragon === undefined) throw new Error("fixture changed");
    expect(service.title(dragon, "en_us")).toBe("Kill: minecraft:ender_dragon");
    expect(service.title(dragon, "zh_cn")).toBe("击杀：minecraft:ender_dragon");
    expect(dragon.tasks[0]?.count).toBe(1);
  });

  it("finds quests by text in any language of the pack, and numbers the list for `quest <n>`", () => {
    const service = serviceOver("flywheel-new-continent");
    const state = new QuestState(service.book, new Set(), observe(undefined));
    const found = service.find("p", state, "键位", "en_us");
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]?.number).toBe(1);
    expect(service.byReference("p", "1")?.id).toBe(found[0]?.id);
    expect(service.find("p", state, "no such quest anywhere", "en_us")).toEqual([]);
  });
});
