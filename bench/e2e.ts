/**
 * End-to-end game benchmark: a real System server (flying-squid 1.12.0, 1.21.4) and mineflayer 4.25.0 bots on
 * 127.0.0.1. Part 1: one bot interleaves `/system item <a different item each time>` (our card) with flying-squid's own
 * `/ping` (answered to the sender with `player.chat` → system_chat), N each; p50/p99 and the ratio ours/builtin.
 * Part 2: 50 bots in a closed loop (one request in flight each) for SYSTEM_BENCH_SECONDS (default 30): sent,
 * replies, BUSY, lost (no reply within 10 s; must be 0), requests/s, p50/p99, peak server RSS.
 * Run: `node --expose-gc --import tsx bench/e2e.ts` (or `npm run bench -- e2e`). Soak: `SYSTEM_BENCH_SOAK=1 npm run
 * bench -- e2e`: the load for 5 minutes, the server's RSS peak per 30 s window; it must level off under 350 MB.
 *
 * The server runs as a CHILD PROCESS (`node --import tsx src/main.ts --port 0 --panel-port 0 --data-dir <tmp>`), not in-process:
 * 50 mineflayer bots parse chunks, entities and physics on their event loop, which would share (and distort)
 * the server's loop and heap. RSS is therefore the child's, read from /proc/<pid>/status (VmRSS sampled,
 * VmHWM as the kernel's peak). Exit code is non-zero only on real failure (lost replies, a bot disconnected,
 * failed round trips, no server). Env: SYSTEM_BENCH_ROUND_TRIPS (200), SYSTEM_BENCH_BOTS (50),
 * SYSTEM_BENCH_JOIN_BATCH (10), SYSTEM_BENCH_SERVER_LOG (append the server's output to this file),
 * SYSTEM_BENCH_SERVER_FLAGS (extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`),
 * SYSTEM_BENCH_FLOOR=1 (the round trip's floor: see FLOOR below).
 * The server config of the temp data dir is superflat, view distance 2, so joining 50 bots stays short.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import minecraftData from "minecraft-data";
import type { Bot } from "mineflayer";
import { YOUNG_GENERATION_FLAG } from "../src/host/shared/gc-tuning.js";
import { type ChatMessage, recordChat } from "../test/e2e/assistant-support.js";
import { joinBot, tempFolder } from "../test/e2e/host-support.js";

/** Soak: the same load for 5 minutes (SYSTEM_BENCH_SOAK=1), the server RSS peak per 30 s window. */
const SOAK = process.env.SYSTEM_BENCH_SOAK === "1";
/** In a soak, the server's RSS must level off under this. */
const SOAK_RSS_LIMIT = 350 * 1024 * 1024;
const ROUND_TRIPS = Number(process.env.SYSTEM_BENCH_ROUND_TRIPS ?? 200);
/**
 * The floor of the round trip (SYSTEM_BENCH_FLOOR=1): the server loads bench/_reply-floor.ts, which answers a line
 * seen before with the card System rendered for it then, before any of System runs; every item is asked once
 * before the measured round trips. What is left of the ratio is what the game costs for a card of that size.
 */
const FLOOR = process.env.SYSTEM_BENCH_FLOOR === "1";
const LOAD_SECONDS = Number(process.env.SYSTEM_BENCH_SECONDS ?? (SOAK ? 300 : 30));
const BOTS = Number(process.env.SYSTEM_BENCH_BOTS ?? 50);
const JOIN_BATCH = Number(process.env.SYSTEM_BENCH_JOIN_BATCH ?? 10);
const LOST_AFTER_MILLIS = 10_000;
const ITEMS = [
  "minecraft:diamond",
  "minecraft:iron_ingot",
  "minecraft:oak_planks",
  "minecraft:bread",
  "minecraft:stick",
  "minecraft:torch",
  "minecraft:golden_apple",
  "minecraft:redstone",
  "minecraft:diamond_sword",
  "minecraft:cobblestone",
];
/** Distinct vanilla item ids for the round trip (from minecraft-data 1.21.4). */
const ROUND_TRIP_ITEMS = (): string[] =>
  (minecraftData("1.21.4").itemsArray as { name: string }[])
    .slice(1, 1 + 400)
    .map((item) => `minecraft:${item.name}`);
