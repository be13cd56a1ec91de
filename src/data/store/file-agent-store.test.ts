import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import nbt from "prismarine-nbt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentException } from "../../agent/agent-exception.js";
import { DataStorage, ModuleStorage } from "../../agent/storage/module-storage.js";
import { ModuleData } from "../../agent/storage/player-data.js";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { MemoryLogger } from "../../util/logger.js";
import { FileAgentStore } from "./file-agent-store.js";
import { UnsupportedVersionError } from "./nbt-file.js";

const PLAYER = "0f8fad5b-d9cb-469f-a165-70867728950e";

/** A small business storage: unlocked ids and a state; mutators mark dirty only on a real change. */
class UnlockStorage extends DataStorage<{ unlocked: string[]; state: string }> {
  readonly #unlocked: Set<string>;
  #state: string;
  constructor(data?: { unlocked: string[]; state: string }) {
    super();
    this.#unlocked = new Set(data?.unlocked ?? []);
    this.#state = data?.state ?? "idle";
  }
  unlock(id: string): void {
    if (this.#unlocked.has(id)) return;
    this.#unlocked.add(id);
    this.markDirty();
  }
  setState(state: string): void {
    if (this.#state === state) return;
    this.#state = state;
    this.markDirty();
  }
  get state(): string {
    return this.#state;
  }
  unlocked(): string[] {
    return [...this.#unlocked];
  }
  toData() {
    return { unlocked: [...this.#unlocked], state: this.#state };
  }
}

const UNLOCKS = ModuleStorage.of({
  owner: Identifier.parse("test:quests"),
  type: "unlocks",
  codecId: Identifier.parse("test:unlocks_v1"),
  codec: codec(z.object({ unlocked: z.array(z.string()), state: z.string() })),
  factory: (data) => new UnlockStorage(data),
});

let world: string;
let logger: MemoryLogger;
let tasks: Array<() => Promise<void>>;
let store: FileAgentStore;
beforeEach(async () => {
  world = await mkdtemp(join(tmpdir(), "store-"));
  logger = new MemoryLogger();
  tasks = [];
  store = new FileAgentStore({ world, logger, schedule: (task) => tasks.push(task), now: () => 1234 });
});
afterEach(async () => {
  await rm(world, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
});

const playerFile = () => join(world, "system", "players", `${PLAYER}.dat`);
const chatFile = () => join(world, "system", "chat", `${PLAYER}.dat`);
const unlocks = (playerId = PLAYER) =>
  store.read(playerId, (data) => ModuleData.get(data, UNLOCKS).unlocked());

describe("FileAgentStore", () => {
  it("marks dirty only on a real change: a repeated unlock or the same state writes nothing", async () => {
    await store.load(PLAYER);
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("a"));
    const before = await readFile(playerFile());
    await rm(playerFile());
    await store.transaction(PLAYER, (data) => {
      const storage = ModuleData.get(data, UNLOCKS);
      storage.unlock("a");
      storage.setState("idle");
      expect(storage.dirty).toBe(false);
    });
    expect(await readdir(join(world, "system", "players"))).toEqual([]);
    expect(before.length).toBeGreaterThan(0);
  });

  it("makes a business write durable before it resolves: a fresh store reads it", async () => {
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("gift"));
    const fresh = new FileAgentStore({ world });
    expect(await fresh.read(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlocked())).toEqual(["gift"]);
  });

  it("writes real gzip NBT with a format version tag", async () => {
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("a"));
    const bytes = await readFile(playerFile());
    expect(bytes[0]).toBe(0x1f);
    const { parsed } = await nbt.parse(bytes);
    expect(parsed.value.version).toEqual({ type: "int", value: 1 });
    expect(parsed.value.playerId).toEqual({ type: "string", value: PLAYER });
  });

  it("returns copies on read: mutating what a read returned changes nothing", async () => {
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("a"));
    const storage = await store.read(PLAYER, (data) => ModuleData.get(data, UNLOCKS));
    storage.unlock("stolen");
    const record = await store.record(PLAYER);
    (record.moduleData as Record<string, unknown>)["test:quests"] = {};
    expect(await unlocks()).toEqual(["a"]);
  });

  it("leaves memory and file exactly as before when a transaction fails", async () => {
    await store.load(PLAYER);
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("a"));
    const file = await readFile(playerFile());
    const failure = store.transaction(PLAYER, (data) => {
      ModuleData.get(data, UNLOCKS).unlock("b");
      data.bumpGeneration();
      throw new Error("business rule refused");
    });
    await expect(failure).rejects.toThrow("business rule refused");
    expect(await unlocks()).toEqual(["a"]);
    expect(await store.read(PLAYER, (data) => data.generation)).toBe(0);
    expect(await readFile(playerFile())).toEqual(file);
  });

  it("leaves memory unchanged when the write is refused for size (STORAGE_FULL)", async () => {
    const small = new FileAgentStore({ world, playerMaxBytes: 200 });
    await small.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("a"));
    const big = small.transaction(PLAYER, (data) => {
      for (let index = 0; index < 200; index++)
        ModuleData.get(data, UNLOCKS).unlock(`quest-${index}-${index * 7919}`);
    });
    const error = await big.catch((thrown: unknown) => thrown);
    expect((error as AgentException).failure().code).toBe("STORAGE_FULL");
    expect(await small.read(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlocked())).toEqual(["a"]);
  });

  it("runs tick transactions in memory and coalesces their file writes on the maintenance scheduler", async () => {
    expect(store.tickTransaction(PLAYER, () => 1)).toEqual({ ran: false });
    await store.load(PLAYER);
    for (const id of ["a", "b", "c"])
      expect(store.tickTransaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock(id)).ran).toBe(
        true,
      );
    expect(await unlocks()).toEqual(["a", "b", "c"]);
    expect(tasks).toHaveLength(1);
    await expect(readFile(playerFile())).rejects.toThrow();
    await tasks[0]?.();
    const fresh = new FileAgentStore({ world });
    expect(await fresh.read(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlocked())).toEqual([
      "a",
      "b",
      "c",
    ]);
  });

