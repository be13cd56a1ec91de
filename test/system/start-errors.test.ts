import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "../../src/host/gateway/start-gateway.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { type RconStandIn, startRconStandIn } from "../support/rcon-stand-in.js";
import { type PlainBackend, startPlainBackend, tempFolder } from "./gateway-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PASSWORD = "start-errors-secret";

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command as an admin types it (`npm start -- …`, `npx system …`) and waits for it to end by itself. */
const run = (command: string, args: readonly string[]): Promise<Finished> =>
  new Promise((resolve) => {
    const child: ChildProcess = spawn(command, args, {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, SYSTEM_MODEL_BASE_URL: "", SYSTEM_MODEL: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });

/** The lines System wrote (npm's own `> system@… start` header left out). */
const systemLines = (text: string): string[] =>
  text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith(">"));

const occupy = (): Promise<{ server: Server; port: number }> =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, port: (server.address() as { port: number }).port }),
    );
  });

/**
 * What an admin sees when a start cannot go on: one line saying what is wrong and what to do, exit code 1, no stack
 * trace, and no `panel on …` announced for a server that never listened.
 */
describe("start errors", () => {
  let taken: { server: Server; port: number };
  let backend: PlainBackend;
  beforeAll(async () => {
    taken = await occupy();
    backend = await startPlainBackend();
  }, 60_000);
  afterAll(async () => {
    taken?.server.close();
    await backend?.close();
  });

  it("npm start on a game port in use: one line with what to do, before any panel is announced", async () => {
    const dataDir = tempFolder("start-errors-embedded-");
    const finished = await run("npm", ["start", "--", "--port", String(taken.port), "--data-dir", dataDir]);
    expect(finished.code, finished.stderr).toBe(1);
    expect(systemLines(finished.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\[System\\] ERROR System failed to start: cannot listen on 127\\.0\\.0\\.1:${taken.port}: the port is already in use .*start with --port N`,
        ),
      ),
    ]);
    expect(finished.stdout).not.toContain("panel on");
    expect(`${finished.stdout}${finished.stderr}`).not.toMatch(/\n\s+at |Timeout waiting/);
  }, 90_000);

  it("the gateway on a port in use says it the same way", async () => {
    const dataDir = tempFolder("start-errors-gateway-");
    const finished = await run("npm", [
      "start",
      "--",
      "--backend",
      `127.0.0.1:${backend.port}`,
      "--port",
      String(taken.port),
      "--data-dir",
      dataDir,
    ]);
    expect(finished.code, finished.stderr).toBe(1);
    expect(systemLines(finished.stderr)).toEqual([
      expect.stringMatching(/^system gateway: cannot listen on .*already in use .*start with --port N/),
    ]);
    expect(finished.stdout).not.toContain("panel on");
  }, 90_000);

  it("a flag without its value names the flag, not the next option", async () => {
    const finished = await run("npm", [
      "start",
      "--",
      "--port",
      "--data-dir",
      tempFolder("start-errors-flag-"),
    ]);
    expect(finished.code).toBe(1);
    expect(systemLines(finished.stderr)).toEqual([
      expect.stringContaining("--port needs a value before --data-dir (usage: system serve"),
    ]);
  }, 60_000);

  it("system gateway --help prints the usage and exits 0", async () => {
    const finished = await run("node", ["bin/system.js", "gateway", "--help"]);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toMatch(/^usage: system gateway --backend HOST:PORT/);
    expect(finished.stdout).toContain("read from the data folder");
    expect(finished.stderr).toBe("");
  }, 60_000);
});

/**
 * One base for relative paths: `--rcon-password-file` and `rcon.passwordFile` are read from the data folder (as
 * `forwardingSecretFile` is), whatever the working folder or the folder of gateway.json.
 */
describe("relative paths of the gateway", () => {
  let backend: PlainBackend;
  let standIn: RconStandIn;
  beforeAll(async () => {
    backend = await startPlainBackend();
    standIn = await startRconStandIn({ server: backend.server, password: PASSWORD });
  }, 60_000);
  afterAll(async () => {
    await standIn?.close();
    await backend?.close();
  });

  const dataDirWithSecret = (gateway: Record<string, unknown>): string => {
    const dataDir = tempFolder("start-errors-paths-");
    mkdirSync(join(dataDir, "secrets"), { recursive: true });
    mkdirSync(join(dataDir, "config", "system"), { recursive: true });
    writeFileSync(join(dataDir, "secrets", "rcon.secret"), `${PASSWORD}\n`);
    chmodSync(join(dataDir, "secrets", "rcon.secret"), 0o600);
    writeFileSync(join(dataDir, "config", "system", "gateway.json"), JSON.stringify(gateway));
    return dataDir;
  };

  it.each([
    ["the flag", {}, ["--rcon", "RCON", "--rcon-password-file", "secrets/rcon.secret"]],
    ["the file", { rcon: { port: "RCON", passwordFile: "secrets/rcon.secret" } }, []],
  ])(
    "%s: secrets/rcon.secret is found in the data folder",
    async (_, fileRcon, flags) => {
      const gatewayJson = JSON.parse(JSON.stringify(fileRcon).replace('"RCON"', String(standIn.port)));
      const dataDir = dataDirWithSecret(gatewayJson);
      const logger = new MemoryLogger();
      const gateway = await startGateway({
        argv: [
          "--backend",
          `127.0.0.1:${backend.port}`,
          "--port",
          "0",
          "--panel-port",
          "0",
          "--data-dir",
          dataDir,
          ...flags.map((flag) => (flag === "RCON" ? `127.0.0.1:${standIn.port}` : flag)),
        ],
        logger,
        announce: () => {},
        environment: {},
      });
      try {
        expect(logger.lines.join("\n")).toContain(`RCON at 127.0.0.1:${standIn.port}`);
      } finally {
        await gateway.close();
      }
    },
    90_000,
  );
});
