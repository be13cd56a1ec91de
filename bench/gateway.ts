/**
 * Gateway benchmark: the cost of the gateway against a direct connection to the same backend. A plain
 * flying-squid 1.21.4 backend (no System inside) and the gateway (`npx system gateway`, the CLI as admins run
 * it, with its assistant) each run as a CHILD PROCESS, so that mineflayer 4.25.0 bots in this process do not
 * share their event loops; CPU and RSS are the gateway child's, read from /proc.
 * 1. Join time: SYSTEM_BENCH_JOINS (20) joins each, direct and through the gateway, interleaved; p50 and the
 *    ratio gateway/direct (the issue's target: ≤ 1.15×).
 * 2. Round trip: one bot each way sends flying-squid's own `/ping` (answered with a system_chat "pong")
 *    SYSTEM_BENCH_ROUND_TRIPS (200) times; p50/p99 and ratios (targets: p50 ≤ 1.2×, p99 ≤ 1.5×). Also
 *    `/system item …` answered by the gateway's assistant, against the direct `/ping`, and `/ping` through a
 *    bare TCP relay in its own process (bench/_tcp-relay.ts): the floor any proxy adds on this machine.
 * 3. Load: SYSTEM_BENCH_BOTS (50) bots through the gateway for SYSTEM_BENCH_SECONDS (30), each sending
 *    `/ping` once a second: disconnects (should be 0), lost pings, the gateway's CPU (% of one core) and its
 *    RSS per player (RSS growth over the idle gateway, divided by the bots).
 * Run: `npm run bench -- gateway`. Prints figures only; it asserts nothing, and exits non-zero only when the
 * processes cannot be started.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import mineflayer, { type Bot } from "mineflayer";
import { tempFolder } from "../test/e2e/host-support.js";

const JOINS = Number(process.env.SYSTEM_BENCH_JOINS ?? 20);
const ROUND_TRIPS = Number(process.env.SYSTEM_BENCH_ROUND_TRIPS ?? 200);
const BOTS = Number(process.env.SYSTEM_BENCH_BOTS ?? 50);
const LOAD_SECONDS = Number(process.env.SYSTEM_BENCH_SECONDS ?? 30);
const JOIN_BATCH = 10;
const LOST_AFTER_MILLIS = 10_000;

interface Child {
  readonly child: ChildProcess;
  readonly port: number;
}

/** Spawns `args` with tsx and waits for its `listening on HOST:PORT` line. */
const startChild = (args: readonly string[]): Promise<Child> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []),
        "--import",
        "tsx",
        ...args,
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const port = /listening on [^\s]+:(\d+)/.exec(output)?.[1];
      if (port !== undefined) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve({ child, port: Number(port) });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) =>
      reject(new Error(`${args.join(" ")} exited (${code}): ${output.slice(-2000)}`)),
    );
  });

const stop = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
};

const rssOf = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
};
const cpuSecondsOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** Bots whose connection ended before the bench closed them. */
const disconnects: string[] = [];
let closing = false;

const join = (port: number, username: string): Promise<{ bot: Bot; millis: number }> => {
  const started = process.hrtime.bigint();
  const bot = mineflayer.createBot({
    host: "127.0.0.1",
    port,
    username,
    version: "1.21.4",
    auth: "offline",
    validateChannelProtocol: false,
  });
  bot.once("end", (reason) => {
    if (!closing) disconnects.push(`${username}: ${reason}`);
  });
  return new Promise((resolve, reject) => {
    bot.once("spawn", () => resolve({ bot, millis: Number(process.hrtime.bigint() - started) / 1e6 }));
    bot.once("error", reject);
    bot.once("kicked", (reason) => reject(new Error(`${username} kicked: ${JSON.stringify(reason)}`)));
  });
};

/** Sends `line` and resolves with the time to the next system_chat whose text includes `expect`. */
const roundTrip = (bot: Bot, line: string, expect: string): Promise<number | undefined> =>
  new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const listener = (packet: { content: unknown }): void => {
      if (!JSON.stringify(packet.content).includes(expect)) return;
      finish(Number(process.hrtime.bigint() - started) / 1e6);
    };
    const finish = (millis: number | undefined): void => {
      clearTimeout(timer);
      bot._client.off("system_chat", listener);
      resolve(millis);
    };
    const timer = setTimeout(() => finish(undefined), LOST_AFTER_MILLIS);
    bot._client.on("system_chat", listener);
    bot.chat(line);
  });

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const fmt = (millis: number): string => `${millis.toFixed(2)} ms`;
const ratio = (ours: number, theirs: number): string => `${(ours / theirs).toFixed(2)}×`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

