import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../src/game/context-types.js";
import { startSystem } from "../../src/host/flying-squid/start-system.js";
import { MemoryLogger } from "../../src/util/logger.js";

/**
 * "Corrupt files never lose data silently": the real server, started exactly as `npm start` does, over a data
 * directory holding one damaged file. Files that hold decisions or records refuse the start, naming the file
 * and leaving its bytes on disk; a damaged knowledge database only disables the knowledge feature.
 */
let dir: string;
let logger: MemoryLogger;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "system-corrupt-"));
  logger = new MemoryLogger();
  await place(join(dir, "config", "system", "server.json"), JSON.stringify({ generation: "superflat" }));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const place = async (path: string, bytes: string | Buffer): Promise<void> => {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
};

const start = () =>
  startSystem({
    clock: systemClock(),
    argv: ["--port", "0", "--panel-port", "0", "--data-dir", dir],
    environment: {},
    logger,
    announce: () => {},
  });

/** Starts the server and expects it to refuse; returns the error message. */
const refusal = async (): Promise<string> => {
  const outcome = await start().then(
    async (system) => {
      await system.close();
      return undefined;
    },
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  expect(outcome, "the server started over a corrupt file").toBeDefined();
  return outcome ?? "";
};

describe("corrupt files at start", () => {
  it("a journal log with an unreadable header: refused, the log kept aside with its bytes", async () => {
    const folder = join(dir, "world", "system", "journal");
    const log = join(folder, "journal-0.log");
    const bytes = randomBytes(512);
    await place(log, bytes);
    const message = await refusal();
    expect(message).toContain(log);
    expect(message).toContain("unreadable header");
    const aside = (await readdir(folder)).filter((name) => name.startsWith("journal-0.log.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(message).toContain(join(folder, aside[0] ?? ""));
    expect(await readFile(join(folder, aside[0] ?? ""))).toEqual(bytes);
  });

  it("a truncated access.json: refused, naming the file; the file is not replaced by defaults", async () => {
    const path = join(dir, "config", "system", "access.json");
    const text =
      '{"aiByDefault": false, "defaultMode": "routing", "players": {"uuid-steve": {"features": {"sys';
    await place(path, text);
    const message = await refusal();
    expect(message).toContain(`${path} is not valid JSON`);
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("an invalid server.json: refused, naming the file and the field, never replaced by a default world", async () => {
    const path = join(dir, "config", "system", "server.json");
    const text = JSON.stringify({ generation: "superflat", worldFolder: "/srv/my-world", port: "twenty" });
    await place(path, text);
    const message = await refusal();
    expect(message).toContain(path);
    expect(message).toContain("port");
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("a schema-invalid access.json: refused, naming the file and the field", async () => {
    const path = join(dir, "config", "system", "access.json");
    const text = JSON.stringify({ aiByDefault: false, players: { "uuid-steve": { mode: "everything" } } });
    await place(path, text);
    const message = await refusal();
    expect(message).toContain(path);
    expect(message).toContain("players.uuid-steve.mode");
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("a garbage known-players.json: refused, naming the file; the file is kept as it is", async () => {
    const path = join(dir, "world", "system", "known-players.json");
    const bytes = randomBytes(256);
    await place(path, bytes);
    const message = await refusal();
    expect(message).toContain(path);
    expect(await readFile(path)).toEqual(bytes);
  });

  it("a known-players.json of the wrong shape: refused, naming the file and the field", async () => {
    const path = join(dir, "world", "system", "known-players.json");
    const text = JSON.stringify({ "uuid-alex": "Alex", "uuid-steve": 42 });
    await place(path, text);
    const message = await refusal();
    expect(message).toContain(path);
    expect(message).toContain("uuid-steve");
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("a corrupt knowledge.sqlite: the server starts without the knowledge feature and says why in one line", async () => {
    const path = join(dir, "world", "system", "knowledge.sqlite");
    const bytes = randomBytes(16_384);
    await place(path, bytes);
    const system = await start();
    try {
      expect(system.assistant.modules.isInstalled("system:knowledge")).toBe(false);
      const lines = logger.lines.filter((line) => line.includes(path));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(
        `knowledge database ${path} is unreadable (file is not a database); a copy is kept at ${path}.corrupt-`,
      );
      expect(lines[0]).toContain("the knowledge feature is unavailable");
    } finally {
      await system.close();
    }
    expect(await readFile(path)).toEqual(bytes);
  });
});
