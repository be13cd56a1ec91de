import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GameClock } from "../../src/game/context-types.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import { joinPlayer, type Player, quitAndWait, type ShippedServer, startShipped } from "./system-support.js";

const balanceReply = (text: string): boolean => /^Your points/.test(text);

/**
 * Two shipped servers of one network (startSystem, each with its own data folder and embedded world) whose
 * storage.json names the same PostgreSQL database: a player's points and check-in follow them from one to the
 * other, and what an admin gives on one is seen on the other.
 */
describe("a network of two servers sharing PostgreSQL (shipped servers, real bots)", () => {
  let cluster: PostgresCluster;
  let serverA: ShippedServer;
  let serverB: ShippedServer;
  const players: Player[] = [];
  const clock: GameClock = { now: () => Date.now(), timeZone: "UTC" };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await cluster.createDatabase("network");
    const files = {
      "config/system/storage.json": JSON.stringify({ backend: "postgres", url, poolSize: 4 }),
      // the chat cache follows the player too: without this, the repeat on B within 30 s is answered with A's
      // stored reply (request replay); what is checked here is the check-in day itself
      "config/system/system-agent.json": JSON.stringify({ policies: {}, replayWindowSeconds: 0 }),
    };
    serverA = await startShipped({ files, clock });
    serverB = await startShipped({ files, clock, ops: ["Admin"] });
  }, 180_000);

  afterAll(async () => {
    for (const player of players) player.quit();
    await serverA?.close();
    await serverB?.close();
    await cluster?.stop();
  });

  const join = async (server: ShippedServer, name: string): Promise<Player> => {
    const player = await joinPlayer(server.port, name);
    players.push(player);
    return player;
  };

  it("a check-in on A is the balance and the day's check-in on B; an admin's points on B show on A", async () => {
    const onA = await join(serverA, "Steve");
    await onA.say("/system checkin", (m) => /Checked in/.test(m.text));
    expect((await onA.say("/system balance", (m) => balanceReply(m.text))).text).toMatch(
      /^Your points: 10\n/,
    );
    await quitAndWait(serverA, onA, "Steve");

    const onB = await join(serverB, "Steve");
    const balance = await onB.say("/system balance", (m) => balanceReply(m.text));
    expect(balance.text).toMatch(/^Your points: 10\nLatest changes:\n\+10 · daily check-in · /);
    const again = await onB.say("/system checkin", (m) => /checked in/i.test(m.text));
    expect(again.text).toMatch(/^You have already checked in today \(\d{4}-\d{2}-\d{2}\)\. Streak: 1 day/);
    expect((await onB.say("/system 余额", (m) => balanceReply(m.text))).text).toMatch(/^Your points: 10\n/);

    const admin = await join(serverB, "Admin");
    const given = await admin.say("/system points give Steve 50", (m) => /Gave|points/.test(m.text));
    expect(given.text).toBe("Gave 50 points to Steve. Their balance: 60.");
    await quitAndWait(serverB, onB, "Steve");

    const back = await join(serverA, "Steve");
    const after = await back.say("/system balance", (m) => balanceReply(m.text));
    expect(after.text).toMatch(/^Your points: 60\nLatest changes:\n\+50 · admin Admin · /);
  });
});
