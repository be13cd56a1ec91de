/**
 * Journal appends per second on PostgreSQL (a throw-away cluster with fsync on) against the file journal in
 * the same run: one writer appending in sequence, and 32 concurrent writers (group commit on both). Run:
 * `npm run bench -- storage` (or `node --import tsx bench/storage-journal.ts`).
 * Goals on PostgreSQL: ≥ 1,000 appends/s from one writer and ≥ 10,000/s from 32 concurrent writers. One
 * writer waits for each commit, so its rate is bounded by the disk's fsync: the run prints a plain one-row
 * INSERT per commit on the same cluster as that floor.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { AgentJournal } from "../src/agent/storage/agent-journal.js";
import { PostgresAgentJournal } from "../src/data/network/postgres-agent-journal.js";
import { FileAgentJournal } from "../src/data/store/file-agent-journal.js";
import { coordinationDatabase } from "../test/support/coordination-database.js";
import { startPostgresCluster } from "../test/support/postgres-cluster.js";

const SINGLE = Number(process.env.BENCH_SINGLE ?? 1_000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 100);
const CONCURRENCY = 32;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Measure {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/** `count` appends with `parallel` writers, each writer appending its next step as soon as the last resolved. */
const measure = async (
  count: number,
  parallel: number,
  append: (index: number) => Promise<unknown>,
): Promise<Measure> => {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const index = next++;
        const begin = performance.now();
        await append(index);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((left, right) => left - right);
  const at = (quantile: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * quantile))] ?? 0;
  return { perSecond: count / seconds, p50: at(0.5), p99: at(0.99) };
};

const median = (values: readonly number[]): number =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;
const show = (label: string, value: Measure): string =>
  `${label.padEnd(34)} ${value.perSecond.toFixed(0).padStart(7)}/s  p50 ${value.p50.toFixed(2)} ms  p99 ${value.p99.toFixed(2)} ms`;

const cluster = await startPostgresCluster({ durable: true });
const folder = await mkdtemp(join(tmpdir(), "bench-storage-journal-"));
const pool = new pg.Pool({ connectionString: await coordinationDatabase(cluster, "bench"), max: 8 });
try {
  const journals: Record<"file" | "postgres", AgentJournal> = {
    file: await FileAgentJournal.open({ folder }),
    postgres: await PostgresAgentJournal.open({
      pool,
      concurrentCommits: Number(process.env.BENCH_COMMITS ?? 4),
    }),
  };
  await pool.query("CREATE TABLE raw_commit (key text PRIMARY KEY, tool text NOT NULL)");
  const raw: number[] = [];
  const results = {
    file: { single: [] as number[], many: [] as number[] },
    postgres: { single: [] as number[], many: [] as number[] },
  };
  let key = 0;
  for (let round = 0; round < ROUNDS; round++) {
    console.log(`round ${round + 1}`);
    // The floor of one writer: a plain one-row INSERT per commit on the same cluster (fsync-bound).
    const floor = await measure(SINGLE, 1, () =>
      pool.query("INSERT INTO raw_commit VALUES ($1, 'system:credit')", [`r/${key++}`]),
    );
    console.log(show("  postgres raw INSERT, 1 writer", floor));
    raw.push(floor.perSecond);
    // Interleaved, so that background load on the shared machine hits both alike.
    for (const name of ["file", "postgres"] as const) {
      const journal = journals[name];
      const single = await measure(SINGLE, 1, () => journal.appendStep(`s/${key++}/credit`, "system:credit"));
      const many = await measure(BATCHES * CONCURRENCY, CONCURRENCY, () =>
        journal.appendStep(`c/${key++}/credit`, "system:credit"),
      );
      console.log(show(`  ${name} 1 writer`, single));
      console.log(show(`  ${name} ${CONCURRENCY} concurrent writers`, many));
      results[name].single.push(single.perSecond);
      results[name].many.push(many.perSecond);
    }
  }
  await Promise.all(Object.values(journals).map((journal) => journal.close()));
  const line = (label: string, file: number, postgres: number, goal: number) =>
    console.log(
      `median ${label}: postgres ${postgres.toFixed(0)}/s (goal ≥ ${goal}), file ${file.toFixed(0)}/s, postgres/file ${(postgres / file).toFixed(2)}×`,
    );
  line("1 writer", median(results.file.single), median(results.postgres.single), 1_000);
  console.log(
    `median raw one-row INSERT commits, 1 writer: ${median(raw).toFixed(0)}/s (journal/raw ${(median(results.postgres.single) / median(raw)).toFixed(2)}×)`,
  );
  line(`${CONCURRENCY} writers`, median(results.file.many), median(results.postgres.many), 10_000);
} finally {
  await pool.end();
  await cluster.stop();
  await rm(folder, { recursive: true, force: true });
}
