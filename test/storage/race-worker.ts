// One server process of a race (run with `node --import tsx`): the argument is a JSON RaceJob; the last line
// on stdout is a JSON RaceReport. Two of these on one database are two servers of a network.
import { localDay } from "../../src/agent/storage/usage-store.js";
import { openBackend } from "./network-backends.js";

/** What one process does. */
export interface RaceJob {
  readonly mode: "check-in" | "claim" | "quota";
  /** The shared database; undefined: this process's own files (one server). */
  readonly url?: string;
  readonly players: number;
  /** check-in (a whole check-in) and claim (the database's part only): days per player, from 2026-05-01; quota: reservations tried per player. */
  readonly rounds: number;
  /** check-in: how often each player-day is tried by this process. */
  readonly repeats: number;
  /** quota: the daily limit of every player. */
  readonly limit: number;
  readonly concurrency: number;
  /** Shuffles the order of attempts (two processes use different seeds and collide everywhere). */
  readonly seed: number;
}

/** What one process saw. */
export interface RaceReport {
  readonly attempts: number;
  /** check-in: days this process was paid; quota: reservations it got. */
  readonly wins: number;
  /** Wins per player (quota). */
  readonly perPlayer: number[];
  readonly p50: number;
  readonly p99: number;
  readonly millis: number;
}

/** A stable player UUID per index (the player files take UUIDs only). */
export const racePlayer = (index: number): string =>
  `00000000-0000-3000-8000-${index.toString(16).padStart(12, "0")}`;

const shuffle = <T>(items: T[], seed: number): T[] => {
  let state = seed >>> 0 || 1;
  for (let index = items.length - 1; index > 0; index--) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    const other = state % (index + 1);
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
};

const day = (offset: number): string => {
  const date = new Date(Date.UTC(2026, 4, 1 + offset));
  return date.toISOString().slice(0, 10);
};

const percentile = (sorted: readonly number[], fraction: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;

const run = async (job: RaceJob): Promise<RaceReport> => {
  const backend = await openBackend(job.url);
  const perPlayer = Array.from({ length: job.players }, () => 0);
  const tasks: (() => Promise<boolean>)[] = [];
  const today = localDay(Date.now());
  for (let player = 0; player < job.players; player++)
    for (let round = 0; round < job.rounds; round++)
      for (let repeat = 0; repeat < (job.mode === "quota" ? 1 : job.repeats); repeat++)
        tasks.push(
          job.mode === "check-in"
            ? async () => !(await backend.checkIn(racePlayer(player), day(round))).already
            : job.mode === "claim"
              ? async () => (await backend.claimOnly?.(racePlayer(player), day(round))) === true
              : async () => {
                  const refused = await backend.usage.reserve({
                    playerId: racePlayer(player),
                    day: today,
                    calls: job.limit,
                    tokens: 0,
                  });
                  if (refused === undefined) perPlayer[player] = (perPlayer[player] ?? 0) + 1;
                  return refused === undefined;
                },
        );
  shuffle(tasks, job.seed);
  const latencies: number[] = [];
  let wins = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++] as () => Promise<boolean>;
        const begin = performance.now();
        if (await task()) wins++;
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const millis = performance.now() - started;
  await backend.close();
  latencies.sort((left, right) => left - right);
  return {
    attempts: tasks.length,
    wins,
    perPlayer,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    millis,
  };
};

const job = JSON.parse(process.argv[2] ?? "{}") as RaceJob;
run(job).then(
  (report) => {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
