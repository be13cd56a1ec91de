import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { joinPlayer, tempFolder, waitFor } from "./system-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  /** The address printed as `panel on …`. */
  readonly panelUrl: string;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
}

/**
 * `npm start` as a user runs it, in its own data directory and its own process group (as a terminal or a systemd
 * unit has it: `npm` and the server `npm start` execs); resolves once it prints `listening on`.
 */
const npmStart = async (): Promise<Started> => {
  const dataDir = tempFolder("system-npm-start-");
  mkdirSync(join(dataDir, "config", "system"), { recursive: true });
  writeFileSync(
    join(dataDir, "config", "system", "server.json"),
    JSON.stringify({ generation: "superflat" }),
  );
  const child = spawn("npm", ["start", "--", "--port", "0", "--panel-port", "0", "--data-dir", dataDir], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, SYSTEM_MODEL_BASE_URL: "", SYSTEM_MODEL: "" },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const line = await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`npm start exited during start:\n${output}`);
    return /listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1];
  }, 60_000);
  const panelUrl = /panel on (http:\/\/\S+)/.exec(output)?.[1] ?? "";
  return { child, port: Number(line), panelUrl, output: () => output, exited };
};

/** Whether something still accepts connections on the port. */
const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** The exit of a clean stop: code 0, the signal named once, `stopped`, no forced exit. */
const expectCleanStop = async (started: Started, signal: NodeJS.Signals): Promise<void> => {
  expect(await started.exited, started.output()).toEqual({ code: 0, signal: null });
  expect(started.output().split(`${signal}: shutting down`)).toHaveLength(2);
  expect(started.output()).toContain("[System] stopped");
  expect(started.output()).not.toContain("again: exiting");
  // the game server process went with it: nothing listens on its port any more
  expect(await accepts(started.port)).toBe(false);
};

describe("npm start", () => {
  let running: ChildProcess | undefined;
  afterEach(() => {
    // the whole group: the server under npm too, not npm alone
    if (running?.exitCode === null && running.pid !== undefined) process.kill(-running.pid, "SIGKILL");
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`serves a world a bot can use and its panel on --panel-port 0, and stops cleanly (flushed, exit 0) on ${signal} to the npm process`, async () => {
      const started = await npmStart();
      running = started.child;
      expect(started.panelUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${started.panelUrl}/`)).status).toBe(200);
      const player = await joinPlayer(started.port, "Steve");
      const card = await player.say("/system item minecraft:diamond", (m) =>
        m.text.includes("minecraft:diamond"),
      );
      expect(card.text).toMatch(/Diamond/);
      started.child.kill(signal);
      await expectCleanStop(started, signal);
      player.quit();
    }, 120_000);
  }

  // A terminal's Ctrl+C signals the whole group, and so does systemd's default KillMode with SIGTERM: the server
  // gets the signal itself and again from npm, which forwards its own copy.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`stops cleanly (flushed, exit 0) on ${signal} to its whole process group`, async () => {
      const started = await npmStart();
      running = started.child;
      process.kill(-started.child.pid!, signal);
      await expectCleanStop(started, signal);
    }, 120_000);
  }
});
