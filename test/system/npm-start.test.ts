import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { joinPlayer, tempFolder, waitFor } from "./system-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `npm start` as a user runs it, in its own data directory; resolves once it prints `listening on`. */
const npmStart = async (): Promise<{
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
}> => {
  const dataDir = tempFolder("system-npm-start-");
  mkdirSync(join(dataDir, "config", "system"), { recursive: true });
  writeFileSync(
    join(dataDir, "config", "system", "server.json"),
    JSON.stringify({ generation: "superflat" }),
  );
  const child = spawn("npm", ["start", "--", "--port", "0", "--data-dir", dataDir], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
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
  const line = await waitFor(() => /listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1], 60_000);
  return { child, port: Number(line), output: () => output, exited };
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

describe("npm start", () => {
  let running: ChildProcess | undefined;
  afterEach(() => {
    if (running?.exitCode === null) running.kill("SIGKILL");
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`serves a world a bot can use, and stops cleanly (flushed, exit 0) on ${signal} to the npm process`, async () => {
      const started = await npmStart();
      running = started.child;
      const player = await joinPlayer(started.port, "Steve");
      const card = await player.say("/system item minecraft:diamond", (m) =>
        m.text.includes("minecraft:diamond"),
      );
      expect(card.text).toMatch(/Diamond/);
      started.child.kill(signal);
      expect(await started.exited, started.output()).toEqual({ code: 0, signal: null });
      expect(started.output()).toContain(`${signal}: shutting down`);
      expect(started.output()).toContain("stopped");
      // the game server process went with it: nothing listens on its port any more
      expect(await accepts(started.port)).toBe(false);
      player.quit();
    }, 120_000);
  }
});
