import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGateway } from "../../src/host/gateway/start-gateway.js";
import { type ShippedServer, startShipped, tempFolder } from "./system-support.js";

/** Runs `npm start`'s entry (src/main.ts) on a data folder and returns its exit code and output. */
const startProcess = (dataDir: string): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/main.ts", "--data-dir", dataDir, "--port", "0", "--panel-port", "0"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });

/** The pid of a process that has ended (a server killed with SIGKILL leaves such a lock). */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
};

const writeLock = (dataDir: string, holder: { pid: number; host: string }): void => {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    join(dataDir, "system.lock"),
    JSON.stringify({ ...holder, started: "2026-05-01T00:00:00.000Z" }),
  );
};

/**
 * One data folder, one process: the shipped server and the gateway take `<dataDir>/system.lock` naming the
 * holder, refuse a folder another running process holds, and take over the lock of a dead one.
 */
describe("the data folder's lock (shipped server and gateway)", () => {
  let server: ShippedServer;
  beforeAll(async () => {
    server = await startShipped();
  }, 120_000);
  afterAll(() => server?.close());

  it("names this process in system.lock while it runs", () => {
    const holder = JSON.parse(readFileSync(join(server.folder, "system.lock"), "utf8"));
    expect(holder).toMatchObject({ pid: process.pid, host: hostname() });
    expect(Number.isNaN(Date.parse(holder.started))).toBe(false);
  });

  it("refuses a second server process on the same folder with one line naming the holder", async () => {
    const second = await startProcess(server.folder);
    expect(second.code).toBe(1);
    expect(second.output).toContain(
      `System failed to start: data folder ${server.folder} is in use by process ${process.pid} on ${hostname()} since`,
    );
    expect(second.output.trim().split("\n")).toHaveLength(1);
    // the running server kept its lock
    expect(JSON.parse(readFileSync(join(server.folder, "system.lock"), "utf8")).pid).toBe(process.pid);
  }, 60_000);

  it("refuses a gateway on the same folder with one line", async () => {
    const lines: string[] = [];
    const code = await runGateway(
      [
        "--backend",
        `127.0.0.1:${server.port}`,
        "--port",
        "0",
        "--panel-port",
        "0",
        "--data-dir",
        server.folder,
      ],
      { write: (text: string) => lines.push(text) },
    );
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(/^system gateway: data folder .* is in use by process \d+ on /),
    ]);
    expect(lines[0]?.match(/\n/g)).toHaveLength(1);
  }, 60_000);

  it("takes over the lock of a dead process of this host, and removes its own on close", async () => {
    const folder = tempFolder("system-stale-lock-");
    writeLock(folder, { pid: deadPid(), host: hostname() });
    const started = await startShipped({ folder });
    try {
      expect(JSON.parse(readFileSync(join(folder, "system.lock"), "utf8")).pid).toBe(process.pid);
    } finally {
      await started.close();
    }
    expect(existsSync(join(folder, "system.lock"))).toBe(false);
  }, 120_000);

  it("never takes over a lock of another host (its pid means nothing here)", async () => {
    const folder = tempFolder("system-other-host-");
    writeLock(folder, { pid: deadPid(), host: "another-host.example" });
    await expect(startShipped({ folder })).rejects.toThrow(
      /is in use by process \d+ on another-host\.example/,
    );
  }, 60_000);
});