  it("does not run a tick transaction while a business transaction is in flight", async () => {
    await store.load(PLAYER);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const business = store.transaction(PLAYER, async (data) => {
      ModuleData.get(data, UNLOCKS).unlock("order");
      await gate;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.tickTransaction(PLAYER, () => 1)).toEqual({ ran: false });
    release();
    await business;
    expect(store.tickTransaction(PLAYER, () => 1)).toEqual({ ran: true, value: 1 });
  });

  it("moves a corrupt player file aside with a log line and never overwrites it", async () => {
    await mkdir(join(world, "system", "players"), { recursive: true });
    await writeFile(playerFile(), "not nbt at all");
    expect(await unlocks()).toEqual([]);
    const names = await readdir(join(world, "system", "players"));
    expect(names).toEqual([`${PLAYER}.dat.corrupt-1234`]);
    expect(logger.has(`moved aside to ${playerFile()}.corrupt-1234`)).toBe(true);
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("new"));
    expect(await readFile(`${playerFile()}.corrupt-1234`, "utf8")).toBe("not nbt at all");
  });

  it("refuses a file of an unknown format version loudly and does not overwrite it", async () => {
    await mkdir(join(world, "system", "players"), { recursive: true });
    const future = gzipSync(
      nbt.writeUncompressed({
        type: "compound",
        name: "",
        value: { version: nbt.int(99), playerId: nbt.string(PLAYER) },
      }),
    );
    await writeFile(playerFile(), future);
    await expect(unlocks()).rejects.toBeInstanceOf(UnsupportedVersionError);
    await expect(store.transaction(PLAYER, () => 1)).rejects.toThrow(/version 99/);
    expect(await readFile(playerFile())).toEqual(future);
    expect(logger.has("format version 99")).toBe(true);
  });

