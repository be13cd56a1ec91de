import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadQuestBook } from "../../../data/quests/quest-loader.js";
import { FileAgentStore } from "../../../data/store/file-agent-store.js";
import type { EventSink } from "../../../game/context-types.js";
import { MemoryGameBridge } from "../../../game/tools/memory-game-bridge.js";
import { Identifier } from "../../../util/identifier.js";
import { forwardKills } from "./quest-kill.js";
import { questProgressStorage } from "./quest-progress.js";
import { QuestService } from "./quest-service.js";

const FIXTURE = join(import.meta.dirname, "../../../../test/fixtures/ftbquests/system-tasks");
const OWNER = Identifier.parse("system:ftb_quests");
const STEVE = "5f0c8f04-0000-3000-8000-000000000001";

const setUp = () => {
  const bridge = new MemoryGameBridge();
  const service = new QuestService({
    book: loadQuestBook(FIXTURE).book,
    store: new FileAgentStore({ world: mkdtempSync(join(tmpdir(), "quest-kills-")) }),
    storage: questProgressStorage(OWNER),
    bridge,
    catalog: undefined,
    now: () => 1,
    gameEvents: { emit: async () => {} },
  });
  return { bridge, service };
};

describe("quest kill tasks", () => {
  it("queue one durable event per killed entity of a hunted type, and none for other types", async () => {
    const { bridge, service } = setUp();
    const submitted: { id: string; eventType: string; playerId: string }[] = [];
    const events: EventSink = {
      submit: async (event) => {
        submitted.push({ id: event.id, eventType: event.eventType, playerId: event.playerId });
        return { accepted: true, duplicate: false } as never;
      },
    };
    const stop = forwardKills({
      owner: OWNER,
      service,
      events,
      onKill: (l) => bridge.onKill(l),
      failed: () => {},
    });
    bridge.kill("steve", "minecraft:zombie", "z-1");
    bridge.kill("steve", "minecraft:cow", "c-1");
    stop();
    bridge.kill("steve", "minecraft:zombie", "z-2");
    expect(submitted).toEqual([
      { id: "system:ftb_quests/kill/steve/z-1", eventType: "system:quest_kill", playerId: "steve" },
    ]);
  });

  it("count a kill once per entity and complete the task at its amount", async () => {
    const { bridge, service } = setUp();
    bridge.join(STEVE, "Steve");
    const quest = service.book.quests.get("2100000000000004");
    if (quest === undefined) throw new Error("fixture changed");
    expect((await service.state(STEVE)).task(quest.tasks[0] as never).status).toBe("open");
    expect(await service.recordKill(STEVE, "minecraft:cow", "c-1")).toBe(0);
    expect(await service.recordKill(STEVE, "minecraft:zombie", "z-1")).toBe(1);
    expect(await service.recordKill(STEVE, "minecraft:zombie", "z-1")).toBe(0);
    const state = await service.state(STEVE);
    expect(state.status(quest)).toBe("complete");
    // a completed task counts no further kills
    expect(await service.recordKill(STEVE, "minecraft:zombie", "z-2")).toBe(0);
  });
});
