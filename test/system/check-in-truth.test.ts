import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GameClock } from "../../src/game/context-types.js";
import {
  joinPlayer,
  type Player,
  type ShippedServer,
  settled,
  speak,
  startShipped,
  waitFor,
} from "./system-support.js";

const bread = (player: Player): number =>
  player.bot.inventory
    .items()
    .filter((item) => item.name === "bread")
    .reduce((sum, item) => sum + item.count, 0);

const checkInReply = (text: string): boolean => /Checked in|already checked in|签到成功|已经签到/.test(text);

describe("check-in tells the truth (shipped server, real bots)", () => {
  let server: ShippedServer;
  let admin: Player;
  let steve: Player;
  let li: Player;
  /** The server clock, moved by the tests instead of waiting. */
  let offset = 0;
  const clock: GameClock = { now: () => Date.now() + offset, timeZone: "UTC" };

  beforeAll(async () => {
    server = await startShipped({ ops: ["Admin"], clock });
    admin = await joinPlayer(server.port, "Admin");
    steve = await joinPlayer(server.port, "Steve");
    li = await joinPlayer(server.port, "LiLei");
    await speak(server, li, "zh_cn");
  }, 120_000);

  afterAll(async () => {
    for (const player of [admin, steve, li]) player?.quit();
    await server?.close();
  });

  it("pays once a day in en_us and zh_cn; after an admin revoke and reset the same day is refused, unpaid", async () => {
    const first = await steve.say("/system checkin", (m) => checkInReply(m.text));
    expect(first.text).toMatch(/^Checked in! Streak: 1 day, 1 day in total\./);
    await waitFor(() => (bread(steve) === 3 ? true : undefined), 20_000);

    const firstZh = await li.say("/system 签到", (m) => checkInReply(m.text));
    expect(firstZh.text).toMatch(/^签到成功！已连续签到 1 天，累计 1 天。/);
    expect(firstZh.text).toContain("面包");
    await waitFor(() => (bread(li) === 3 ? true : undefined), 20_000);

    await admin.say("/system revoke Steve confirm", (m) => /revoked/i.test(m.text));
    await admin.say("/system reset Steve", (m) => /reset|deleted/i.test(m.text));
    await admin.say("/system revoke LiLei confirm", (m) => /revoked/i.test(m.text));
    await admin.say("/system reset LiLei", (m) => /reset|deleted/i.test(m.text));

    const again = await steve.say("/system checkin", (m) => checkInReply(m.text));
    expect(again.text).toMatch(/^You have already checked in today \(\d{4}-\d{2}-\d{2}\)\./);
    const againZh = await li.say("/system 签到", (m) => checkInReply(m.text));
    expect(againZh.text).toMatch(/^你今天（\d{4}-\d{2}-\d{2}）已经签到过了。/);
    // no second reward arrives
    await settled(server, steve);
    await settled(server, li);
    expect(bread(steve)).toBe(3);
    expect(bread(li)).toBe(3);
  }, 120_000);

  // A repeat within the replay window (system-agent.json replayWindowSeconds, default 30 s) is answered from the
  // replay cache: nothing runs again, and the stored answer reads as a repeat: "already checked in today", marked
  // with how long ago it was given, never the reward again (test/system/replayed-answers covers a network).
  it("answers a second check-in 1.5 s after the first from the stored reply, as a repeat: one run, one reward", async () => {
    const alex = await joinPlayer(server.port, "Alex");
    try {
      // a first request settles the player's standing, so both check-ins carry the same fingerprint
      await alex.say("/system item minecraft:diamond", (m) => m.text.includes("minecraft:diamond"));
      const first = await alex.say("/system checkin", (m) => checkInReply(m.text));
      expect(first.text).toMatch(/^Checked in!/);
      offset += 1_500;
      const second = await alex.say("/system checkin", (m) => checkInReply(m.text) && m !== first);
      expect(second.text).toMatch(
        /^You have already checked in today \(\d{4}-\d{2}-\d{2}\)\. Streak: 1 day\.\n↻ This repeats the answer given 1 s ago/,
      );
      await settled(server, alex);
      expect(bread(alex)).toBe(3);
    } finally {
      alex.quit();
    }
  }, 60_000);
});
