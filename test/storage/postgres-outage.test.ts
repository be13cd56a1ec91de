import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../src/data/network/database-errors.js";
import { openPostgresDatabase, type PostgresDatabase } from "../../src/data/network/postgres-database.js";
import { type ApplyOutcome, enqueueEffect, PostgresOutbox } from "../../src/data/network/postgres-outbox.js";
import { PostgresPresence } from "../../src/data/network/postgres-presence.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { coordinationDatabase } from "../support/coordination-database.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

/**
 * A network's database going away under a running server (`pg_ctl -m immediate`, then started again): the pool of
 * the server survives connections cut while checked out, and the outbox never leaves its own effects `applying`.
 */
describe("PostgreSQL going away under a running server", () => {
  let cluster: PostgresCluster;
  const opened: PostgresDatabase[] = [];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);

  afterAll(async () => {
    for (const database of opened) await database.close().catch(() => undefined);
    await cluster?.stop();
  });

  const open = async (name: string): Promise<PostgresDatabase> => {
    const url = await coordinationDatabase(cluster, name);
    const database = await openPostgresDatabase({
      config: { backend: "postgres", url, poolSize: 3 },
      dataDir: "/nonexistent",
      environment: {},
      migrations: [],
      logger: new MemoryLogger(),
    });
    opened.push(database);
    return database;
  };

  it("survives a connection cut while checked out (between two statements), and serves again after", async () => {
    const database = await open("outage_pool");
    const client = await database.pool.connect();
    await client.query("BEGIN");
    await cluster.halt("immediate");
    // the server closed the connection: without a listener on it, its 'error' would be thrown in the process
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cut = await client.query("SELECT 1").then(
      () => undefined,
      (error: unknown) => error,
    );
    client.release(cut as Error);
    expect(isDatabaseUnavailable(cut)).toBe(true);
    const refused = await database.pool.query("SELECT 1").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(refused)).toBe(true);
    await cluster.resume();
    expect((await database.pool.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("writes what it knows after the outage: a given effect done, the untried ones back to pending, once", async () => {
    const database = await open("outage_outbox");
    const pool = database.pool;
    await new PostgresPresence(pool, "survival").join("steve");
    for (const key of ["a", "b", "c"])
      await enqueueEffect(pool, { idemKey: key, playerId: "steve", payload: {} });
    const applied: string[] = [];
    let halting = true;
    const outbox = new PostgresOutbox({
      pool,
      server: "survival",
      apply: async (effect): Promise<ApplyOutcome> => {
        applied.push(effect.idemKey);
        // the database dies while the first give happens in the game
        if (halting) {
          halting = false;
          await cluster.halt("immediate");
        }
        return "applied";
      },
    });
    await expect(outbox.deliver()).rejects.toSatisfy(isDatabaseUnavailable);
    expect(applied).toEqual(["a"]);
    // a given, b and c never tried: known here, written when the database is back
    expect(outbox.owed).toBe(3);
    await expect(outbox.deliver()).rejects.toSatisfy(isDatabaseUnavailable);
    expect(applied).toEqual(["a"]);

    await cluster.resume();
    const statuses = async () =>
      (await pool.query("SELECT idem_key, status FROM system_outbox ORDER BY id")).rows.map(
        (row: pg.QueryResultRow) => `${row.idem_key}:${row.status}`,
      );
    expect(await outbox.deliver()).toBe(2);
    expect(outbox.owed).toBe(0);
    expect(applied).toEqual(["a", "b", "c"]);
    expect(await statuses()).toEqual(["a:done", "b:done", "c:done"]);
    expect(await outbox.deliver()).toBe(0);
  });
});
