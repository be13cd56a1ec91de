import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import { runRaceProcess } from "./race-support.js";

/**
 * Two server processes on one database, racing: every check-in key (player and day) and every quota is asked
 * for by both at the same time, in different orders.
 */
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 60_000);
afterAll(() => cluster?.stop());

const query = async <T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
};

describe("two servers on one database", () => {
  it("check-in storm: 10 000 attempts on 2 500 player-days, no day paid twice", async () => {
    const url = await cluster.createDatabase("race_check_in");
    const job = {
      mode: "check-in",
      url,
      players: 500,
      rounds: 5,
      repeats: 2,
      limit: 0,
      concurrency: 12,
    } as const;
    const reports = await Promise.all([
      runRaceProcess({ ...job, seed: 1 }),
      runRaceProcess({ ...job, seed: 2 }),
    ]);
    expect(reports.reduce((sum, report) => sum + report.attempts, 0)).toBe(10_000);
    // every player-day paid exactly once, by one of the two
    expect(reports.reduce((sum, report) => sum + report.wins, 0)).toBe(2_500);
    const [days] = await query<{ days: number; entries: number; points: string }>(
      url,
      `SELECT (SELECT count(*) FROM system_check_in)::int AS days,
              (SELECT count(*) FROM system_points_entry)::int AS entries,
              (SELECT sum(balance) FROM system_points_balance) AS points`,
    );
    expect(days).toEqual({ days: 2_500, entries: 2_500, points: String(2_500 * 10) });
  }, 120_000);

  it("quota exactness: exactly the limit of each player passes across both servers", async () => {
    const url = await cluster.createDatabase("race_quota");
    const job = {
      mode: "quota",
      url,
      players: 20,
      rounds: 30,
      repeats: 1,
      limit: 7,
      concurrency: 12,
    } as const;
    const reports = await Promise.all([
      runRaceProcess({ ...job, seed: 3 }),
      runRaceProcess({ ...job, seed: 4 }),
    ]);
    const [first, second] = reports;
    const perPlayer = first?.perPlayer.map((wins, player) => wins + (second?.perPlayer[player] ?? 0));
    expect(perPlayer).toEqual(Array.from({ length: 20 }, () => 7));
    // how the wins split between the servers depends on scheduling; only their sum is exact
  }, 120_000);
});
