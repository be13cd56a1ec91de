import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { command, recordChat } from "../e2e/assistant-support.js";
import { joinBot, type PlainBackend, startPlainBackend, tempFolder, waitFor } from "./gateway-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Started {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** `npm start -- <flags>` as a user runs it, in its own process group (a failed test kills it under npm too). */
const npmStart = (flags: readonly string[]): Started => {
  const child = spawn("npm", ["start", "--", ...flags], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, SYSTEM_MODEL_BASE_URL: "", SYSTEM_MODEL: "" },
  });
  let output = "";
  const collect = (chunk: Buffer): void => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
};

const listeningPort = async (started: Started): Promise<number> =>
  Number(await waitFor(() => /listening on 127\.0\.0\.1:(\d+)/.exec(started.output())?.[1], 90_000));

/** A bot joins through what `npm start` started and `/system help` answers there. */
const systemAnswers = async (port: number, name: string): Promise<void> => {
  let chat: ReturnType<typeof recordChat> = [];
  const bot = await joinBot(port, name, (joining) => {
    chat = recordChat(joining);
  });
  try {
    const help = await command(bot, chat, "/system help", (message) =>
      message.text.startsWith("What you can do now"),
    );
    expect(help.text).toContain("/system item <query>");
  } finally {
    bot.quit();
  }
};

/**
 * `npm start` runs the gateway in front of the admin's server when `--backend` is given or the data directory holds
 * `config/system/gateway.json` (its flags override the file), printing `listening on HOST:PORT` as the embedded
 * world does; a bot joins through it and uses `/system`. The backend is a plain flying-squid world.
 */
describe("npm start with a backend: the gateway", () => {
  let backend: PlainBackend;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    backend = await startPlainBackend();
  }, 60_000);

  afterEach(() => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  });

  afterAll(async () => {
    await backend?.close();
  });

  it("runs the gateway with --backend, and a bot uses /system through it", async () => {
    const dataDir = tempFolder("npm-gateway-flag-");
    const started = npmStart([
      "--backend",
      `127.0.0.1:${backend.port}`,
      "--port",
      "0",
      "--panel-port",
      "0",
      "--data-dir",
      dataDir,
    ]);
    children.push(started.child);
    const port = await listeningPort(started);
    // info lines are written once per event-loop turn: the relaying line may follow `listening on`
    await expect.poll(() => started.output()).toContain(`relaying to 127.0.0.1:${backend.port}`);
    // the gateway's world is the backend's: no embedded world was made
    expect(existsSync(join(dataDir, "world", "level.dat"))).toBe(false);
    await systemAnswers(port, "FlagUser");
  }, 120_000);

  it("runs the gateway from gateway.json, its port overridden by --port; a missing backend is one line and exit 1", async () => {
    const dataDir = tempFolder("npm-gateway-file-");
    mkdirSync(join(dataDir, "config/system"), { recursive: true });
    writeFileSync(
      join(dataDir, "config/system/gateway.json"),
      JSON.stringify({ listen: "127.0.0.1:1", backend: `127.0.0.1:${backend.port}` }),
    );
    const started = npmStart(["--port", "0", "--panel-port", "0", "--data-dir", dataDir]);
    children.push(started.child);
    const port = await listeningPort(started);
    expect(port).not.toBe(1);
    // info lines are written once per event-loop turn: the relaying line may follow `listening on`
    await expect.poll(() => started.output()).toContain(`relaying to 127.0.0.1:${backend.port}`);
    await systemAnswers(port, "FileUser");

    const empty = tempFolder("npm-gateway-nobackend-");
    mkdirSync(join(empty, "config/system"), { recursive: true });
    writeFileSync(join(empty, "config/system/gateway.json"), JSON.stringify({ listen: "127.0.0.1:0" }));
    const refused = npmStart(["--data-dir", empty]);
    children.push(refused.child);
    expect(await refused.exited).toBe(1);
    const lines = refused
      .output()
      .split("\n")
      .filter((line) => line.startsWith("system gateway:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("no backend");
    expect(refused.output()).not.toMatch(/\n\s+at /);
  }, 180_000);
});
