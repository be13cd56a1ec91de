import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModuleData } from "../../src/agent/storage/player-data.js";
import { DEFAULT_ADVANCEMENTS } from "../../src/assistant/advancement-rules.js";
import { questProgressStorage } from "../../src/module/builtin/quests/quest-progress.js";
import { Identifier } from "../../src/util/identifier.js";
import {
  held,
  joinPlayer,
  quitAndWait,
  type ShippedServer,
  settled,
  startShipped,
  uuidOf,
  waitFor,
  welcomeGiftQuestFiles,
} from "./system-support.js";

const DELIVERED = /^Rewards of Welcome Gift delivered/;

/**
 * The crash window between recording a quest claim and queueing its durable delivery, on the shipped server: the
 * player's file holds a PENDING claim and the journal no delivery (exactly what a SIGKILL there leaves). The next
 * join queues it (its event id is fixed per attempt), so the rewards arrive once; later joins give nothing more.
 */
describe("a quest claim whose delivery was never queued (shipped server)", () => {
  let server: ShippedServer;

  beforeAll(async () => {
    server = await startShipped({ files: welcomeGiftQuestFiles() });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("queues it at the next join and delivers it once", async () => {
    let nia = await joinPlayer(server.port, "Nia");
    const uuid = uuidOf(server.system, "Nia");
    const storage = questProgressStorage(Identifier.parse("system:ftb_quests"));
    const recorded = await server.system.assistant.infrastructure.store.transaction(uuid, (data) =>
      ModuleData.get(data, storage).startClaim(
        "6000000000000001",
        ["7000000000000001", "7000000000000002"],
        { items: [{ item: "minecraft:bread", count: 3 }], experience: { points: 0, levels: 2 } },
        Date.now(),
      ),
    );
    expect(recorded).toBe(true);
    await quitAndWait(server, nia, "Nia");
    nia = await joinPlayer(server.port, "Nia");
    await nia.next((m) => DELIVERED.test(m.text));
    await waitFor(() => (held(nia, "bread") === 3 ? true : undefined));
    expect(nia.bot.experience.level).toBe(2);
    await quitAndWait(server, nia, "Nia");
    nia = await joinPlayer(server.port, "Nia");
    try {
      const card = await nia.say("/system quest welcome gift", (m) => m.text.startsWith("Welcome Gift"));
      expect(card.text).toContain("Rewards claimed.");
      await settled(server, nia);
      expect(nia.chat.filter((m) => DELIVERED.test(m.text)).length).toBe(0);
      expect(held(nia, "bread")).toBe(3);
    } finally {
      nia.quit();
    }
  }, 60_000);
});

const ANNOUNCED = /^★ (Quest|Chapter) completed: /;

/**
 * The crash window between announcing a quest's completion and reporting it as a game event: the player's file
 * records Welcome Gift announced and nothing was queued for the narration rules. The next join reports it (its
 * event ids are fixed per player and quest or chapter), so the quest and the chapter are narrated once; a later
 * quest list and rejoin announce nothing more.
 */
describe("a quest completion whose game event was never reported (shipped server)", () => {
  let server: ShippedServer;

  beforeAll(async () => {
    server = await startShipped({
      files: {
        ...welcomeGiftQuestFiles(),
        "config/system/advancements.json": JSON.stringify({
          // the default narration rules, without the welcome kit and streak bonus
          rules: DEFAULT_ADVANCEMENTS.rules.filter((rule) =>
            (rule as { id: string }).id.endsWith("_narration"),
          ),
        }),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("reports it at the next join, once", async () => {
    let nia = await joinPlayer(server.port, "Nia");
    const uuid = uuidOf(server.system, "Nia");
    const storage = questProgressStorage(Identifier.parse("system:ftb_quests"));
    const announced = await server.system.assistant.infrastructure.store.transaction(uuid, (data) =>
      ModuleData.get(data, storage).announce("6000000000000001", Date.now()),
    );
    expect(announced).toBe(true);
    await quitAndWait(server, nia, "Nia");
    nia = await joinPlayer(server.port, "Nia");
    await nia.next((m) => m.text === "★ Quest completed: Welcome Gift");
    await nia.next((m) => m.text === "★ Chapter completed: Welcome");
    const card = await nia.say("/system quest welcome gift", (m) => m.text.startsWith("Welcome Gift"));
    expect(card.text).not.toContain("★");
    await quitAndWait(server, nia, "Nia");
    nia = await joinPlayer(server.port, "Nia");
    try {
      await nia.say("/system quest welcome gift", (m) => m.text.startsWith("Welcome Gift"));
      await settled(server, nia);
      expect(nia.chat.filter((m) => ANNOUNCED.test(m.text)).length).toBe(0);
    } finally {
      nia.quit();
    }
  }, 60_000);
});
