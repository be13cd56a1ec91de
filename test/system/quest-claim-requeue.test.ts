import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModuleData } from "../../src/agent/storage/player-data.js";
import { questProgressStorage } from "../../src/module/builtin/quests/quest-progress.js";
import { Identifier } from "../../src/util/identifier.js";
import {
  held,
  joinPlayer,
  type ShippedServer,
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
    nia.quit();
    await waitFor(() =>
      server.system.host.players().some((player) => player.name === "Nia") ? undefined : true,
    );
    nia = await joinPlayer(server.port, "Nia");
    await nia.next((m) => DELIVERED.test(m.text));
    await waitFor(() => (held(nia, "bread") === 3 ? true : undefined));
    expect(nia.bot.experience.level).toBe(2);
    nia.quit();
    await waitFor(() =>
      server.system.host.players().some((player) => player.name === "Nia") ? undefined : true,
    );
    nia = await joinPlayer(server.port, "Nia");
    try {
      const card = await nia.say("/system quest welcome gift", (m) => m.text.startsWith("Welcome Gift"));
      expect(card.text).toContain("Rewards claimed.");
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(nia.chat.filter((m) => DELIVERED.test(m.text)).length).toBe(0);
      expect(held(nia, "bread")).toBe(3);
    } finally {
      nia.quit();
    }
  }, 60_000);
});
