import { afterAll, describe, expect, it } from "vitest";
import type { GameClock } from "../../src/game/context-types.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import {
  joinPlayer,
  type Player,
  quitAndWait,
  type ShippedServer,
  speak,
  startShipped,
  tempFolder,
  waitFor,
} from "./system-support.js";

const bread = (player: Player): number =>
  player.bot.inventory
    .items()
    .filter((item) => item.name === "bread")
    .reduce((sum, item) => sum + item.count, 0);

const checkInReply = (text: string): boolean => /Checked in|already checked in|已签到|签到成功/.test(text);
const REPEAT_EN = /↻ This repeats the answer given (\d+) s ago: nothing was done, given or paid again\.$/;
const REPEAT_ZH = /↻ 这是 (\d+) 秒前回答的重复：没有再次执行、发放或扣费。$/;

/** A window far longer than the test: no timing is asserted, only that the repeat says it is one. */
const agentConfig = JSON.stringify({ policies: {}, replayWindowSeconds: 3_600 });

/**
 * A check-in repeated within the replay window is answered from the stored answer, and says so: it reads "You
 * have already checked in today" with how long ago the answer was given, and announces no reward as new; in
 * English and Chinese, typed either way, on one server and on the other server of a network.
 */
describe("replayed answers say they are repeats (shipped servers, real bots)", () => {
  const started: ShippedServer[] = [];
  const players: Player[] = [];
  let cluster: PostgresCluster | undefined;
  const clock: GameClock = { now: () => Date.now(), timeZone: "UTC" };

  const enter = async (server: ShippedServer, name: string): Promise<Player> => {
    const player = await joinPlayer(server.port, name);
    players.push(player);
    return player;
  };

  afterAll(async () => {
    for (const player of players) player.quit();
    for (const server of started) await server.close().catch(() => {});
    await cluster?.stop();
  });

  it("on one server: a repeat by command, by its Chinese name and in Chinese says it repeats an answer", async () => {
    const server = await startShipped({
      folder: tempFolder("system-replayed-"),
      files: { "config/system/system-agent.json": agentConfig },
    });
    started.push(server);
    const steve = await enter(server, "Steve");
    const first = await steve.say("/system checkin", (m) => checkInReply(m.text));
    expect(first.text).toMatch(/^Checked in! Streak: 1 day, 1 day in total\./);
    expect(first.text).not.toMatch(REPEAT_EN);
    await waitFor(() => (bread(steve) === 3 ? true : undefined), 20_000);

    const repeated = await steve.say("/system checkin", (m) => checkInReply(m.text));
    expect(repeated.text).toMatch(/^You have already checked in today \(\d{4}-\d{2}-\d{2}\)\. Streak: 1 day/);
    expect(repeated.text).toMatch(REPEAT_EN);
    // no reward announced as new
    expect(repeated.text).not.toMatch(/Checked in!|Bread/);

    // the same request typed by its Chinese name is the same typed action: the same repeat
    const chinese = await steve.say("/system 签到", (m) => checkInReply(m.text));
    expect(chinese.text).toMatch(/^You have already checked in today/);
    expect(chinese.text).toMatch(REPEAT_EN);

    // a Chinese client hears it in Chinese
    await speak(server, steve, "zh_cn");
    const zh = await steve.say("/system 签到", (m) => REPEAT_ZH.test(m.text));
    expect(zh.text).not.toMatch(/面包/);
    expect(bread(steve)).toBe(3);
  }, 180_000);

  it("on a network: the repeat on the other server says it repeats the first server's answer; no bread comes", async () => {
    cluster = await startPostgresCluster();
    const url = await cluster.createDatabase("replayed");
    const files = {
      "config/system/storage.json": JSON.stringify({ backend: "postgres", url, poolSize: 4 }),
      "config/system/system-agent.json": agentConfig,
    };
    const serverA = await startShipped({ files, clock });
    const serverB = await startShipped({ files, clock });
    started.push(serverA, serverB);
    const onA = await enter(serverA, "Alex");
    const first = await onA.say("/system checkin", (m) => checkInReply(m.text));
    expect(first.text).toMatch(/^Checked in!/);
    await waitFor(() => (bread(onA) === 3 ? true : undefined), 20_000);
    await quitAndWait(serverA, onA, "Alex");

    const onB = await enter(serverB, "Alex");
    const repeated = await onB.say("/system checkin", (m) => checkInReply(m.text));
    expect(repeated.text).toMatch(/^You have already checked in today/);
    expect(repeated.text).toMatch(REPEAT_EN);
    expect(repeated.text).not.toMatch(/Checked in!|Bread/);
    // each embedded server has its own world: the bread A gave is on A, and B gives none
    await onB.say("/system balance", (m) => /^Your points: 10\n/.test(m.text));
    expect(bread(onB)).toBe(0);
  }, 240_000);
});
