import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UsageEntry } from "../../agent/storage/usage-store.js";
import { MemoryLogger, silentLogger } from "../../util/logger.js";
import { FileUsageStore } from "./file-usage-store.js";

const entry = (overrides: Partial<UsageEntry> = {}): UsageEntry => ({
  playerId: "alice",
  day: "2026-05-01",
  workflow: "system:reasoning",
  failed: false,
  inputTokens: 10,
  outputTokens: 5,
  latencyMillis: 100,
  ...overrides,
});

describe("FileUsageStore", () => {
  let folder: string;
  let path: string;
  const now = () => new Date(2026, 4, 1, 12).getTime();
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "system-usage-"));
    path = join(folder, "nested/model-usage.json");
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("persists every add, including 30 parallel ones, for the next open", async () => {
    const store = await FileUsageStore.open({ path, logger: silentLogger, now });
    await Promise.all(
      Array.from({ length: 30 }, (_, index) => store.add(entry({ playerId: `p${index % 3}` }))),
    );
    await store.add(entry({ failed: true, inputTokens: 0, outputTokens: 0 }));
    const reopened = await FileUsageStore.open({ path, logger: silentLogger, now });
    expect(reopened.daily("p0", "2026-05-01")).toEqual({ calls: 10, tokens: 150 });
    expect(reopened.daily("alice", "2026-05-01")).toEqual({ calls: 1, tokens: 0 });
    expect(reopened.query({ playerId: "alice" })[0]).toMatchObject({ calls: 1, failures: 1 });
    expect(reopened.query()).toHaveLength(4);
  });

  it("queries by player, workflow and day range, returning copies", async () => {
    const store = await FileUsageStore.open({ path, logger: silentLogger, now });
    await store.add(entry({ day: "2026-04-30" }));
    await store.add(entry({ workflow: "system:question" }));
    await store.add(entry({ playerId: "bob" }));
    expect(
      store.query({ fromDay: "2026-05-01", playerId: "alice" }).map((record) => record.workflow),
    ).toEqual(["system:question"]);
    expect(store.query({ playerId: "alice" }).map((record) => record.day)).toEqual([
      "2026-04-30",
      "2026-05-01",
    ]);
    expect(store.query({ toDay: "2026-04-30" })).toHaveLength(1);
    const copy = store.query({ playerId: "bob" })[0] as { calls: number };
    copy.calls = 99;
    expect(store.daily("bob", "2026-05-01").calls).toBe(1);
  });

  it("drops days older than the retention window when writing", async () => {
    const store = await FileUsageStore.open({ path, logger: silentLogger, now, retainDays: 2 });
    await store.add(entry({ day: "2026-04-29" }));
    await store.add(entry({ day: "2026-04-30" }));
    const reopened = await FileUsageStore.open({ path, logger: silentLogger, now });
    expect(reopened.query().map((record) => record.day)).toEqual(["2026-04-30"]);
  });

  it("moves a corrupt file aside, logs it and starts fresh", async () => {
    await FileUsageStore.open({ path, logger: silentLogger, now }).then((store) => store.add(entry()));
    await writeFile(path, "{ not json");
    const logger = new MemoryLogger();
    const store = await FileUsageStore.open({ path, logger, now });
    expect(store.query()).toEqual([]);
    expect(logger.has("moved to")).toBe(true);
    expect((await readdir(join(folder, "nested"))).some((name) => name.includes(".corrupt-"))).toBe(true);
  });

  it("refuses a file of an unknown format version", async () => {
    await FileUsageStore.open({ path, logger: silentLogger, now }).then((store) => store.add(entry()));
    const data = JSON.parse(await readFile(path, "utf8"));
    await writeFile(path, JSON.stringify({ ...data, format: 2 }));
    await expect(FileUsageStore.open({ path, logger: silentLogger, now })).rejects.toThrow(/format 2/);
  });
});
