import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import { enter, held, kill, running, type Server, startServer } from "./crash-support.js";
import {
  joinPlayer,
  type Player,
  quitAndWait,
  type ShippedServer,
  startShipped,
  tempFolder,
  waitFor,
} from "./system-support.js";

/** How long a server's claims last without renewal here (storage.json `leaseMillis`; 30 s by default). */
const LEASE_MILLIS = 2_000;

/** Polls an async check (database rows) until it gives a value. */
const until = async <T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMillis = 30_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMillis} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/**
 * Server A of a network is a real process (`node <bundle> --port 0 --data-dir …`, as `npm start` runs it) and
 * is SIGKILLed while it runs a player's shop purchase under its claim of the run (held at the charge by a row
 * lock the test takes). The player goes to server B (shipped, in this process) at once: B finds the run claimed,
 * leaves it, and completes it once A's claim expired, without another join; the order is charged once and the
 * items given once. A started again does not run it again.
 */
describe("a network server killed mid-run (SIGKILL of a real process, PostgreSQL)", () => {
  let cluster: PostgresCluster;
  let database: pg.Pool;
  let folderA: string;
  let a: Server | undefined;
  let b: ShippedServer;
  const bots: Player[] = [];

  const storage = (server: string) =>
    JSON.stringify({
      backend: "postgres",
      url: cluster.url("network"),
      poolSize: 4,
      server,
      leaseMillis: LEASE_MILLIS,
    });

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    await cluster.createDatabase("network");
    folderA = tempFolder("system-network-kill-a-");
    mkdirSync(join(folderA, "config", "system"), { recursive: true });
    writeFileSync(join(folderA, "config", "system", "storage.json"), storage("a"));
    writeFileSync(
      join(folderA, "config", "system", "server.json"),
      JSON.stringify({ generation: "superflat", ops: ["Admin"], viewDistance: 2 }),
    );
    a = await startServer(folderA);
    b = await startShipped({ files: { "config/system/storage.json": storage("b") } });
    database = new pg.Pool({ connectionString: cluster.url("network"), max: 3 });
    database.on("error", () => {});
  }, 180_000);

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    if (a !== undefined && running.has(a.child)) await kill(a);
    await b?.close();
    await database?.end();
    await cluster?.stop();
  });

  it("completes the run once on B after A's claim expired; A restarted does not run it again", async () => {
    const serverA = a as Server;
    const steveId = offlineUuid("Steve");
    const admin = await enter(serverA.port, "Admin");
    const steve = await enter(serverA.port, "Steve");
    bots.push(admin, steve);
    await admin.say("/system points give Steve 20", (m) => /^Gave 20 points/.test(m.text));

    // the charge of the purchase will wait on the player's balance row, which the test holds
    const blocker = await database.connect();
    await blocker.query("BEGIN");
    await blocker.query("SELECT balance FROM system_points_balance WHERE player_id = $1 FOR UPDATE", [
      steveId,
    ]);
    const quote = await steve.say("/system buy torch 1", (m) => m.text.startsWith("Quote"));
    const placed = await steve.say(quote.clicks[0] as string, (m) =>
      /^Order [0-9a-f]{8} confirmed/.test(m.text),
    );
    const order = /^Order ([0-9a-f]{8})/.exec(placed.text)?.[1] as string;
    const runKey = await until(async () => {
      const { rows } = await database.query<{ key: string }>(
        "SELECT key FROM system_lease WHERE starts_with(key, $1) AND owner = 'a' AND expires_at > clock_timestamp()",
        [`run:event:shop/${order}`],
      );
      return rows[0]?.key;
    }, "A's claim of the purchase run");
    await until(async () => {
      const { rows } = await database.query<{ waiting: number }>(
        "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%system_points_entry%'",
      );
      return (rows[0]?.waiting ?? 0) > 0 ? true : undefined;
    }, "A's charge waiting on the balance row");

    // A dies mid-run, holding the claim; the player reconnects through the proxy and lands on B at once
    await kill(serverA);
    await blocker.query("ROLLBACK");
    blocker.release();
    // as if A had renewed its claim just before: still held when the player's join on B offers the task
    const renewed =
      "UPDATE system_lease SET expires_at = clock_timestamp() + $2 * interval '1 millisecond' WHERE key = $1";
    await database.query(renewed, [runKey, 60_000]);
    const onB = await joinPlayer(b.port, "Steve");
    bots.push(onB);
    await waitFor(() =>
      b.logger.has(`${runKey.slice(4)} is run by another server; left to it`) ? true : undefined,
    );
    // that renewal runs out; B takes the run over by itself (no other join)
    await database.query(renewed, [runKey, LEASE_MILLIS]);
    const delivered = await onB.next(
      (m) => new RegExp(`^Order ${order} delivered: Torch × 4`).test(m.text),
      30_000,
    );
    expect(delivered.text).toContain("for 3 points");
    await waitFor(() => (held(onB, "torch") === 4 ? true : undefined));
    const task = await until(async () => {
      const { rows } = await database.query<{ state: string }>(
        "SELECT state FROM system_journal_event WHERE id LIKE $1",
        [`shop/${order}%`],
      );
      return rows[0]?.state === "SUCCEEDED" ? rows[0] : undefined;
    }, "the purchase task SUCCEEDED");
    expect(task.state).toBe("SUCCEEDED");
    // B took the claim over with the next epoch, after it expired
    const lease = await database.query("SELECT owner, epoch FROM system_lease WHERE key = $1", [runKey]);
    expect(lease.rows).toEqual([{ owner: "b", epoch: "2" }]);

    const ledger = async () =>
      (
        await database.query<{ balance: string; total: string; charges: number; gives: number }>(
          `SELECT (SELECT balance FROM system_points_balance WHERE player_id = $1) AS balance,
             (SELECT sum(amount) FROM system_points_entry WHERE player_id = $1) AS total,
             (SELECT count(*)::int FROM system_points_entry WHERE player_id = $1 AND entry_id LIKE 'order:%') AS charges,
             (SELECT count(*)::int FROM system_journal_step WHERE key LIKE $2 AND state = 'DONE') AS gives`,
          [steveId, `event:shop/${order}%/give`],
        )
      ).rows[0];
    expect(await ledger()).toEqual({ balance: "17", total: "17", charges: 1, gives: 1 });

    // A starts again on its data folder: the run is over; nothing is charged or given again there
    a = await startServer(folderA);
    await quitAndWait(b, onB, "Steve");
    const back = await enter(a.port, "Steve");
    bots.push(back);
    const balance = await back.say("/system balance", (m) => /^Your points/.test(m.text));
    expect(balance.text).toMatch(/^Your points: 17\n/);
    expect(held(back, "torch")).toBe(0);
    expect(await ledger()).toEqual({ balance: "17", total: "17", charges: 1, gives: 1 });
    expect(
      (await database.query("SELECT owner, epoch FROM system_lease WHERE key = $1", [runKey])).rows,
    ).toEqual([{ owner: "b", epoch: "2" }]);
  }, 180_000);
});