const main = async (): Promise<void> => {
  console.log(
    `node ${process.version}, ${cpus().length} cores; joins ${JOINS}, round trips ${ROUND_TRIPS}, bots ${BOTS} for ${LOAD_SECONDS} s`,
  );
  const backend = await startChild(["test/system/gateway-backend-process.ts", "0"]);
  const gateway = await startChild([
    "src/cli.ts",
    "gateway",
    "--backend",
    `127.0.0.1:${backend.port}`,
    "--port",
    "0",
    "--data-dir",
    tempFolder("bench-gateway-"),
  ]);
  const bare = await startChild(["bench/_tcp-relay.ts", String(backend.port)]);
  const pid = gateway.child.pid!;
  const bots: Bot[] = [];
  try {
    // 1. join time, interleaved so that both paths see the same warm backend
    const direct: number[] = [];
    const relayed: number[] = [];
    for (let index = 0; index < JOINS; index++) {
      for (const [port, into, prefix] of [
        [backend.port, direct, "D"],
        [gateway.port, relayed, "G"],
      ] as const) {
        const { bot, millis } = await join(port, `${prefix}join${index}`);
        into.push(millis);
        closing = true;
        bot.quit();
        await new Promise((resolve) => bot.once("end", resolve));
        closing = false;
      }
    }
    console.log("\njoin time (createBot → spawn)      p50          p99");
    console.log(
      `  direct                           ${fmt(quantile(direct, 0.5)).padEnd(12)} ${fmt(quantile(direct, 0.99))}`,
    );
    console.log(
      `  through the gateway              ${fmt(quantile(relayed, 0.5)).padEnd(12)} ${fmt(quantile(relayed, 0.99))}`,
    );
    console.log(`  ratio p50 gateway/direct         ${ratio(quantile(relayed, 0.5), quantile(direct, 0.5))}`);

    // 2. round trips: /ping both ways, /system item through the gateway
    const directBot = (await join(backend.port, "DirectPing")).bot;
    const relayedBot = (await join(gateway.port, "RelayedPing")).bot;
    const bareBot = (await join(bare.port, "BarePing")).bot;
    bots.push(directBot, relayedBot, bareBot);
    await roundTrip(directBot, "/ping", "pong");
    await roundTrip(relayedBot, "/ping", "pong");
    await roundTrip(bareBot, "/ping", "pong");
    await roundTrip(relayedBot, "/system item minecraft:diamond", "iamond");
    const pings = {
      direct: [] as number[],
      relayed: [] as number[],
      bare: [] as number[],
      item: [] as number[],
    };
    let lost = 0;
    for (let index = 0; index < ROUND_TRIPS; index++) {
      const one = await roundTrip(directBot, "/ping", "pong");
      const two = await roundTrip(relayedBot, "/ping", "pong");
      const three = await roundTrip(relayedBot, "/system item minecraft:diamond", "iamond");
      const four = await roundTrip(bareBot, "/ping", "pong");
      for (const [value, into] of [
        [one, pings.direct],
        [two, pings.relayed],
        [four, pings.bare],
        [three, pings.item],
      ] as const)
        if (value === undefined) lost++;
        else into.push(value);
    }
    console.log("\nround trip                         p50          p99");
    for (const [label, values] of [
      ["/ping direct", pings.direct],
      ["/ping through the gateway", pings.relayed],
      ["/ping through a bare TCP relay", pings.bare],
      ["/system item through the gateway", pings.item],
    ] as const)
      console.log(
        `  ${label.padEnd(33)}${fmt(quantile(values, 0.5)).padEnd(12)} ${fmt(quantile(values, 0.99))}`,
      );
    console.log(
      `  /ping ratio gateway/direct       p50 ${ratio(quantile(pings.relayed, 0.5), quantile(pings.direct, 0.5))}, p99 ${ratio(quantile(pings.relayed, 0.99), quantile(pings.direct, 0.99))}`,
    );
    console.log(
      `  /ping ratio bare relay/direct    p50 ${ratio(quantile(pings.bare, 0.5), quantile(pings.direct, 0.5))}, p99 ${ratio(quantile(pings.bare, 0.99), quantile(pings.direct, 0.99))} (the floor of a relay in its own process)`,
    );
    console.log(
      `  /system item vs direct /ping     p50 ${ratio(quantile(pings.item, 0.5), quantile(pings.direct, 0.5))}, p99 ${ratio(quantile(pings.item, 0.99), quantile(pings.direct, 0.99))}; lost ${lost}`,
    );
    closing = true;
    for (const bot of bots.splice(0)) bot.quit();
    await sleep(1_000);
    closing = false;

    // 3. load through the gateway
    const idleRss = rssOf(pid);
    for (let start = 0; start < BOTS; start += JOIN_BATCH) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(JOIN_BATCH, BOTS - start) }, (_, offset) =>
          join(gateway.port, `Load${start + offset}`),
        ),
      );
      bots.push(...batch.map((joined) => joined.bot));
    }
    const cpuBefore = cpuSecondsOf(pid);
    const started = Date.now();
    let sent = 0;
    let loadLost = 0;
    let peakRss = rssOf(pid);
    const deadline = started + LOAD_SECONDS * 1000;
    await Promise.all(
      bots.map(async (bot, index) => {
        await sleep((index * 1000) / bots.length);
        while (Date.now() < deadline) {
          sent++;
          if ((await roundTrip(bot, "/ping", "pong")) === undefined) loadLost++;
          peakRss = Math.max(peakRss, rssOf(pid));
          await sleep(1_000);
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const cpu = (cpuSecondsOf(pid) - cpuBefore) / seconds;
    console.log(
      `\nload: ${bots.length} bots through the gateway for ${seconds.toFixed(0)} s, /ping once a second each`,
    );
    console.log(
      `  disconnects                      ${disconnects.length}${disconnects.length > 0 ? ` (${disconnects.slice(0, 3).join("; ")})` : ""}`,
    );
    console.log(`  pings sent / lost                ${sent} / ${loadLost}`);
    console.log(
      `  gateway CPU                      ${(cpu * 100).toFixed(1)}% of one core (${((cpu * 100) / bots.length).toFixed(2)}% per player)`,
    );
    console.log(`  gateway RSS idle / peak          ${mb(idleRss)} / ${mb(peakRss)}`);
    console.log(`  gateway RSS per player           ${mb((peakRss - idleRss) / Math.max(1, bots.length))}`);
  } finally {
    closing = true;
    for (const bot of bots) bot.quit();
    await stop(gateway.child);
    await stop(bare.child);
    await stop(backend.child);
  }
};

await main();
process.exit(0);
