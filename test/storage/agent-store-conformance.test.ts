import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentException } from "../../src/agent/agent-exception.js";
import type { AgentStore } from "../../src/agent/storage/agent-store.js";
import { DataStorage, ModuleStorage } from "../../src/agent/storage/module-storage.js";
import { ModuleData } from "../../src/agent/storage/player-data.js";
import { openStorage } from "../../src/data/network/open-storage.js";
import { PostgresAgentStore } from "../../src/data/network/postgres-agent-store.js";
import { FileAgentStore } from "../../src/data/store/file-agent-store.js";
import { codec } from "../../src/util/codec.js";
import { Identifier } from "../../src/util/identifier.js";
import { MemoryLogger, silentLogger } from "../../src/util/logger.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

/** A counter and an ordered map of named entries; mutators mark dirty only on a real change. */
class Tally extends DataStorage<{ count: number; named: Record<string, number> }> {
  count: number;
  readonly named: Record<string, number>;
  constructor(data?: { count: number; named: Record<string, number> }) {
    super();
    this.count = data?.count ?? 0;
    this.named = { ...(data?.named ?? {}) };
  }
  add(amount: number): void {
    if (amount === 0) return;
    this.count += amount;
    this.markDirty();
  }
  name(key: string, value: number): void {
    this.named[key] = value;
    this.markDirty();
  }
  toData() {
    return { count: this.count, named: this.named };
  }
}

const TALLY = ModuleStorage.of({
  owner: Identifier.parse("test:tally"),
  type: "tally",
  codecId: Identifier.parse("test:tally_v1"),
  codec: codec(z.object({ count: z.number().int(), named: z.record(z.string(), z.number()) })),
  factory: (data) => new Tally(data),
});

let serial = 0;
/** A fresh player UUID per test, so one database serves the whole run. */
const freshPlayer = (): string => `00000000-0000-3000-8000-${String(++serial).padStart(12, "0")}`;

/** Two stores of one backend: two servers of a network on PostgreSQL; the one store of a server for files. */
interface Pair {
  readonly a: AgentStore;
  readonly b: AgentStore;
  close(): Promise<void>;
}

let cluster: PostgresCluster;
let url: string;
beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase("agent_store");
  // the tables come from the migrations a server applies at start
  const storage = await openStorage({
    dataDir: mkdtempSync(join(tmpdir(), "agent-store-")),
    world: "unused",
    logger: silentLogger,
    environment: {},
    config: { backend: "postgres", url, poolSize: 2 },
    lock: false,
  });
  await storage.close();
}, 60_000);
afterAll(() => cluster?.stop());

const openPair: Record<"files" | "postgres", (options?: { recordMaxBytes?: number }) => Promise<Pair>> = {
  files: async (options = {}) => {
    const world = mkdtempSync(join(tmpdir(), "agent-store-files-"));
    const store = new FileAgentStore({
      world,
      ...(options.recordMaxBytes === undefined ? {} : { playerMaxBytes: options.recordMaxBytes }),
    });
    return {
      a: store,
      b: store,
      close: async () => {
        await store.close();
        rmSync(world, { recursive: true, force: true });
      },
    };
  },
  postgres: async (options = {}) => {
    const pools = [
      new pg.Pool({ connectionString: url, max: 4 }),
      new pg.Pool({ connectionString: url, max: 4 }),
    ] as const;
    const a = new PostgresAgentStore({ pool: pools[0], ...options });
    const b = new PostgresAgentStore({ pool: pools[1], ...options });
    return { a, b, close: async () => void (await Promise.all(pools.map((pool) => pool.end()))) };
  },
};

const count = (store: AgentStore, playerId: string): Promise<number> =>
  store.read(playerId, (data) => ModuleData.get(data, TALLY).count);

