import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  joinPlayer,
  type Player,
  type ShippedServer,
  settled,
  startShipped,
  uuidOf,
} from "./system-support.js";

/**
 * The seed's revoke: revoking a player's System (not one feature) deletes their player file and caches, once the
 * admin confirmed on a card listing what goes; usage records stay; the player's next request starts clean. A
 * revoke of one feature keeps everything. Through the shipped assembly, with mineflayer bots.
 */
describe("revoking a player's System", () => {
  let server: ShippedServer;
  let admin: Player;
  let steve: Player;
  let alex: Player;

  beforeAll(async () => {
    server = await startShipped({ ops: ["Admin"] });
    admin = await joinPlayer(server.port, "Admin");
    steve = await joinPlayer(server.port, "Steve");
    alex = await joinPlayer(server.port, "Alex");
  }, 120_000);

  afterAll(async () => {
    for (const player of [admin, steve, alex]) player?.quit();
    await server?.close();
  });

  const files = (name: string) => {
    const uuid = uuidOf(server.system, name);
    const world = join(server.folder, "world", "system");
    return { player: join(world, "players", `${uuid}.dat`), chat: join(world, "chat", `${uuid}.dat`), uuid };
  };

  it("shows what it deletes, deletes it only once confirmed, keeps usage, and the next request starts clean", async () => {
    await steve.say("/system checkin", (m) => /^Checked in!/.test(m.text));
    await steve.say("/system settings speech on", (m) => m.text.startsWith("Speech is on"));
    await steve.say("/system item minecraft:diamond", (m) => m.text.includes("minecraft:diamond"));
    await settled(server, steve);
    const { player, chat, uuid } = files("Steve");
    const { infrastructure } = server.system.assistant;
    await infrastructure.store.flush();
    expect(existsSync(player)).toBe(true);
    expect(existsSync(chat)).toBe(true);
    const day = new Date().toISOString().slice(0, 10);
    await infrastructure.storage.usage.add({
      playerId: uuid,
      day,
      workflow: "system:question",
      failed: false,
      inputTokens: 10,
      outputTokens: 5,
      latencyMillis: 1,
    });

    // unconfirmed: a card that lists what goes, and nothing changes
    const card = await admin.say("/system revoke Steve", (m) => m.text.includes("Revoke System for Steve?"));
    expect(card.text).toContain("system:check_in/check_in");
    expect(card.text).toMatch(/conversation history: (1 turn|[2-9]\d* turns|1\d+ turns)\b/);
    expect(card.text).not.toContain("(s)");
    expect(card.text).toContain("Kept: usage statistics");
    expect(card.clicks).toHaveLength(1);
    expect(existsSync(player)).toBe(true);
    expect((await infrastructure.conversation.preferences(uuid)).speech).toBe(true);

    // confirmed on the card's button
    const done = await admin.say(card.clicks[0] as string, (m) => /revoked for Steve/.test(m.text));
    expect(done.text).toContain("player file and caches are deleted");
    await expect.poll(() => existsSync(player) || existsSync(chat)).toBe(false);
    expect(await infrastructure.store.readChat(uuid)).toMatchObject({ history: [], replay: {} });
    expect((await infrastructure.store.record(uuid)).moduleData).toEqual({});
    // usage is kept, on its own
    expect(infrastructure.storage.usage.query({ playerId: uuid }).map((record) => record.calls)).toEqual([1]);

    // access again: nothing of before comes back (settings, history), and a paid day is still paid
    await admin.say("/system grant Steve", (m) => /granted to Steve/.test(m.text));
    const again = await steve.say("/system checkin", (m) => /checked in/i.test(m.text));
    expect(again.text).toMatch(/already checked in today/);
    expect((await infrastructure.conversation.preferences(uuid)).speech).not.toBe(true);
    const history = await infrastructure.conversation.history(uuid);
    expect(JSON.stringify(history)).not.toContain("minecraft:diamond");
  });

  it("keeps everything when one feature is revoked", async () => {
    await alex.say("/system checkin", (m) => /^Checked in!/.test(m.text));
    await settled(server, alex);
    const { player, uuid } = files("Alex");
    const before = await server.system.assistant.infrastructure.store.record(uuid);
    await admin.say("/system revoke Alex system:check_in", (m) =>
      /system:check_in revoked for Alex/.test(m.text),
    );
    expect(existsSync(player)).toBe(true);
    expect((await server.system.assistant.infrastructure.store.record(uuid)).moduleData).toEqual(
      before.moduleData,
    );
  });
});