const BUSY_TEXT = (
  JSON.parse(readFileSync("resources/assets/system/lang/en_us.json", "utf8")) as Record<string, string>
)["system.error.busy"]!;

// ---------- child-process server ----------

interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly tail: string[];
}

/** How the server of one run records telemetry: nothing, or metrics plus traces exported to `traces`. */
interface TelemetryVariant {
  readonly name: "off" | "on";
  readonly traces?: string;
}

const startServer = (folder: string, variant?: TelemetryVariant): Promise<ServerProcess> => {
  mkdirSync(join(folder, "config", "system"), { recursive: true });
  writeFileSync(
    join(folder, "config", "system", "server.json"),
    JSON.stringify({ generation: "superflat", viewDistance: 2, maxPlayers: 200 }),
  );
  if (variant !== undefined)
    writeFileSync(
      join(folder, "config", "system", "telemetry.json"),
      JSON.stringify({
        metrics: { enabled: variant.name === "on" },
        // SYSTEM_BENCH_TRACES_PER_SECOND: telemetry.json's cap on traced requests (0: every request)
        ...(process.env.SYSTEM_BENCH_TRACES_PER_SECOND === undefined
          ? {}
          : { traces: { maxPerSecond: Number(process.env.SYSTEM_BENCH_TRACES_PER_SECOND) } }),
      }),
    );
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(environment)) if (name.startsWith("OTEL_")) delete environment[name];
  if (variant?.traces !== undefined) environment.OTEL_EXPORTER_OTLP_ENDPOINT = variant.traces;
  // SYSTEM_BENCH_TRACES_SAMPLE_RATIO: the share of requests traced (the standard sampler variables)
  const ratio = process.env.SYSTEM_BENCH_TRACES_SAMPLE_RATIO;
  if (variant?.traces !== undefined && ratio !== undefined) {
    environment.OTEL_TRACES_SAMPLER = "parentbased_traceidratio";
    environment.OTEL_TRACES_SAMPLER_ARG = ratio;
  }
  const child = spawn(
    process.execPath,
    // as `npm start` runs it (package.json; src/host/shared/gc-tuning.ts says why)
    [
      YOUNG_GENERATION_FLAG,
      // e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server (NODE_OPTIONS refuses --cpu-prof)
      ...(process.env.SYSTEM_BENCH_SERVER_FLAGS ?? "").split(" ").filter(Boolean),
      ...(FLOOR ? ["--import", "tsx", "--import", "./bench/_reply-floor.ts"] : []),
      "--import",
      "tsx",
      "src/main.ts",
      "--port",
      "0",
      "--panel-port",
      "0",
      "--data-dir",
      folder,
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: environment },
  );
  const tail: string[] = [];
  const logFile = process.env.SYSTEM_BENCH_SERVER_LOG;
  const keep = (chunk: Buffer): void => {
    if (logFile !== undefined) appendFileSync(logFile, chunk);
    tail.push(...chunk.toString().split("\n").filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 20));
  };
  child.stderr?.on("data", keep);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${tail.join("\n")}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      keep(chunk);
      const match = /listening on [^:\s]+:(\d+)/.exec(chunk.toString());
      if (match !== null) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), tail });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${tail.join("\n")}`));
    });
  });
};

const stopServer = async (server: ServerProcess): Promise<number | null> => {
  if (server.child.exitCode !== null) return server.child.exitCode;
  const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
  server.child.kill("SIGINT");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 15_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
};

/** VmRSS and VmHWM (peak) of a process in bytes, or undefined when /proc is unavailable. */
const memoryOf = (pid: number): { rss: number; peak: number } | undefined => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string): number =>
      Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb("VmRSS"), peak: kb("VmHWM") };
  } catch {
    return undefined;
  }
};

/** User+system CPU seconds of a process from /proc/<pid>/stat (0 when unavailable). */
const cpuSecondsOf = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
};

// ---------- bots and replies ----------

/** A bot with an event-driven "next system_chat after now" wait (no polling, so no latency quantization). */
interface Client {
  readonly bot: Bot;
  /** Every system_chat message received so far (to spot replies that span more than one message). */
  received(): number;
  /** Whether a message so far matches (the welcome card of the first join, which arrives on its own). */
  saw(match: (text: string) => boolean): boolean;
  request(line: string, timeoutMillis: number): Promise<{ millis: number; message: ChatMessage } | undefined>;
}

/** Bots whose connection ended before the bench closed them, with the reason (a real failure). */
const disconnected: string[] = [];
let closing = false;

const clientOf = (bot: Bot): Client => {
  const messages = recordChat(bot);
  bot.once("kicked", (reason) => {
    if (!closing) disconnected.push(`${bot.username} kicked: ${JSON.stringify(reason)}`);
  });
  bot.once("end", (reason) => {
    if (!closing) disconnected.push(`${bot.username} ended at ${new Date().toISOString()}: ${reason}`);
  });
  let waiter: ((message: ChatMessage) => void) | undefined;
  // Registered after recordChat's listener, so the decoded message is already in `messages`.
  bot._client.on("system_chat", () => waiter?.(messages[messages.length - 1]!));
  return {
    bot,
    received: () => messages.length,
    saw: (match) => messages.some((message) => match(message.text)),
    request: (line, timeoutMillis) =>
      new Promise((resolve) => {
        const started = process.hrtime.bigint();
        const timer = setTimeout(() => {
          waiter = undefined;
          resolve(undefined);
        }, timeoutMillis);
        waiter = (message) => {
          waiter = undefined;
          clearTimeout(timer);
          resolve({ millis: Number(process.hrtime.bigint() - started) / 1e6, message });
        };
        bot.chat(line);
      }),
  };
};

const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (millis: number): string => `${millis.toFixed(2)} ms`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

// ---------- part 1: round trip against flying-squid's /ping ----------

const roundTrip = async (client: Client): Promise<boolean> => {
  const ours: number[] = [];
  const builtin: number[] = [];
  let failures = 0;
  // The first join's welcome card (the default welcome rule) comes on its own: a reply measured while it is on its
  // way would be taken for it, and every later reply for the one before.
  for (const until = Date.now() + LOST_AFTER_MILLIS; Date.now() < until; await sleep(50))
    if (client.saw((text) => text.startsWith("Welcome to the server"))) break;
  // Warm-up: first item card loads catalogs; first ping warms the path.
  await client.request("/system item minecraft:diamond", LOST_AFTER_MILLIS);
  await client.request("/ping", LOST_AFTER_MILLIS);
  // A different item every time: the interactive executor answers an identical line from the same player
  // within its dedupe window from the first run, which would measure a cache instead of the workflow.
  const items = ROUND_TRIP_ITEMS();
  // the floor's server answers a line only from the second time on with the card it kept
  if (FLOOR) for (const item of items) await client.request(`/system item ${item}`, LOST_AFTER_MILLIS);
  for (let index = 0; index < ROUND_TRIPS; index++) {
    const item = items[index % items.length]!;
    const card = await client.request(`/system item ${item}`, LOST_AFTER_MILLIS);
    if (card === undefined || !card.message.text.includes(item)) {
      failures++;
      if (failures <= 3)
        console.log(
          `  failed: ${item}: ${card === undefined ? "no reply" : JSON.stringify(card.message.text.slice(0, 120))}`,
        );
    } else ours.push(card.millis);
    const pong = await client.request("/ping", LOST_AFTER_MILLIS);
    if (pong === undefined || !pong.message.text.includes("pong")) {
      failures++;
      if (failures <= 3)
        console.log(
          `  failed: /ping: ${pong === undefined ? "no reply" : JSON.stringify(pong.message.text.slice(0, 120))}`,
        );
    } else builtin.push(pong.millis);
  }
  ours.sort((a, b) => a - b);
  builtin.sort((a, b) => a - b);
  const ratio = (q: number): string => (quantile(ours, q) / quantile(builtin, q)).toFixed(1);
  console.log(
    `\nround trip, 1 bot, interleaved, N=${ROUND_TRIPS} each (failures: ${failures})` +
      (FLOOR ? ", FLOOR: each card sent again as rendered before, none of System's work" : ""),
  );
  console.log("  command                          p50         p99");
  console.log(
    `  /system item <item>             ${fmt(quantile(ours, 0.5)).padEnd(11)} ${fmt(quantile(ours, 0.99))}`,
  );
  console.log(
    `  /ping (flying-squid built-in)    ${fmt(quantile(builtin, 0.5)).padEnd(11)} ${fmt(quantile(builtin, 0.99))}`,
  );
  console.log(`  ratio ours/builtin               ${ratio(0.5)}×${" ".repeat(8)}${ratio(0.99)}×`);
  return failures === 0;
};

// ---------- part 2: closed-loop load ----------

interface LoadTotals {
  sent: number;
  replies: number;
  busy: number;
  lost: number;
  latencies: number[];
  /** Latencies of replies that were answers, not BUSY refusals. */
  served: number[];
}

const pick = (bot: number, round: number): string => {
  const kind = (bot + round) % 4;
  if (kind === 2) return "/system me";
  if (kind === 3) return "/system help";
  return `/system item ${ITEMS[(bot * 7 + round) % ITEMS.length]}`;
};

/** What one load run measured, for comparing runs. */
interface LoadResult {
  readonly ok: boolean;
  readonly requestsPerSecond: number;
  readonly p99: number;
  /** The server's CPU time per reply, in ms: what a request costs, whatever else the machine runs. */
  readonly cpuPerReply: number;
}

const load = async (clients: readonly Client[], serverPid: number): Promise<LoadResult> => {
  const totals: LoadTotals = { sent: 0, replies: 0, busy: 0, lost: 0, latencies: [], served: [] };
  let rssPeakSampled = 0;
  /** RSS peak of each 30 s window of the load (the soak's levelling off). */
  const windows: number[] = [];
  const loadStarted = Date.now();
  const sampler = setInterval(() => {
    const rss = memoryOf(serverPid)?.rss ?? 0;
    rssPeakSampled = Math.max(rssPeakSampled, rss);
    const window = Math.floor((Date.now() - loadStarted) / 30_000);
    windows[window] = Math.max(windows[window] ?? 0, rss);
  }, 250);
  const rssBefore = memoryOf(serverPid)?.rss ?? 0;
  const serverCpuBefore = cpuSecondsOf(serverPid);
  const benchCpuBefore = process.cpuUsage();
  const receivedBefore = clients.reduce((sum, client) => sum + client.received(), 0);
  const started = Date.now();
  const until = started + LOAD_SECONDS * 1000;
  await Promise.all(
    clients.map(async (client, bot) => {
      for (let round = 0; Date.now() < until; round++) {
        totals.sent++;
        const reply = await client.request(pick(bot, round), LOST_AFTER_MILLIS);
        if (reply === undefined) {
          totals.lost++;
          const late = client.received();
          await sleep(5_000);
          console.log(
            `  lost: bot ${bot} "${pick(bot, round)}" at +${((Date.now() - started) / 1000 - 15).toFixed(1)} s;` +
              ` messages arriving in the next 5 s: ${client.received() - late}`,
          );
          continue;
        }
        totals.replies++;
        totals.latencies.push(reply.millis);
        if (reply.message.text.includes(BUSY_TEXT)) totals.busy++;
        else totals.served.push(reply.millis);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  await sleep(500); // let any trailing message of a multi-message reply arrive before counting
  const extra = clients.reduce((sum, client) => sum + client.received(), 0) - receivedBefore - totals.replies;
  clearInterval(sampler);
  const memory = memoryOf(serverPid);
  const serverCpu = cpuSecondsOf(serverPid) - serverCpuBefore;
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const sorted = totals.latencies.sort((a, b) => a - b);
  const served = totals.served.sort((a, b) => a - b);
  console.log(
    `\nload: ${clients.length} bots, closed loop, ${seconds.toFixed(1)} s (mix: item ×2, me, help)`,
  );
  const rows: [string, string][] = [
    ["sent", String(totals.sent)],
    ["replies", String(totals.replies)],
    ["BUSY replies", String(totals.busy)],
    ["lost (>10 s)", String(totals.lost)],
    ["unmatched extra messages", String(extra)],
    ["requests/s (all replies)", (totals.replies / seconds).toFixed(1)],
    ["served/s (non-BUSY)", ((totals.replies - totals.busy) / seconds).toFixed(1)],
    ["p50 latency", fmt(quantile(sorted, 0.5))],
    ["p99 latency", fmt(quantile(sorted, 0.99))],
    ["p50 / p99 non-BUSY", `${fmt(quantile(served, 0.5))} / ${fmt(quantile(served, 0.99))}`],
    ["server RSS before", mb(rssBefore)],
    ["server RSS peak (sampled)", mb(rssPeakSampled)],
    ["server RSS peak (VmHWM)", memory === undefined ? "n/a" : mb(memory.peak)],
  ];
  rows.push(
    [
      "server CPU (child)",
      `${serverCpu.toFixed(1)} s (${((100 * serverCpu) / seconds).toFixed(0)}% of one core)`,
    ],
    ["server CPU per reply", `${((1000 * serverCpu) / Math.max(1, totals.replies)).toFixed(3)} ms`],
    [
      "bot CPU (this process)",
      `${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} s (${((benchCpu.user + benchCpu.system) / 1e4 / seconds).toFixed(0)}% of one core)`,
    ],
  );
  for (const [name, value] of rows) console.log(`  ${name.padEnd(26)} ${value}`);
  console.log(`  RSS peak per 30 s window   ${windows.map((bytes) => mb(bytes ?? 0)).join(", ")}`);
  const measured = {
    requestsPerSecond: totals.replies / seconds,
    p99: quantile(sorted, 0.99),
    cpuPerReply: (1000 * serverCpu) / Math.max(1, totals.replies),
  };
  if (!SOAK) return { ok: totals.lost === 0 && totals.replies > 0, ...measured };
  // levelled off: the last two minutes stay under the limit and grow no more than 10% over the first half's peak
  const half = windows.slice(0, Math.ceil(windows.length / 2)).map((bytes) => bytes ?? 0);
  const lastTwoMinutes = windows.slice(-4).map((bytes) => bytes ?? 0);
  const level = Math.max(...lastTwoMinutes) <= Math.max(SOAK_RSS_LIMIT, 1.1 * Math.max(...half));
  const under = Math.max(...lastTwoMinutes) < SOAK_RSS_LIMIT;
  console.log(
    `  soak: last 2 min peak ${mb(Math.max(...lastTwoMinutes))} (${under ? "under" : "OVER"} ${mb(SOAK_RSS_LIMIT)}), ` +
      `${level ? "levelled off" : "STILL GROWING"}`,
  );
  return { ok: totals.lost === 0 && totals.replies > 0 && under && level, ...measured };
};

// ---------- main ----------

/**
 * `SYSTEM_BENCH_TELEMETRY=1`: the load part alone, alternating servers with telemetry off (metrics off, no traces)
 * and on (metrics, and traces exported to an OTLP/HTTP receiver in this process; metrics alone with
 * `SYSTEM_BENCH_TELEMETRY_TRACES=0`; a share of requests traced with `SYSTEM_BENCH_TRACES_SAMPLE_RATIO=0.1`; the cap
 * on traced requests a second with `SYSTEM_BENCH_TRACES_PER_SECOND` (telemetry.json's default 50; 0 for all); the
 * receiver counts spans unless `SYSTEM_BENCH_TRACES_PARSE=1`),
 * off/on SYSTEM_BENCH_TELEMETRY_PAIRS times (3), then the ratios of the on runs to the off runs, of the means and
 * of the median pair: requests/s (target ≥0.95) and p99 (target ≤1.1).
 */
const compareTelemetry = async (): Promise<number> => {
  const { OtlpReceiver } = await import("../test/support/otlp-receiver.js");
  // a collector elsewhere parses the spans: this process, which runs the bots, only counts them (the parse in here
  // took CPU from the bots); SYSTEM_BENCH_TRACES_PARSE=1 parses and keeps them as the tests' receiver does
  const receiver = await OtlpReceiver.start({ keep: process.env.SYSTEM_BENCH_TRACES_PARSE === "1" });
  const results: Record<"off" | "on", LoadResult[]> = { off: [], on: [] };
  try {
    const pairs = Number(process.env.SYSTEM_BENCH_TELEMETRY_PAIRS ?? 3);
    for (const name of Array.from({ length: pairs }, () => ["off", "on"] as const).flat()) {
      console.log(`
