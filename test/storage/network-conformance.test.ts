import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay } from "../../src/agent/storage/usage-store.js";
import { openStorage, StorageOpenError } from "../../src/data/network/open-storage.js";
import { silentLogger } from "../../src/util/logger.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import { type NetworkBackend, openBackend } from "./network-backends.js";

/**
 * The same behaviour from both backends of the network state: the player files of one server (the default) and
 * PostgreSQL. Each test uses its own player ids, so one database serves the whole PostgreSQL run.
 */
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 60_000);
afterAll(() => cluster?.stop());

const backends: readonly [string, () => Promise<string | undefined>][] = [
  ["files", async () => undefined],
  ["postgres", () => cluster.createDatabase("conformance")],
];

/** A stable player UUID per name (the player files take UUIDs only). */
const id = (name: string): string => {
  const hex = createHash("md5").update(name).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-3${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const at = Date.UTC(2026, 4, 1, 12);
const change = (id: string, amount: number, reason = "test") => ({ id, amount, reason, at });

describe.each(backends)("network state on %s", (_name, url) => {
  let backend: NetworkBackend;
  beforeAll(async () => {
    backend = await openBackend(await url());
  }, 30_000);
  afterAll(() => backend?.close());

  describe("points", () => {
    it("credits once per id and reports the balance", async () => {
      const { points } = backend;
      expect(await points.credit(id("p-credit"), change("a", 30))).toEqual({ recorded: true, balance: 30 });
      expect(await points.credit(id("p-credit"), change("a", 30))).toEqual({ recorded: false, balance: 30 });
      expect(await points.credit(id("p-credit"), change("b", 5))).toEqual({ recorded: true, balance: 35 });
      expect(await points.balance(id("p-credit"))).toBe(35);
      expect(await points.balance(id("p-nobody"))).toBe(0);
    });

    it("debits once per id and never below zero", async () => {
      const { points } = backend;
      expect(await points.debit(id("p-debit"), change("early", 1))).toEqual({
        outcome: "insufficient",
        balance: 0,
      });
      await points.credit(id("p-debit"), change("in", 20));
      expect(await points.debit(id("p-debit"), change("d1", 15))).toEqual({ outcome: "done", balance: 5 });
      expect(await points.debit(id("p-debit"), change("d1", 15))).toEqual({
        outcome: "duplicate",
        balance: 5,
      });
      expect(await points.debit(id("p-debit"), change("d2", 6))).toEqual({
        outcome: "insufficient",
        balance: 5,
      });
      expect(await points.debit(id("p-debit"), change("d2", 5))).toEqual({ outcome: "done", balance: 0 });
    });

    it("keeps the history: signed entries, newest last, the latest N", async () => {
      const { points } = backend;
      await points.credit(id("p-history"), change("one", 10, "check_in"));
      await points.debit(id("p-history"), change("two", 4, "shop:bread"));
      await points.credit(id("p-history"), change("three", 1, "admin:Alex"));
      const statement = await points.statement(id("p-history"), 2);
      expect(statement.balance).toBe(7);
      expect(statement.entries.map((entry) => [entry.id, entry.amount, entry.reason, entry.at])).toEqual([
        ["two", -4, "shop:bread", at],
        ["three", 1, "admin:Alex", at],
      ]);
    });

    it("refuses what no backend can store", async () => {
      const { points } = backend;
      await expect(points.credit(id("p-bad"), change("zero", 0))).rejects.toThrow(RangeError);
      await expect(points.credit(id("p-bad"), change("half", 1.5))).rejects.toThrow(RangeError);
      await expect(points.credit(id("p-bad"), change("carried", 1))).rejects.toThrow(RangeError);
      expect(await points.balance(id("p-bad"))).toBe(0);
    });

    it("parallel changes: repeats of one id count once, debits stop at zero", async () => {
      const { points } = backend;
      await Promise.all([
        ...Array.from({ length: 20 }, (_, index) => points.credit(id("p-parallel"), change(`c${index}`, 5))),
        ...Array.from({ length: 20 }, () => points.credit(id("p-parallel"), change("same", 7))),
      ]);
      expect(await points.balance(id("p-parallel"))).toBe(107);
      const debits = await Promise.all(
        Array.from({ length: 15 }, (_, index) => points.debit(id("p-parallel"), change(`d${index}`, 10))),
      );
      expect(debits.filter((debit) => debit.outcome === "done")).toHaveLength(10);
      expect(await points.balance(id("p-parallel"))).toBe(7);
    });
  });

  describe("check-in", () => {
    it("once a day, with the day's reward and points recorded together", async () => {
      const first = await backend.checkIn(id("c-once"), "2026-05-01");
      expect(first).toEqual({
        already: false,
        streak: 1,
        total: 1,
        items: [{ item: "minecraft:bread", count: 3 }],
      });
      const again = await backend.checkIn(id("c-once"), "2026-05-01");
      expect(again).toMatchObject({ already: true, streak: 1, total: 1 });
      const statement = await backend.points.statement(id("c-once"), 10);
      expect(statement.balance).toBe(10);
      expect(statement.entries.map((entry) => [entry.id, entry.reason])).toEqual([
        ["check_in:2026-05-01", "check_in"],
      ]);
    });

    it("keeps the streak on consecutive days, pays the bonus on every 2nd, restarts after a gap", async () => {
      expect(await backend.checkIn(id("c-streak"), "2026-05-01")).toMatchObject({ streak: 1, total: 1 });
      const second = await backend.checkIn(id("c-streak"), "2026-05-02");
      expect(second).toMatchObject({ already: false, streak: 2, total: 2 });
      expect(second.already === false && second.items.map((stack) => stack.item)).toEqual([
        "minecraft:bread",
        "minecraft:diamond",
      ]);
      expect(await backend.checkIn(id("c-streak"), "2026-05-04")).toMatchObject({ streak: 1, total: 3 });
      expect(await backend.points.balance(id("c-streak"))).toBe(30);
    });

    it("parallel check-ins of one player and day: one is paid", async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, () => backend.checkIn(id("c-parallel"), "2026-05-01")),
      );
      expect(outcomes.filter((outcome) => !outcome.already)).toHaveLength(1);
      expect(await backend.points.balance(id("c-parallel"))).toBe(10);
    });
  });

  describe("model quota", () => {
    // today: both stores drop days older than their retention
    const day = localDay(Date.now());
    const quota = (playerId: string, calls: number, tokens = 0) => ({ playerId, day, calls, tokens });
    const call = (playerId: string, tokens: number) => ({
      playerId,
      day,
      workflow: "system:question",
      failed: false,
      inputTokens: tokens,
      outputTokens: 0,
      latencyMillis: 5,
    });

    it("reserves up to the daily limit; a refund gives one back; a recorded call keeps it", async () => {
      const { usage } = backend;
      for (let index = 0; index < 3; index++)
        expect(await usage.reserve(quota(id("q-limit"), 3))).toBeUndefined();
      expect(await usage.reserve(quota(id("q-limit"), 3))).toBe("calls");
      await usage.refund(id("q-limit"), day);
      expect(await usage.reserve(quota(id("q-limit"), 3))).toBeUndefined();
      expect(await usage.reserve(quota(id("q-limit"), 3))).toBe("calls");
      await usage.add(call(id("q-limit"), 12));
      await usage.refund(id("q-limit"), day);
      await usage.refund(id("q-limit"), day);
      expect(usage.daily(id("q-limit"), day)).toEqual({ calls: 1, tokens: 12 });
      expect(usage.query({ playerId: id("q-limit") })).toEqual([
        expect.objectContaining({ calls: 1, failures: 0, inputTokens: 12, workflow: "system:question" }),
      ]);
    });

    it("refuses once the day's tokens are used; no limit means no refusal", async () => {
      const { usage } = backend;
      expect(await usage.reserve(quota(id("q-tokens"), 0, 100))).toBeUndefined();
      await usage.add(call(id("q-tokens"), 100));
      expect(await usage.reserve(quota(id("q-tokens"), 0, 100))).toBe("tokens");
      for (let index = 0; index < 5; index++)
        expect(await usage.reserve(quota(id("q-free"), 0))).toBeUndefined();
    });

    it("parallel reservations: exactly the limit pass", async () => {
      const { usage } = backend;
      const results = await Promise.all(
        Array.from({ length: 25 }, () => usage.reserve(quota(id("q-parallel"), 7))),
      );
      expect(results.filter((result) => result === undefined)).toHaveLength(7);
    });
  });
});

describe("opening the storage", () => {
  it("a database that cannot be reached stops the start with one line, and frees the data folder", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "system-unreachable-"));
    const open = () =>
      openStorage({
        dataDir,
        world: join(dataDir, "world"),
        logger: silentLogger,
        environment: {},
        config: { backend: "postgres", url: "postgres://system@127.0.0.1:1/network", poolSize: 1 },
        lock: true,
      });
    const error = (await open().then(
      () => new Error("opened"),
      (caught: unknown) => caught,
    )) as Error;
    expect(error).toBeInstanceOf(StorageOpenError);
    expect(error.message).toMatch(/^storage: cannot use PostgreSQL at 127\.0\.0\.1:1\/network: /);
    expect(error.message).not.toContain("\n");
    // the lock went with the failed start: the next attempt fails the same way, not on the lock
    await expect(open()).rejects.toThrow(/cannot use PostgreSQL/);
  });
});
