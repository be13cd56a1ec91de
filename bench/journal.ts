/**
 * Durable receipt commits of the file journal against a raw baseline (write + fsync + rename of the same
 * bytes) in the same run: single commits and 32 concurrent commits, then the recovery time of 10,000
 * pending events. Run: `npm run bench -- journal` (or `node --import tsx bench/journal.ts`).
 * Targets: single ≥ 0.8× raw, 32 concurrent ≥ 5× raw throughput.
 */
import { mkdtemp, open, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileAgentJournal } from "../src/data/store/file-agent-journal.js";
import { stepPayload } from "../src/data/store/journal-records.js";
import { encodeFrame } from "../src/data/store/record-frame.js";

const SINGLE = Number(process.env.BENCH_SINGLE ?? 200);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 30);
const CONCURRENCY = 32;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PENDING_EVENTS = 10_000;

const bytes = encodeFrame(
  stepPayload({
    key: "r-000000/credit-0",
    tool: "system:credit",
    state: "RUNNING",
    createdAt: 1,
    updatedAt: 1,
  }),
);

const rawCommit = async (folder: string, name: string): Promise<void> => {
  const temp = join(folder, `${name}.tmp`);
  const handle = await open(temp, "w");
  await handle.write(bytes);
  await handle.sync();
  await handle.close();
  await rename(temp, join(folder, name));
};

interface Measure {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

const measure = async (
  count: number,
  parallel: number,
  commit: (index: number) => Promise<void>,
): Promise<Measure> => {
  const latencies: number[] = [];
  const started = performance.now();
  for (let done = 0; done < count; done += parallel)
    await Promise.all(
      Array.from({ length: Math.min(parallel, count - done) }, async (_, offset) => {
        const begin = performance.now();
        await commit(done + offset);
        latencies.push(performance.now() - begin);
      }),
    );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((left, right) => left - right);
  const at = (quantile: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * quantile))] ?? 0;
  return { perSecond: count / seconds, p50: at(0.5), p99: at(0.99) };
};

const median = (values: number[]): number =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;
const show = (label: string, value: Measure): string =>
  `${label.padEnd(28)} ${value.perSecond.toFixed(0).padStart(7)}/s  p50 ${value.p50.toFixed(2)} ms  p99 ${value.p99.toFixed(2)} ms`;

const folder = await mkdtemp(join(tmpdir(), "bench-journal-"));
try {
  const journal = await FileAgentJournal.open({ folder: join(folder, "journal") });
  let key = 0;
  const ratios = { single: [] as number[], concurrent: [] as number[] };
  const totals = { raw: 0, single: 0, rawMany: 0, many: 0 };
  const seconds = (count: number, value: Measure): number => count / value.perSecond;
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved rounds, so that background load hits both sides alike.
    const raw = await measure(SINGLE, 1, (index) => rawCommit(folder, `raw-${index % 64}`));
    const single = await measure(SINGLE, 1, () => journal.beginStep(`s/${key++}`, "system:credit"));
    const rawMany = await measure(BATCHES * CONCURRENCY, CONCURRENCY, (index) =>
      rawCommit(folder, `many-${index % CONCURRENCY}`),
    );
    const many = await measure(BATCHES * CONCURRENCY, CONCURRENCY, () =>
      journal.beginStep(`c/${key++}`, "system:credit"),
    );
    console.log(`round ${round + 1}`);
    console.log(show("  raw single", raw));
    console.log(show("  journal single", single));
    console.log(show(`  raw ${CONCURRENCY} concurrent`, rawMany));
    console.log(show(`  journal ${CONCURRENCY} concurrent`, many));
    totals.raw += seconds(SINGLE, raw);
    totals.single += seconds(SINGLE, single);
    totals.rawMany += seconds(BATCHES * CONCURRENCY, rawMany);
    totals.many += seconds(BATCHES * CONCURRENCY, many);
    ratios.single.push(single.perSecond / raw.perSecond);
    ratios.concurrent.push(many.perSecond / rawMany.perSecond);
  }
  await journal.close();
  console.log(
    `all rounds together: single ${(totals.raw / totals.single).toFixed(2)}×, ${CONCURRENCY} concurrent ${(totals.rawMany / totals.many).toFixed(2)}× (journal/raw throughput)`,
  );
  console.log(
    `median of rounds: single commits journal/raw = ${median(ratios.single).toFixed(2)}× (target ≥ 0.8×; rounds ${ratios.single.map((ratio) => ratio.toFixed(2)).join(", ")})`,
  );
  console.log(
    `median of rounds: 32 concurrent journal/raw = ${median(ratios.concurrent).toFixed(2)}× (target ≥ 5×; rounds ${ratios.concurrent.map((ratio) => ratio.toFixed(2)).join(", ")})`,
  );

  const eventsFolder = join(folder, "events");
  const events = await FileAgentJournal.open({ folder: eventsFolder });
  for (let done = 0; done < PENDING_EVENTS; done += 500)
    await Promise.all(
      Array.from({ length: 500 }, (_, offset) =>
        events.putEvent({
          id: `event-${done + offset}`,
          type: "system:check_in_reward",
          input: { day: done + offset, items: ["minecraft:diamond"] },
          playerId: "6f1d1b34-0c5e-4a8e-9f59-0d5f4f0b0001",
          policy: { modelCalls: 0, toolCalls: 4, steps: 8, writeSteps: 2, ttlMillis: 60000 },
          state: "QUEUED",
          attempts: 0,
        }),
      ),
    );
  await events.close();
  for (const label of ["from the log", "from a snapshot"]) {
    const started = performance.now();
    const reopened = await FileAgentJournal.open({ folder: eventsFolder });
    const pending = reopened.unfinishedEvents().length;
    const millis = performance.now() - started;
    console.log(`recovery of ${pending} pending events ${label}: ${millis.toFixed(0)} ms`);
    await reopened.compact();
    await reopened.close();
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