describe.each(["files", "postgres"] as const)("AgentStore conformance on %s", (backend) => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await openPair[backend]();
  });
  afterAll(() => pair?.close());

  it("reads an unknown player as an empty record", async () => {
    const player = freshPlayer();
    expect(await pair.a.record(player)).toEqual({ playerId: player, generation: 0, moduleData: {} });
    expect(await count(pair.a, player)).toBe(0);
  });

  it("commits a transaction the other server reads; reads are copies", async () => {
    const player = freshPlayer();
    const value = await pair.a.transaction(player, (data) => {
      ModuleData.get(data, TALLY).add(5);
      data.setPreferences({ history: false, external: true });
      data.bumpGeneration();
      return "done";
    });
    expect(value).toBe("done");
    expect(await count(pair.b, player)).toBe(5);
    const record = await pair.b.record(player);
    expect(record).toMatchObject({ generation: 1, preferences: { history: false, external: true } });
    await pair.b.read(player, (data) => ModuleData.get(data, TALLY).add(100));
    expect(await count(pair.a, player)).toBe(5);
  });

  it("keeps module data exactly as written: the order of a map's keys", async () => {
    const player = freshPlayer();
    const keys = ["shop/zeta", "shop/a", "shop/mm", "shop/b2"];
    for (const key of keys)
      await pair.a.transaction(player, (data) => ModuleData.get(data, TALLY).name(key, 1));
    expect(await pair.b.read(player, (data) => Object.keys(ModuleData.get(data, TALLY).named))).toEqual(keys);
  });

  it("a throwing work leaves nothing changed and rethrows", async () => {
    const player = freshPlayer();
    await pair.a.transaction(player, (data) => ModuleData.get(data, TALLY).add(1));
    await expect(
      pair.a.transaction(player, (data) => {
        ModuleData.get(data, TALLY).add(10);
        data.bumpGeneration();
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    await expect(
      pair.b.transaction(player, async (data) => {
        ModuleData.get(data, TALLY).add(10);
        await Promise.resolve();
        throw new Error("async work failed");
      }),
    ).rejects.toThrow("async work failed");
    expect(await pair.b.record(player)).toMatchObject({ generation: 0 });
    expect(await count(pair.b, player)).toBe(1);
  });

  it("a write that fails (over the size limit) leaves the previous record and rethrows STORAGE_FULL", async () => {
    const small = await openPair[backend]({ recordMaxBytes: 1_000 });
    try {
      const player = freshPlayer();
      await small.a.transaction(player, (data) => ModuleData.get(data, TALLY).add(2));
      const failed = small.a.transaction(player, (data) => {
        const tally = ModuleData.get(data, TALLY);
        for (let index = 0; index < 200; index++) tally.name(`key-${index}-${"x".repeat(40)}`, index);
      });
      await expect(failed).rejects.toSatisfy(
        (error: unknown) => AgentException.failure(error).code === "STORAGE_FULL",
      );
      expect(await small.b.read(player, (data) => Object.keys(ModuleData.get(data, TALLY).named))).toEqual(
        [],
      );
      await small.b.transaction(player, (data) => ModuleData.get(data, TALLY).add(1));
      expect(await count(small.a, player)).toBe(3);
    } finally {
      await small.close();
    }
  });

  it("loses no update: 100 increments from each server at once make 200", async () => {
    const player = freshPlayer();
    const increments = (store: AgentStore) =>
      Array.from({ length: 100 }, () =>
        store.transaction(player, (data) => ModuleData.get(data, TALLY).add(1)),
      );
    await Promise.all([...increments(pair.a), ...increments(pair.b)]);
    expect(await count(pair.a, player)).toBe(200);
    expect(await count(pair.b, player)).toBe(200);
  });

  it("reads and writes the chat cache; a failing update is false, never a throw", async () => {
    const player = freshPlayer();
    expect(await pair.a.readChat(player)).toEqual({
      playerId: player,
      generation: 0,
      history: [],
      replay: {},
    });
    const written = await pair.a.writeChat(player, (chat) => ({
      ...chat,
      generation: 2,
      history: [...chat.history, { role: "user", text: "hi" }],
      replay: { abc: { answer: 42 } },
    }));
    expect(written).toBe(true);
    await pair.a.flush();
    expect(await pair.b.readChat(player)).toEqual({
      playerId: player,
      generation: 2,
      history: [{ role: "user", text: "hi" }],
      replay: { abc: { answer: 42 } },
    });
    expect(
      await pair.b.writeChat(player, () => {
        throw new Error("update failed");
      }),
    ).toBe(false);
    expect((await pair.b.readChat(player)).history).toHaveLength(1);
    expect(await pair.a.writeChat("not-a-uuid", (chat) => chat)).toBe(false);
  });

  it("reset deletes the record and the chat cache", async () => {
    const player = freshPlayer();
    await pair.a.transaction(player, (data) => ModuleData.get(data, TALLY).add(3));
    await pair.a.writeChat(player, (chat) => ({ ...chat, history: ["x"] }));
    await pair.a.flush();
    await pair.b.reset(player);
    expect(await count(pair.a, player)).toBe(0);
    expect((await pair.a.readChat(player)).history).toEqual([]);
  });
});

describe("PostgresAgentStore", () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url, max: 2 });
  });
  afterAll(() => pool?.end());

  it("runs tick transactions in memory for a loaded player and writes them in one coalesced row transaction", async () => {
    const tasks: (() => Promise<void>)[] = [];
    const store = new PostgresAgentStore({ pool, schedule: (task) => void tasks.push(task) });
    const other = new PostgresAgentStore({ pool });
    const player = freshPlayer();
    expect(store.tickTransaction(player, () => 1)).toEqual({ ran: false });
    await store.load(player);
    const version = async () =>
      (await pool.query("SELECT version FROM system_player_record WHERE player_id = $1", [player])).rows[0]
        ?.version;
    for (let tick = 1; tick <= 3; tick++)
      expect(
        store.tickTransaction(player, (data) => {
          ModuleData.get(data, TALLY).add(1);
          return ModuleData.get(data, TALLY).count;
        }),
      ).toEqual({ ran: true, value: tick });
    // nothing reached the row yet; the store's own reads see the ticks
    expect(await count(other, player)).toBe(0);
    expect(await count(store, player)).toBe(3);
    expect(tasks).toHaveLength(1);
    // another server changes the row meanwhile: the coalesced write replays the ticks on it
    await other.transaction(player, (data) => ModuleData.get(data, TALLY).name("b", 1));
    await tasks[0]?.();
    expect(await count(other, player)).toBe(3);
    expect((await other.record(player)).moduleData).toMatchObject({
      "test:tally": { tally: { data: { named: { b: 1 } } } },
    });
    const written = await version();
    // a business transaction carries the ticks kept since, in its own row transaction
    store.tickTransaction(player, (data) => ModuleData.get(data, TALLY).add(10));
    await store.transaction(player, (data) => ModuleData.get(data, TALLY).name("c", 2));
    expect(await count(other, player)).toBe(13);
    expect(Number(await version())).toBe(Number(written) + 1);
    // the leave writes what is left
    store.tickTransaction(player, (data) => ModuleData.get(data, TALLY).add(100));
    await store.unload(player);
    expect(await count(other, player)).toBe(113);
    expect(store.tickTransaction(player, () => 1)).toEqual({ ran: false });
  });

  it("counts versions: each changing transaction adds one, a transaction that changes nothing none", async () => {
    const store = new PostgresAgentStore({ pool });
    const player = freshPlayer();
    const version = async () =>
      (await pool.query("SELECT version FROM system_player_record WHERE player_id = $1", [player])).rows[0]
        ?.version;
    await store.transaction(player, (data) => ModuleData.get(data, TALLY).add(1));
    await store.transaction(player, (data) => ModuleData.get(data, TALLY).add(1));
    await store.transaction(player, (data) => ModuleData.get(data, TALLY).add(0));
    expect(await version()).toBe("2");
  });

  it("refuses a row of an unknown format and never overwrites it", async () => {
    const store = new PostgresAgentStore({ pool });
    const player = freshPlayer();
    await pool.query(
      "INSERT INTO system_player_record (player_id, format, record, updated_at) VALUES ($1, 9, '{}', 0)",
      [player],
    );
    await expect(store.record(player)).rejects.toThrow(/format 9/);
    await expect(store.transaction(player, (data) => data.bumpGeneration())).rejects.toThrow(/format 9/);
    const { rows } = await pool.query("SELECT format FROM system_player_record WHERE player_id = $1", [
      player,
    ]);
    expect(rows).toEqual([{ format: 9 }]);
  });

  it("keeps a copy of a record whose entry its codec refuses before the entry is replaced", async () => {
    const logger = new MemoryLogger();
    const store = new PostgresAgentStore({ pool, logger });
    const player = freshPlayer();
    const damaged = {
      playerId: player,
      generation: 0,
      moduleData: { "test:tally": { tally: { codec: "test:tally_v1", data: { count: "many" } } } },
    };
    await pool.query(
      "INSERT INTO system_player_record (player_id, format, record, updated_at) VALUES ($1, 1, $2, 0)",
      [player, JSON.stringify(damaged)],
    );
    expect(await count(store, player)).toBe(0);
    await store.transaction(player, (data) => ModuleData.get(data, TALLY).add(4));
    expect(await count(store, player)).toBe(4);
    const kept = await pool.query("SELECT record FROM system_player_record_kept WHERE player_id = $1", [
      player,
    ]);
    expect(kept.rows).toEqual([{ record: damaged }]);
    expect(logger.has("held damaged entries")).toBe(true);
  });
});
