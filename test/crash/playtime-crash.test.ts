import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ModuleData } from "../../src/agent/storage/player-data.js";
import { playtimeStorage } from "../../src/assistant/playtime-total.js";
import { FileAgentStore } from "../../src/data/store/file-agent-store.js";
import { pointsLedgerStorage } from "../../src/module/builtin/storage/points-ledger.js";

/**
 * Playtime is tick work: kept in memory and written coalesced. A SIGKILL loses at most the ticks since the last
 * coalesced write, and never a business write, which also carries every tick counted before it.
 */
/** As in playtime-worker.ts. */
const PLAYTIME_PLAYER = "11111111-2222-3333-4444-555555555555";
const WORKER = fileURLToPath(new URL("./playtime-worker.ts", import.meta.url));

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/** A worker and a way to send one line and wait for its acknowledgement. */
const startWorker = (world: string, delayMillis: number) => {
  const child: Child = spawn(process.execPath, ["--import", "tsx", WORKER, world, String(delayMillis)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  let partial = "";
  child.stdout.on("data", (chunk: string) => {
    partial += chunk;
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
  });
  const said = (line: string) =>
    expect.poll(() => lines.includes(line) || stderr, { timeout: 30_000 }).toBe(true);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    said,
    send: async (line: string, ack: string) => {
      child.stdin.write(`${line}\n`);
      await said(ack);
    },
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
};

/** The player file as a restarted server reads it: playtime (ms) and the points entries. */
const onDisk = async (world: string) => {
  const data = await new FileAgentStore({ world }).read(PLAYTIME_PLAYER, (read) => read);
  return {
    millis: ModuleData.get(data, playtimeStorage).toData().millis,
    entries: ModuleData.get(data, pointsLedgerStorage)
      .toData()
      .entries.map((entry) => entry.id),
  };
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("playtime under SIGKILL", () => {
  it("loses only the ticks after the last write, never a business write, which carries the ticks before it", async () => {
    const world = mkdtempSync(join(tmpdir(), "playtime-crash-"));
    folders.push(world);
    // an hour's coalescing: nothing but the business write puts ticks on disk
    const worker = startWorker(world, 3_600_000);
    await worker.said("ready");
    for (let tick = 1; tick <= 3; tick++) await worker.send("tick", `ticked ${tick}`);
    expect((await onDisk(world)).millis).toBe(0);
    await worker.send("credit order-1", "credited order-1");
    for (let tick = 4; tick <= 5; tick++) await worker.send("tick", `ticked ${tick}`);
    await worker.kill();
    const disk = await onDisk(world);
    expect(disk.entries).toEqual(["order-1"]);
    // three minutes came with the business write; the two after it were in memory only
    expect(disk.millis).toBe(3 * 60_000);
  });

  it("writes the ticks once the coalescing interval has passed, without any other write", async () => {
    const world = mkdtempSync(join(tmpdir(), "playtime-interval-"));
    folders.push(world);
    const worker = startWorker(world, 50);
    await worker.said("ready");
    for (let tick = 1; tick <= 4; tick++) await worker.send("tick", `ticked ${tick}`);
    await expect.poll(async () => (await onDisk(world)).millis, { timeout: 30_000 }).toBe(4 * 60_000);
    await worker.kill();
    expect(await onDisk(world)).toEqual({ millis: 4 * 60_000, entries: [] });
  });
});
