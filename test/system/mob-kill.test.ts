import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADVANCEMENTS } from "../../src/assistant/advancement-rules.js";
import {
  advancementRule,
  joinPlayer,
  questFolderFiles,
  type ShippedServer,
  settled,
  startShipped,
  waitFor,
} from "./system-support.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/ftbquests/system-tasks");

/**
 * A real kill on the shipped 1.21 server: an operator summons a zombie (flying-squid's own `/summon` made
 * nothing on 1.19+ registries), a player hits it until it dies, and the host's kill report reaches both an
 * advancement rule (a bounty) and the quest book's kill task (Zombie Hunter, narrated by the default rule).
 */
describe("summoning and killing a mob (shipped server)", () => {
  let server: ShippedServer;

  beforeAll(async () => {
    server = await startShipped({
      ops: ["Hunter"],
      files: {
        ...questFolderFiles(FIXTURE),
        "config/system/advancements.json": JSON.stringify({
          rules: [
            advancementRule("bounty", "system:kill", { entity: "minecraft:zombie" }, "system:points_bonus", {
              points: 3,
            }),
            ...DEFAULT_ADVANCEMENTS.rules.filter((rule) => (rule as { id: string }).id === "quest_narration"),
          ],
        }),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("counts the zombie a player killed for the bounty rule and the quest's kill task, once", async () => {
    const hunter = await joinPlayer(server.port, "Hunter");
    const guest = await joinPlayer(server.port, "Guest");
    try {
      const refused = await guest.say("/summon zombie", (m) => /permission/i.test(m.text));
      expect(refused.text).toBe("You do not have permission to use this command");
      const boat = await hunter.say("/summon acacia_boat", (m) => m.text.startsWith("No mob"));
      expect(boat.text).toBe("No mob named acacia_boat");
      await hunter.say("/summon minecraft:zombie", (m) => m.text === "Summoned zombie");
      const zombie = await waitFor(() =>
        Object.values(hunter.bot.entities).find((entity) => entity.name === "zombie"),
      );
      // 20 health, 1 damage a hit; hits after its death change nothing
      for (let hit = 0; hit < 22; hit++) {
        hunter.bot.attack(zombie);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await hunter.next((m) => m.text.startsWith("+3 bonus points!"));
      await hunter.next((m) => m.text === "★ Quest completed: Zombie Hunter");
      await waitFor(() => (hunter.bot.entities[zombie.id] === undefined ? true : undefined));
      const balance = await hunter.say("/system balance", (m) => m.text.startsWith("Your points"));
      expect(balance.text).toContain("Your points: 3");
      await settled(server, hunter);
      expect(hunter.chat.filter((m) => m.text.startsWith("+3 bonus points!")).length).toBe(1);
    } finally {
      hunter.quit();
      guest.quit();
    }
  }, 90_000);
});
