import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  joinPlayer,
  type Player,
  type ShippedServer,
  startShipped,
  tempFolder,
  waitFor,
} from "./system-support.js";

const bread = (player: Player): number =>
  player.bot.inventory
    .items()
    .filter((item) => item.name === "bread")
    .reduce((sum, item) => sum + item.count, 0);

const checkInReply = (text: string): boolean => /Checked in|already checked in/.test(text);

/** `system-agent.json` with a replay window; an hour is far longer than the test, so no timing is asserted. */
const agentConfig = (replayWindowSeconds: number): string =>
  JSON.stringify({ policies: {}, replayWindowSeconds });

describe("request replay cache (shipped server, real bots)", () => {
  const folder = tempFolder("system-replay-");
  const started: ShippedServer[] = [];
  const players: Player[] = [];

  const start = async (): Promise<ShippedServer> => {
    const server = await startShipped({
      folder,
      ops: ["Admin"],
      files: { "config/system/system-agent.json": agentConfig(3_600) },
    });
    started.push(server);
    return server;
  };
  const enter = async (server: ShippedServer, name: string): Promise<Player> => {
    const player = await joinPlayer(server.port, name);
    players.push(player);
    return player;
  };

  afterAll(async () => {
    for (const player of players) player.quit();
    for (const server of started) await server.close().catch(() => {});
  });

  it("answers a repeated /system checkin with the stored reply, before and after a restart, running it once", async () => {
    const first = await start();
    const steve = await enter(first, "Steve");
    const checkedIn = await steve.say("/system checkin", (m) => checkInReply(m.text));
    expect(checkedIn.text).toMatch(/^Checked in! Streak: 1 day, 1 day in total\./);
    await waitFor(() => (bread(steve) === 3 ? true : undefined), 20_000);

    // the stored answer comes back, as a repeat: "already checked in today", never the reward again
    const repeated = await steve.say("/system checkin", (m) => checkInReply(m.text));
    expect(repeated.text).toMatch(
      /^You have already checked in today .*\n↻ This repeats the answer given \d+ s ago/s,
    );

    steve.quit();
    await first.close();

    // the chat file keeps the entry across a restart
    const second = await start();
    const back = await enter(second, "Steve");
    const afterRestart = await back.say("/system checkin", (m) => checkInReply(m.text));
    expect(afterRestart.text).toBe(
      repeated.text.replace(/given \d+ s/, afterRestart.text.match(/given \d+ s/)?.[0] ?? ""),
    );

    // with the cache turned off the same line really runs, and the workflow tells the truth
    writeFileSync(join(folder, "config", "system", "system-agent.json"), agentConfig(0));
    const admin = await enter(second, "Admin");
    await admin.say("/system reload", (m) => /Reloaded/.test(m.text));
    const ran = await back.say("/system checkin", (m) => checkInReply(m.text));
    expect(ran.text).toMatch(/^You have already checked in today/);
    expect(ran.text).not.toMatch(/repeats the answer/);
    // one reward in all: neither replay ran the workflow
    expect(bread(back)).toBe(3);
  }, 180_000);
});
