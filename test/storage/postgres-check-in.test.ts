import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COORDINATION_MIGRATIONS } from "../../src/data/network/coordination-migrations.js";
import { NETWORK_STATE_MIGRATIONS } from "../../src/data/network/network-migrations.js";
import { migrate } from "../../src/data/network/postgres-migrations.js";
import { PostgresPlayerState } from "../../src/data/network/postgres-points.js";
import type { CheckInRequest } from "../../src/data/player-state/check-in-claims.js";
import { silentLogger } from "../../src/util/logger.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import { openBackend } from "./network-backends.js";

const BREAD = { item: "minecraft:bread", count: 3 };
const DIAMOND = { item: "minecraft:diamond", count: 1 };

/**
 * A whole check-in as one statement on PostgreSQL: the streak, total and reward follow from the latest earlier
 * day in the database, and the day, its points and its outbox effect are written together.
 */
describe("check-in in one statement (PostgreSQL)", () => {
  let cluster: PostgresCluster;
  let pool: pg.Pool;
  let state: PostgresPlayerState;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase("check_in"), max: 4 });
    await migrate(pool, [...NETWORK_STATE_MIGRATIONS, ...COORDINATION_MIGRATIONS], silentLogger);
    state = new PostgresPlayerState(pool);
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  const request = (playerId: string, day: string, yesterday: string): CheckInRequest => ({
    playerId,
    day,
    yesterday,
    rewards: { items: [BREAD], bonus: { every: 2, items: [DIAMOND] } },
    points: 10,
    at: Date.UTC(2026, 4, 1),
  });
  const effects = async (playerId: string) =>
    (
      await pool.query<{ idem_key: string; payload: { items: unknown[] } }>(
        "SELECT idem_key, payload FROM system_outbox WHERE player_id = $1 ORDER BY id",
        [playerId],
      )
    ).rows.map((row) => [row.idem_key, row.payload.items]);

  it("stores and queues the reward the streak makes: the bonus on every 2nd day, none after a gap", async () => {
    expect(await state.checkIn(request("steve", "2026-05-01", "2026-04-30"))).toEqual({
      claimed: true,
      day: { day: "2026-05-01", streak: 1, total: 1, items: [BREAD] },
    });
    expect(await state.checkIn(request("steve", "2026-05-02", "2026-05-01"))).toEqual({
      claimed: true,
      day: { day: "2026-05-02", streak: 2, total: 2, items: [BREAD, DIAMOND] },
    });
    // the day again: not claimed, the day as it was
    expect(await state.checkIn(request("steve", "2026-05-02", "2026-05-01"))).toEqual({
      claimed: false,
      day: { day: "2026-05-02", streak: 2, total: 2, items: [BREAD, DIAMOND] },
    });
    expect(await state.checkIn(request("steve", "2026-05-04", "2026-05-03"))).toMatchObject({
      claimed: true,
      day: { streak: 1, total: 3, items: [BREAD] },
    });
    expect(await effects("steve")).toEqual([
      ["check_in:steve:2026-05-01", [BREAD]],
      ["check_in:steve:2026-05-02", [BREAD, DIAMOND]],
      ["check_in:steve:2026-05-04", [BREAD]],
    ]);
    expect(await state.balance("steve")).toBe(30);
  });

  it("a claim another server commits while this one waits on it: this one reads that day, pays nothing", async () => {
    const other = await pool.connect();
    try {
      await other.query("BEGIN");
      await other.query(
        `INSERT INTO system_check_in (player_id, day, streak, total, items, at)
         VALUES ('alex', '2026-05-01', 1, 1, '[]', 0)`,
      );
      const waiting = state.checkIn(request("alex", "2026-05-01", "2026-04-30"));
      // the statement waits on the uncommitted row (ON CONFLICT), its snapshot taken before the commit
      for (;;) {
        const { rows } = await pool.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%previous AS%'",
        );
        if (rows[0]?.n === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await other.query("COMMIT");
      expect(await waiting).toEqual({
        claimed: false,
        day: { day: "2026-05-01", streak: 1, total: 1, items: [] },
      });
    } finally {
      other.release();
    }
    expect(await effects("alex")).toEqual([]);
    expect(await state.balance("alex")).toBe(0);
  });
});

/**
 * The database is the truth: a check-in whose claim queued its reward in the outbox writes no player record (no
 * copy of the streak on the request's path), on the server that claimed it or on another.
 */
describe("check-in of a day claimed on another server", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it("claims and answers 'already' from the shared day without a write of a player record", async () => {
    const url = await cluster.createDatabase("check_in_elsewhere");
    const [a, b] = [await openBackend(url), await openBackend(url)];
    try {
      const player = "00000000-0000-3000-8000-0000000000a1";
      expect((await a.checkIn(player, "2026-05-01")).already).toBe(false);
      const again = await b.checkIn(player, "2026-05-01");
      expect(again).toMatchObject({ already: true, streak: 1, total: 1 });
      expect((await b.store.record(player)).moduleData).toEqual({});
      expect((await a.store.record(player)).moduleData).toEqual({});
    } finally {
      await a.close();
      await b.close();
    }
  });
});
