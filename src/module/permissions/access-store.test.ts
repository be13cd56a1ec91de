import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentException } from "../../agent/agent-exception.js";
import { MemoryLogger } from "../../util/logger.js";
import { AccessStore } from "./access-store.js";

let folder: string;
let path: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "system-access-"));
  path = join(folder, "access.json");
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const DENIED = {
  aiByDefault: true,
  defaultMode: "routing",
  players: { "uuid-steve": { features: { "system:search": false } } },
};

describe("AccessStore", () => {
  it("refuses to start from a truncated access.json instead of re-granting denied features", async () => {
    const text = JSON.stringify(DENIED).slice(0, 40);
    await writeFile(path, text);
    const store = new AccessStore(path, new MemoryLogger());
    await expect(store.reload()).rejects.toThrow(`${path} is not valid JSON`);
    await expect(store.update("uuid-alex", () => ({ ai: true }))).rejects.toThrow();
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("refuses to start from a schema-invalid access.json, naming the field", async () => {
    const text = JSON.stringify({ ...DENIED, players: { "uuid-steve": { mode: "everything" } } });
    await writeFile(path, text);
    const store = new AccessStore(path, new MemoryLogger());
    const error = await store.reload().catch((caught: unknown) => caught);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain("players.uuid-steve.mode");
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("a reload of a bad file keeps the last good access and refuses grants until the file is fixed", async () => {
    await writeFile(path, JSON.stringify(DENIED));
    const logger = new MemoryLogger();
    const store = new AccessStore(path, logger);
    expect(await store.reload()).toBe(true);
    const broken = JSON.stringify({ ...DENIED, aiByDefault: "yes" });
    await writeFile(path, broken);
    expect(await store.reload()).toBe(false);
    expect(store.player("uuid-steve").features).toEqual({ "system:search": false });
    expect(logger.lines.some((line) => line.includes(path) && line.includes("aiByDefault"))).toBe(true);
    const refused = await store
      .update("uuid-alex", () => ({ features: { "system:search": true } }))
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(AgentException);
    expect((refused as AgentException).failure()).toEqual({
      code: "ACCESS_FILE_INVALID",
      key: "system.access.file_invalid",
      args: [path],
    });
    expect(await readFile(path, "utf8")).toBe(broken);
    await writeFile(path, JSON.stringify(DENIED));
    expect(await store.reload()).toBe(true);
    await store.update("uuid-alex", () => ({ ai: false }));
    expect(JSON.parse(await readFile(path, "utf8")).players).toEqual({
      ...DENIED.players,
      "uuid-alex": { ai: false },
    });
  });

  it("starts from the defaults when access.json does not exist yet", async () => {
    const store = new AccessStore(path, new MemoryLogger());
    expect(await store.reload()).toBe(true);
    expect(store.get()).toEqual({
      aiByDefault: true,
      defaultMode: "routing",
      allowedModes: ["simple", "routing", "ask", "full"],
      players: {},
    });
  });
});