  it("refuses stored data written with another codec id", async () => {
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("a"));
    const other = ModuleStorage.of({
      owner: Identifier.parse("test:quests"),
      type: "unlocks",
      codecId: Identifier.parse("test:unlocks_v2"),
      codec: codec(z.object({ unlocked: z.array(z.string()), state: z.string() })),
      factory: (data) => new UnlockStorage(data),
    });
    await expect(store.read(PLAYER, (data) => ModuleData.get(data, other))).rejects.toThrow(
      /codec test:unlocks_v1/,
    );
  });

  it("keeps business writes going when the chat cache cannot be written", async () => {
    await mkdir(join(world, "system"), { recursive: true });
    await writeFile(join(world, "system", "chat"), "a file where the folder should be");
    expect(await store.writeChat(PLAYER, (chat) => ({ ...chat, history: ["hello"] }))).toBe(false);
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("a"));
    expect(await unlocks()).toEqual(["a"]);
    expect(logger.has("chat cache")).toBe(true);
  });

  it("keeps the chat cache within its own limit by dropping the oldest history", async () => {
    const small = new FileAgentStore({ world, chatMaxBytes: 600 });
    const history = Array.from({ length: 200 }, (_, index) => ({
      text: `turn ${index} ${"x".repeat(index % 13)}`,
      index,
    }));
    expect(
      await small.writeChat(PLAYER, (chat) => ({
        ...chat,
        generation: 2,
        history,
        replay: { f1: { ok: 1 } },
      })),
    ).toBe(true);
    await small.flush();
    const read = await new FileAgentStore({ world, chatMaxBytes: 600 }).readChat(PLAYER);
    expect(read.history.length).toBeGreaterThan(0);
    expect(read.history.length).toBeLessThan(200);
    expect(read.history.at(-1)).toEqual(history.at(-1));
    expect(read.replay).toEqual({ f1: { ok: 1 } });
    expect(read.generation).toBe(2);
  });

  it("quarantines a corrupt chat cache and reads it as empty", async () => {
    await mkdir(join(world, "system", "chat"), { recursive: true });
    await writeFile(chatFile(), gzipSync(Buffer.from("garbage")));
    expect((await store.readChat(PLAYER)).history).toEqual([]);
    expect(await readdir(join(world, "system", "chat"))).toEqual([`${PLAYER}.dat.corrupt-1234`]);
  });

  it("reset deletes the player's file and chat cache", async () => {
    await store.load(PLAYER);
    await store.transaction(PLAYER, (data) => ModuleData.get(data, UNLOCKS).unlock("a"));
    await store.writeChat(PLAYER, (chat) => ({ ...chat, history: ["hi"] }));
    await store.flush();
    expect(await readdir(join(world, "system", "chat"))).toEqual([`${PLAYER}.dat`]);
    await store.reset(PLAYER);
    expect(await readdir(join(world, "system", "players"))).toEqual([]);
    expect(await readdir(join(world, "system", "chat"))).toEqual([]);
    expect(await unlocks()).toEqual([]);
  });

  it("writes a burst of chat updates as one coalesced file write, kept in memory meanwhile", async () => {
    const tasks: (() => Promise<void>)[] = [];
    const coalescing = new FileAgentStore({ world, schedule: (task) => void tasks.push(task) });
    for (let index = 0; index < 5; index++)
      await coalescing.writeChat(PLAYER, (chat) => ({
        ...chat,
        history: [...chat.history, `turn ${index}`],
      }));
    expect(tasks).toHaveLength(1);
    expect((await coalescing.readChat(PLAYER)).history).toHaveLength(5);
    expect((await new FileAgentStore({ world }).readChat(PLAYER)).history).toEqual([]);
    await tasks[0]?.();
    expect((await new FileAgentStore({ world }).readChat(PLAYER)).history).toHaveLength(5);
  });

  it("refuses a player id that is not a UUID (no path tricks)", async () => {
    await expect(store.read("../../etc/passwd", () => 1)).rejects.toThrow(/UUID/);
  });
});
