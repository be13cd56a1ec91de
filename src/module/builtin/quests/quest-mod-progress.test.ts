import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentException } from "../../../agent/agent-exception.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { BUILTIN_PACK_ROOT } from "../../../data/prompts/prompt-store.js";
import { loadQuestBook } from "../../../data/quests/quest-loader.js";
import type { PlayerQuestProgress } from "../../../data/quests/team-progress.js";
import { FileAgentStore } from "../../../data/store/file-agent-store.js";
import { ItemCatalog } from "../../../game/data/item-catalog.js";
import { MemoryGameBridge } from "../../../game/tools/memory-game-bridge.js";
import { Identifier } from "../../../util/identifier.js";
import { Languages } from "../../../util/language.js";
import { QuestClaimModule } from "./quest-claim.js";
import { questProgressStorage } from "./quest-progress.js";
import { QuestService } from "./quest-service.js";

const FIXTURES = join(import.meta.dirname, "../../../../test/fixtures/ftbquests");
const PLAYER = "5627dd98-e6be-3c21-b8a8-e92344183641";
const TIMBER = "2000000000000001";
const LOGS = "3000000000000001";

/** The system-basics book over the mod's progress of one player (whatever `progress` holds now). */
const modService = (progress: { current: PlayerQuestProgress | undefined }) => {
  const { book } = loadQuestBook(join(FIXTURES, "system-basics"));
  const bridge = new MemoryGameBridge();
  const store = new FileAgentStore({ world: mkdtempSync(join(tmpdir(), "quests-mod-")) });
  const storage = questProgressStorage(Identifier.parse("system:ftb_quests"));
  const service = new QuestService({
    book,
    store,
    storage,
    bridge,
    catalog: ItemCatalog.forVersion("1.21.4"),
    languages: Languages.load(BUILTIN_PACK_ROOT),
    now: () => 0,
    gameEvents: { emit: async () => {} },
    modProgress: { of: (playerId) => (playerId === PLAYER ? progress.current : undefined) },
  });
  return { service, bridge, store, storage };
};

const progressOf = (tasks: [string, number][], completed: string[], claimed: string[] = []) => ({
  playerId: PLAYER,
  team: PLAYER,
  tasks: new Map(tasks),
  completed: new Map(completed.map((id) => [id, 1745000000000])),
  claimedRewards: new Map(claimed.map((id) => [id, 1745000100000])),
});

describe("QuestService while the FTB Quests mod keeps progress", () => {
  it("shows the mod's progress, not what the game shows, and records nothing of its own", async () => {
    const progress = { current: progressOf([[LOGS, 2]], []) as PlayerQuestProgress | undefined };
    const { service, bridge } = modService(progress);
    expect(service.keeper).toBe("mod");
    // the player holds the logs, but only the mod completes tasks: open at the mod's 2/4
    bridge.join(PLAYER, "Steve");
    await bridge.giveItem(PLAYER, "minecraft:oak_log", 64);
    const quest = service.book.quests.get(TIMBER)!;
    let state = await service.state(PLAYER);
    expect(state.task(quest.tasks[0]!)).toMatchObject({ status: "open", have: 2, need: 4 });
    expect(await service.record(PLAYER)).toEqual({ tasks: 0, completed: [] });
    expect(await service.check(PLAYER, "3000000000000002")).toBe("refused");
    expect(await service.complete(PLAYER, TIMBER)).toBeUndefined();
    // the mod saved: the quest is complete, its reward not claimed yet, then claimed in the book
    progress.current = progressOf([[LOGS, 4]], [LOGS, TIMBER]);
    state = await service.state(PLAYER);
    expect(state.status(quest)).toBe("complete");
    expect(await service.claimed(PLAYER, TIMBER)).toBe(false);
    progress.current = progressOf([[LOGS, 4]], [LOGS, TIMBER], ["4000000000000001"]);
    expect(await service.claimed(PLAYER, TIMBER)).toBe(true);
  });

  it("a player the mod has no progress of sees every task open", async () => {
    const { service } = modService({ current: undefined });
    const state = await service.state(PLAYER);
    const quest = service.book.quests.get(TIMBER)!;
    expect(state.status(quest)).toBe("available");
    expect(state.task(quest.tasks[0]!)).toMatchObject({ status: "open", have: 0 });
  });

  it("refuses a claim (the mod delivers its rewards) before reading or writing anything", async () => {
    const progress = { current: progressOf([[LOGS, 4]], [LOGS, TIMBER]) as PlayerQuestProgress | undefined };
    const { service, store, storage } = modService(progress);
    const submitted: unknown[] = [];
    const claims = new QuestClaimModule({
      owner: Identifier.parse("system:ftb_quests"),
      service,
      store,
      storage,
      events: {
        submit: async (event: unknown) => {
          submitted.push(event);
          return { accepted: true, duplicate: false } as never;
        },
      } as never,
      random: Math.random,
    });
    const context = { playerId: PLAYER, locale: "en_us" } as unknown as ExecutionContext;
    const refused = await claims.run({ quest: TIMBER }, context).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AgentException);
    expect((refused as AgentException).failure().key).toBe("system.quests.in_book");
    expect(submitted).toEqual([]);
  });
});