===== telemetry ${name} =====`);
      // SYSTEM_BENCH_TELEMETRY_TRACES=0: "on" is metrics alone, to tell the two costs apart
      const traces = process.env.SYSTEM_BENCH_TELEMETRY_TRACES === "0" ? {} : { traces: receiver.endpoint };
      const result = await session(name === "on" ? { name, ...traces } : { name }, false);
      if (result === undefined) return 1;
      results[name].push(result);
    }
  } finally {
    await receiver.close();
  }
  type Field = "requestsPerSecond" | "p99" | "cpuPerReply";
  const mean = (list: LoadResult[], field: Field): number =>
    list.reduce((sum, result) => sum + result[field], 0) / list.length;
  // each "on" run against the "off" run just before it; the median pair leaves out a run the machine disturbed
  const pairRatios = (field: Field): number[] =>
    results.on
      .map((on, index) => on[field] / (results.off[index] as LoadResult)[field])
      .sort((a, b) => a - b);
  const median = (sorted: readonly number[]): number =>
    sorted.length % 2 === 1
      ? (sorted[(sorted.length - 1) / 2] as number)
      : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2;
  const line = (label: string, field: Field, unit: (value: number) => string, target: string): void => {
    const ratios = pairRatios(field);
    console.log(
      `  ${label} off ${unit(mean(results.off, field))}, on ${unit(mean(results.on, field))}: ratio of means ` +
        `${(mean(results.on, field) / mean(results.off, field)).toFixed(3)}, median pair ${median(ratios).toFixed(3)}` +
        ` (pairs ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")})${target}`,
    );
  };
  console.log(`\ntelemetry on vs off (${results.on.length} pairs, off then on, alternating)`);
  line("requests/s", "requestsPerSecond", (value) => value.toFixed(1), " (target ≥ 0.95)");
  line("p99", "p99", fmt, " (target ≤ 1.1)");
  line("server CPU per reply", "cpuPerReply", (value) => `${value.toFixed(3)} ms`, "");
  console.log(`  spans received by the OTLP receiver: ${receiver.received}`);
  return results.off.concat(results.on).every((result) => result.ok) ? 0 : 1;
};

