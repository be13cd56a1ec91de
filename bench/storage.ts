/**
 * The network state on both backends in one run, two server processes each: a whole check-in (claim, points,
 * the local delivery record) p50/p99 on PostgreSQL (one database, both processes racing for the same
 * player-days) against files (each process its own data folder, as two separate servers), with the ratio; and
 * model-quota reservations per second. PostgreSQL keeps its fsync here (a durable cluster).
 * Run: `npm run bench -- storage` (or `node --import tsx bench/storage.ts`). Target: check-in p99 ≤ 50 ms on
 * PostgreSQL.
 */
import { loadavg } from "node:os";
import { runRaceProcess } from "../test/storage/race-support.js";
import type { RaceJob, RaceReport } from "../test/storage/race-worker.js";
import { startPostgresCluster } from "../test/support/postgres-cluster.js";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 200);
const DAYS = Number(process.env.BENCH_DAYS ?? 3);
const RESERVATIONS = Number(process.env.BENCH_RESERVATIONS ?? 40);

const pair = (job: Omit<RaceJob, "seed">): Promise<RaceReport[]> =>
  Promise.all([runRaceProcess({ ...job, seed: 11 }), runRaceProcess({ ...job, seed: 12 })]);

const worst = (reports: readonly RaceReport[], field: "p50" | "p99"): number =>
  Math.max(...reports.map((report) => report[field]));

const perSecond = (reports: readonly RaceReport[]): number =>
  reports.reduce((sum, report) => sum + report.attempts, 0) /
  (Math.max(...reports.map((report) => report.millis)) / 1000);

const cluster = await startPostgresCluster({ durable: true });
try {
  console.log(
    `load average ${loadavg()[0]?.toFixed(2)}, ${PLAYERS} players × ${DAYS} days × 2 tries per process`,
  );
  const checkIn = {
    mode: "check-in",
    players: PLAYERS,
    rounds: DAYS,
    repeats: 2,
    limit: 0,
    concurrency: 8,
  } as const;
  const postgres = await pair({ ...checkIn, url: await cluster.createDatabase("bench_check_in") });
  const files = await pair(checkIn);
  const paid = postgres.reduce((sum, report) => sum + report.wins, 0);
  console.log(
    `check-in, 2 processes  postgres p50 ${worst(postgres, "p50").toFixed(1)} ms  p99 ${worst(postgres, "p99").toFixed(1)} ms  (${paid} of ${PLAYERS * DAYS} days paid once)`,
  );
  console.log(
    `                       files    p50 ${worst(files, "p50").toFixed(1)} ms  p99 ${worst(files, "p99").toFixed(1)} ms`,
  );
  console.log(
    `                       p99 ratio postgres/files ${(worst(postgres, "p99") / worst(files, "p99")).toFixed(2)}`,
  );
  const quota = {
    mode: "quota",
    players: PLAYERS,
    rounds: RESERVATIONS,
    repeats: 1,
    limit: 1_000_000,
    concurrency: 8,
  } as const;
  const reservePostgres = await pair({ ...quota, url: await cluster.createDatabase("bench_quota") });
  const reserveFiles = await pair(quota);
  console.log(
    `quota reserve          postgres ${perSecond(reservePostgres).toFixed(0)}/s (2 processes)  p99 ${worst(reservePostgres, "p99").toFixed(1)} ms`,
  );
  console.log(
    `                       files    ${perSecond(reserveFiles).toFixed(0)}/s (2 processes, in memory)  p99 ${worst(reserveFiles, "p99").toFixed(2)} ms`,
  );
} finally {
  await cluster.stop();
}
