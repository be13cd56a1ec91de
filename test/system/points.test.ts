import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GameClock } from "../../src/game/context-types.js";
import { joinPlayer, type Player, type ShippedServer, speak, startShipped } from "./system-support.js";

const balanceReply = (text: string): boolean => /^Your points|^你的积分/.test(text);
const pointsReply = (text: string): boolean => /points|积分/.test(text) && !text.includes("joined");

/**
 * Points on the shipped server: check-in earns them, `/system balance` shows them, an admin gives and takes
 * them (never below zero), a player cannot; real bots in en_us and zh_cn.
 */
describe("points (shipped server, real bots)", () => {
  let server: ShippedServer;
  let admin: Player;
  let steve: Player;
  let li: Player;
  /** Identical lines from one player within 3 s share one answer: a repeat moves the server clock past that. */
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

  it("earns the check-in's points, and an admin gives and takes them; a take never goes below zero", async () => {
    const empty = await steve.say("/system balance", (m) => balanceReply(m.text));
    // the card offers how to earn points as a button
    expect(empty.text).toBe("Your points: 0\nNo changes yet.\n[How to earn points]");
    await steve.say("/system checkin", (m) => /Checked in/.test(m.text));
    const earned = await steve.say("/system 余额", (m) => balanceReply(m.text));
    expect(earned.text).toMatch(
      /^Your points: 10\nLatest changes:\n\+10 · daily check-in · \d{4}-\d{2}-\d{2}\n\[How to earn points\]$/,
    );

    const given = await admin.say("/system points give Steve 50", (m) => pointsReply(m.text));
    expect(given.text).toBe("Gave 50 points to Steve. Their balance: 60.");
    expect((await steve.say("/system 积分", (m) => balanceReply(m.text))).text).toMatch(
      /^Your points: 60\nLatest changes:\n\+50 · admin Admin · /,
    );

    const refused = await admin.say("/system points take Steve 100", (m) => pointsReply(m.text));
    expect(refused.text).toBe(
      "Cannot take 100 points from Steve: their balance is only 60. Nothing was taken.",
    );
    offset += 3_100;
    const after = await steve.say("/system balance", (m) => balanceReply(m.text));
    expect(after.text).toMatch(/^Your points: 60\n/);
  });

  it("does not let a player without the operator level give points", async () => {
    const refused = await steve.say("/system points give Steve 1000", (m) =>
      /Unknown command|Gave/.test(m.text),
    );
    expect(refused.text).toBe("⚠ Unknown command: points");
    offset += 3_100;
    const after = await steve.say("/system 余额", (m) => balanceReply(m.text));
    expect(after.text).toMatch(/^Your points: 60\n/);
  });

  it("shows the balance card in zh_cn", async () => {
    await li.say("/system 签到", (m) => /签到成功/.test(m.text));
    const card = await li.say("/system 积分", (m) => balanceReply(m.text));
    expect(card.text).toMatch(
      /^你的积分：10\n最近的变动：\n\+10 · 每日签到 · \d{4}-\d{2}-\d{2}\n\[怎么赚积分\]$/,
    );
    const given = await admin.say("/system points give LiLei 5", (m) => pointsReply(m.text));
    expect(given.text).toBe("Gave 5 points to LiLei. Their balance: 15.");
    const after = await li.say("/system 余额", (m) => balanceReply(m.text));
    expect(after.text).toMatch(/^你的积分：15\n最近的变动：\n\+5 · 管理员 Admin · /);
  });
});