const main = async (): Promise<number> => {
  console.log(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((v) => v.toFixed(1))
      .join(" ")}`,
  );
  if (process.env.SYSTEM_BENCH_TELEMETRY === "1") return compareTelemetry();
  const result = await session(undefined, true);
  return result?.ok === true ? 0 : 1;
};

/** One server with 50 bots: the round trip (when asked) and the load; undefined when it failed. */
const session = async (
  variant: TelemetryVariant | undefined,
  withRoundTrip: boolean,
): Promise<LoadResult | undefined> => {
  const folder = tempFolder("system-bench-e2e-");
  const server = await startServer(folder, variant);
  const bots: Bot[] = [];
  let ok = true;
  let result: LoadResult | undefined;
  disconnected.length = 0;
  closing = false;
  try {
    console.log(`server: child pid ${server.child.pid}, port ${server.port}`);
    const probe = clientOf(await joinBot(server.port, "Bench0"));
    bots.push(probe.bot);
    if (withRoundTrip) ok = (await roundTrip(probe)) && ok;

    const joinStarted = Date.now();
    const clients: Client[] = [probe];
    for (let index = 1; index < BOTS; index += JOIN_BATCH) {
      const names = Array.from(
        { length: Math.min(JOIN_BATCH, BOTS - index) },
        (_, offset) => `Bench${index + offset}`,
      );
      const joined = await Promise.all(names.map((name) => joinBot(server.port, name)));
      bots.push(...joined);
      clients.push(...joined.map(clientOf));
      await sleep(100);
    }
    console.log(`\njoined ${clients.length} bots in ${((Date.now() - joinStarted) / 1000).toFixed(1)} s`);
    result = await load(clients, server.child.pid!);
    ok = result.ok && ok;
  } catch (error) {
    ok = false;
    console.error("bench failed:", error, `\nserver output tail:\n${server.tail.join("\n")}`);
  } finally {
    closing = true;
    if (disconnected.length > 0) {
      ok = false;
      console.log(`\ndisconnected before the end (${disconnected.length}):\n  ${disconnected.join("\n  ")}`);
    }
    for (const bot of bots) bot.quit();
    await sleep(500);
    const code = await stopServer(server);
    console.log(`\nserver exit code after SIGINT: ${code}`);
    rmSync(folder, { recursive: true, force: true });
  }
  return ok && result !== undefined ? result : undefined;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
