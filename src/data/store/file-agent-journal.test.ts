import { spawnSync } from "node:child_process";
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentException } from "../../agent/agent-exception.js";
import { CorruptFileError } from "../../util/corrupt-file-error.js";
import { MemoryLogger } from "../../util/logger.js";
import { FileAgentJournal } from "./file-agent-journal.js";
import { headerPayload } from "./journal-records.js";
import { encodeFrame } from "./record-frame.js";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "journal-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const event = (id: string) => ({
  id,
  type: "test:reward",
  input: { amount: 1 },
  playerId: "p1",
  policy: { steps: 4 },
  state: "QUEUED" as const,
  attempts: 0,
});

const logPath = async (): Promise<string> => {
  const name = (await readdir(folder)).find((entry) => entry.endsWith(".log"));
  if (name === undefined) throw new Error("no log");
  return join(folder, name);
};

describe("FileAgentJournal", () => {
  it("keeps receipts and events across a reopen, with copies on read", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r1/pay", "test:pay");
    await journal.completeStep("r1/pay", { paid: 3 });
    await journal.putEvent(event("e1"));
    const read = journal.event("e1");
    (read?.input as { amount: number }).amount = 99;
    expect(journal.event("e1")?.input).toEqual({ amount: 1 });
    await journal.close();
    const reopened = await FileAgentJournal.open({ folder });
    expect(reopened.step("r1/pay")).toMatchObject({ state: "DONE", tool: "test:pay", result: { paid: 3 } });
    expect(reopened.unfinishedEvents().map((task) => task.id)).toEqual(["e1"]);
    await reopened.close();
  });

  it("dedupes events by id, including after a restart", async () => {
    const journal = await FileAgentJournal.open({ folder });
    expect((await journal.putEvent(event("e1"))).created).toBe(true);
    const again = await journal.putEvent({ ...event("e1"), input: { amount: 5 } });
    expect(again.created).toBe(false);
    await journal.close();
    const reopened = await FileAgentJournal.open({ folder });
    const third = await reopened.putEvent(event("e1"));
    expect(third).toMatchObject({ created: false, existing: { input: { amount: 1 } } });
    await reopened.close();
  });

  it("ignores a torn tail record and loses nothing acknowledged before it", async () => {
    const logger = new MemoryLogger();
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r1/a", "test:pay");
    await journal.completeStep("r1/a", { ok: true });
    await journal.close();
    const frame = encodeFrame(
      Buffer.from(JSON.stringify({ t: "step", key: "r1/b", tool: "x", state: "RUNNING" })),
    );
    await appendFile(await logPath(), frame.subarray(0, frame.length - 5));
    const reopened = await FileAgentJournal.open({ folder, logger });
    expect(reopened.step("r1/a")?.state).toBe("DONE");
    expect(reopened.step("r1/b")).toBeUndefined();
    expect(logger.has("torn tail")).toBe(true);
    expect((await readdir(folder)).some((name) => name.includes(".log.torn-"))).toBe(true);
    await reopened.beginStep("r1/c", "test:pay");
    await reopened.close();
    const third = await FileAgentJournal.open({ folder });
    expect(third.step("r1/c")?.state).toBe("RUNNING");
    await third.close();
  });

  it("keeps a log with a damaged header aside and refuses to open, naming the file", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r1/a", "test:pay");
    await journal.completeStep("r1/a", { ok: true });
    await journal.close();
    const path = await logPath();
    const bytes = await readFile(path);
    bytes[10] = (bytes[10] ?? 0) ^ 0xff; // inside the header payload: its checksum no longer matches
    await writeFile(path, bytes);
    const error = await FileAgentJournal.open({ folder }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptFileError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain("unreadable header");
    const aside = (await readdir(folder)).filter((name) => name.startsWith("journal-0.log.corrupt-"));
    expect(aside).toHaveLength(1);
    expect((error as Error).message).toContain(join(folder, aside[0] ?? ""));
    expect(await readFile(join(folder, aside[0] ?? ""))).toEqual(bytes);
    expect(await readdir(folder)).not.toContain("journal.lock");
  });

  it("keeps a log whose header is another file's aside and refuses to open", async () => {
    const foreign = encodeFrame(headerPayload("system-journal-snapshot", 0));
    await writeFile(join(folder, "journal-0.log"), foreign);
    await expect(FileAgentJournal.open({ folder })).rejects.toThrow(
      /journal-0\.log has an unreadable header/,
    );
    const names = await readdir(folder);
    expect(names.filter((name) => name.startsWith("journal-0.log.corrupt-"))).toHaveLength(1);
    expect(names).not.toContain("journal-0.log");
  });

  it("recreates a log left empty or half-headed by a crash while creating it", async () => {
    const header = encodeFrame(headerPayload("system-journal-log", 0));
    for (const bytes of [Buffer.alloc(0), header.subarray(0, 7), Buffer.alloc(header.length)]) {
      await writeFile(join(folder, "journal-0.log"), bytes);
      const journal = await FileAgentJournal.open({ folder });
      await journal.beginStep("r1/a", "test:pay");
      await journal.close();
      const reopened = await FileAgentJournal.open({ folder });
      expect(reopened.step("r1/a")?.state).toBe("RUNNING");
      await reopened.close();
    }
    expect((await readdir(folder)).filter((name) => name.includes(".corrupt-"))).toEqual([]);
  });

  it("refuses a log damaged in the middle instead of dropping the sound records after the damage", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r1/a", "test:pay");
    await journal.beginStep("r1/b", "test:pay");
    await journal.completeStep("r1/b", { ok: true });
    await journal.close();
    const path = await logPath();
    const bytes = await readFile(path);
    const header = encodeFrame(headerPayload("system-journal-log", 0)).length;
    bytes[header + 12] = (bytes[header + 12] ?? 0) ^ 0xff; // inside the first step record
    await writeFile(path, bytes);
    await expect(FileAgentJournal.open({ folder })).rejects.toThrow(
      new RegExp(
        `${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is damaged: .* followed by 2 sound records`,
      ),
    );
    expect(await readFile(path)).toEqual(bytes);
    expect(
      (await readdir(folder)).filter((name) => name.includes(".torn-") || name.includes(".corrupt-")),
    ).toEqual([]);
  });

  it("detects a checksum mismatch in the last record", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r1/a", "test:pay");
    await journal.close();
    const path = await logPath();
    const bytes = await readFile(path);
    bytes[bytes.length - 2] = (bytes[bytes.length - 2] ?? 0) ^ 0xff;
    await writeFile(path, bytes);
    const reopened = await FileAgentJournal.open({ folder });
    expect(reopened.step("r1/a")).toBeUndefined();
    await reopened.close();
  });

  it("keeps an entry with an unknown state as unreadable, never as new work or a duplicate", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.close();
    const record = { ...event("e9"), t: "event", state: "PAUSED", createdAt: 1, updatedAt: 1 };
    await appendFile(await logPath(), encodeFrame(Buffer.from(JSON.stringify(record))));
    const reopened = await FileAgentJournal.open({ folder });
    expect(reopened.unfinishedEvents()).toEqual([]);
    expect(reopened.unreadable()).toEqual([{ table: "events", key: "e9", reason: "unknown state PAUSED" }]);
    expect(await reopened.putEvent(event("e9"))).toEqual({ created: false, existing: undefined });
    await reopened.compact();
    await reopened.close();
    const third = await FileAgentJournal.open({ folder });
    expect(third.unreadable()).toHaveLength(1);
    await third.close();
  });

  it("survives compaction and keeps insertion order and unfinished entries", async () => {
    const journal = await FileAgentJournal.open({ folder, compactBytes: 2000 });
    for (let index = 0; index < 60; index++) {
      await journal.beginStep(`r/${index}`, "test:pay");
      if (index % 2 === 0) await journal.completeStep(`r/${index}`, { index });
    }
    await journal.close();
    const names = await readdir(folder);
    expect(names).toContain("snapshot.bin");
    expect(names.filter((name) => name.endsWith(".log"))).toHaveLength(1);
    const reopened = await FileAgentJournal.open({ folder });
    expect(reopened.step("r/58")).toMatchObject({ state: "DONE", result: { index: 58 } });
    expect(reopened.step("r/59")?.state).toBe("RUNNING");
    expect(reopened.stats().steps).toBe(60);
    await reopened.close();
  });

  it("refuses a journal of an unknown format version loudly", async () => {
    const header = { t: "header", format: "system-journal-snapshot", version: 99, generation: 1 };
    await writeFile(join(folder, "snapshot.bin"), encodeFrame(Buffer.from(JSON.stringify(header))));
    await expect(FileAgentJournal.open({ folder })).rejects.toThrow(/version 99/);
    expect(await readdir(folder)).toContain("snapshot.bin");
  });

  it("keeps a snapshot with an unreadable header aside; its logs are then refused, not replayed alone", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r/1", "test:pay");
    await journal.compact();
    await journal.beginStep("r/2", "test:pay");
    await journal.close();
    const snapshot = join(folder, "snapshot.bin");
    const bytes = await readFile(snapshot);
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    await writeFile(snapshot, bytes);
    await expect(FileAgentJournal.open({ folder })).rejects.toThrow(
      /journal snapshot .*snapshot\.bin has an unreadable header/,
    );
    const aside = (await readdir(folder)).find((name) => name.startsWith("snapshot.bin.corrupt-"));
    expect(await readFile(join(folder, aside ?? ""))).toEqual(bytes);
    await expect(FileAgentJournal.open({ folder })).rejects.toThrow(
      /journal-1\.log .*snapshot\.bin is missing/,
    );
  });

  it("refuses a damaged snapshot instead of half-reading it", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r/1", "test:pay");
    await journal.compact();
    await journal.close();
    const bytes = await readFile(join(folder, "snapshot.bin"));
    await writeFile(join(folder, "snapshot.bin"), bytes.subarray(0, bytes.length - 3));
    await expect(FileAgentJournal.open({ folder })).rejects.toThrow(/damaged/);
  });

  it("evicts old terminal events and reports STORAGE_FULL when all are unfinished", async () => {
    const journal = await FileAgentJournal.open({ folder, events: { maxEntries: 2, maxBytes: 100_000 } });
    await journal.putEvent(event("a"));
    await journal.putEvent(event("b"));
    await journal.updateEvent("a", { state: "SUCCEEDED" });
    await journal.putEvent(event("c"));
    expect(journal.event("a")).toBeUndefined();
    const full = await journal.putEvent(event("d")).catch((error: unknown) => error);
    expect((full as AgentException).failure().code).toBe("STORAGE_FULL");
    expect(journal.unfinishedEvents().map((task) => task.id)).toEqual(["b", "c"]);
    await journal.close();
  });

  it("refuses a journal locked by another running process and takes over a dead one's lock", async () => {
    await writeFile(join(folder, "journal.lock"), String(process.ppid));
    await expect(FileAgentJournal.open({ folder })).rejects.toThrow(/held by running process/);
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
    await writeFile(join(folder, "journal.lock"), String(dead));
    const journal = await FileAgentJournal.open({ folder });
    expect(await readFile(join(folder, "journal.lock"), "utf8")).toBe(String(process.pid));
    await journal.close();
    expect(await readdir(folder)).not.toContain("journal.lock");
  });

  it("never evicts a DONE receipt of an unfinished event's step (recovery still needs it)", async () => {
    const journal = await FileAgentJournal.open({ folder, steps: { maxEntries: 2, maxBytes: 100_000 } });
    await journal.putEvent(event("e1"));
    await journal.beginStep("event:e1/grant", "test:pay");
    await journal.completeStep("event:e1/grant", { ok: 1 });
    await journal.beginStep("r9/other", "test:pay");
    await journal.completeStep("r9/other", { ok: 2 });
    await journal.beginStep("r9/next", "test:pay");
    expect(journal.step("event:e1/grant")?.state).toBe("DONE");
    expect(journal.step("r9/other")).toBeUndefined();
    await journal.updateEvent("e1", { state: "SUCCEEDED" });
    await journal.completeStep("r9/next", { ok: 3 });
    await journal.beginStep("r9/last", "test:pay");
    expect(journal.step("event:e1/grant")).toBeUndefined();
    await journal.close();
  });

  it("commits concurrent writes in groups, each durable on resolve", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await Promise.all(Array.from({ length: 32 }, (_, index) => journal.beginStep(`c/${index}`, "test:pay")));
    await journal.close();
    const reopened = await FileAgentJournal.open({ folder });
    expect(reopened.stats().steps).toBe(32);
    await reopened.close();
  });
});
