import { Vec3 } from "vec3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  announceRule,
  joinPlayer,
  positionOf,
  type ShippedServer,
  startShipped,
  waitFor,
} from "./system-support.js";

const vec = (at: { readonly x: number; readonly y: number; readonly z: number }): Vec3 =>
  new Vec3(at.x, at.y, at.z);

/**
 * Dying and travelling on the shipped 1.21 server, as a player does it: the Respawn button brings a dead player
 * back (flying-squid alone left them dead, and its respawn packet did not encode), and `/changeworld` moves an
 * operator into the nether and back, each move reaching the advancement rules as a dimension change; a death in
 * the nether respawns in the overworld.
 */
describe("respawn and dimension changes (shipped server)", () => {
  let server: ShippedServer;

  beforeAll(async () => {
    server = await startShipped({
      ops: ["Admin", "Traveller"],
      files: {
        "config/system/advancements.json": JSON.stringify({
          rules: [
            announceRule("rip", "system:death", {}, "You died. Respawn when you are ready."),
            announceRule(
              "hot",
              "system:dimension_change",
              { dimension: "minecraft:the_nether" },
              "The Nether burns.",
            ),
            announceRule(
              "home",
              "system:dimension_change",
              { dimension: "minecraft:overworld" },
              "Back home.",
            ),
          ],
        }),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("brings a dead player back with full health when they press Respawn", async () => {
    const doomed = await joinPlayer(server.port, "Doomed");
    const admin = await joinPlayer(server.port, "Admin");
    try {
      let died = false;
      doomed.bot.once("death", () => {
        died = true;
      });
      admin.bot.chat("/kill Doomed");
      await doomed.next((m) => m.text === "You died. Respawn when you are ready.");
      await waitFor(() => (died ? true : undefined));
      // mineflayer presses Respawn by itself; pressing it again is harmless (only the dead respawn)
      doomed.bot.respawn();
      await waitFor(() => (doomed.bot.health === 20 ? true : undefined));
      const balance = await doomed.say("/system balance", (m) => m.text.startsWith("Your points"));
      expect(balance.text).toContain("Your points: 0");
      expect(server.system.host.players().map((player) => player.name)).toContain("Doomed");
    } finally {
      doomed.quit();
      admin.quit();
    }
  }, 60_000);

  it("moves an operator into the nether and back, reporting each dimension change; the dead respawn in the overworld", async () => {
    const traveller = await joinPlayer(server.port, "Traveller");
    const admin = await joinPlayer(server.port, "Admin");
    try {
      traveller.bot.chat("/changeworld nether");
      await traveller.next((m) => m.text === "The Nether burns.");
      await waitFor(() => (traveller.bot.game.dimension === "the_nether" ? true : undefined));
      traveller.bot.chat("/changeworld overworld");
      await traveller.next((m) => m.text === "Back home.");
      await waitFor(() => (traveller.bot.game.dimension === "overworld" ? true : undefined));
      expect(traveller.chat.filter((m) => m.text === "The Nether burns.").length).toBe(1);
      // dying in the nether respawns at the overworld's spawn (vanilla), which is a change of world too
      traveller.bot.chat("/changeworld nether");
      await waitFor(() => (traveller.bot.game.dimension === "the_nether" ? true : undefined));
      admin.bot.chat("/kill Traveller");
      await waitFor(() =>
        traveller.bot.game.dimension === "overworld" && traveller.bot.health === 20 ? true : undefined,
      );
      await waitFor(() =>
        traveller.chat.filter((m) => m.text === "Back home.").length === 2 ? true : undefined,
      );
      const events = await admin.say("/system events Traveller", (m) =>
        m.text.startsWith("Recent event tasks"),
      );
      expect(events.text).toContain("hot → system:announce · system:dimension_change · Traveller");
      expect(events.text).toContain("home → system:announce · system:dimension_change · Traveller");
      // a long move seen by others: flying-squid sends them the entity's teleport
      // the move is relative to where the server holds the player: wait until the bot stands there too (a
      // respawned bot may still be falling onto the spawn), then wait for both to have moved
      const before = await waitFor(() => {
        const held = positionOf(server, "Traveller");
        return held !== undefined && traveller.bot.entity.position.distanceTo(vec(held)) < 1
          ? held
          : undefined;
      });
      traveller.bot.chat("/tp ~12 ~ ~12");
      await waitFor(() => {
        const held = positionOf(server, "Traveller");
        return held !== undefined &&
          vec(held).distanceTo(vec(before)) > 8 &&
          traveller.bot.entity.position.distanceTo(vec(before)) > 8
          ? true
          : undefined;
      });
      // the traveller's next command is read after its position: the teleport has been sent to the others
      await traveller.say("/system balance", (m) => m.text.startsWith("Your points"));
      // the others near a mover stay connected (flying-squid's teleport of an entity did not encode on 1.21.2+)
      expect(server.system.host.players().map((player) => player.name)).toEqual(
        expect.arrayContaining(["Traveller", "Admin"]),
      );
      const balance = await admin.say("/system balance", (m) => m.text.startsWith("Your points"));
      expect(balance.text).toContain("Your points: 0");
    } finally {
      traveller.quit();
      admin.quit();
    }
  }, 60_000);
});
