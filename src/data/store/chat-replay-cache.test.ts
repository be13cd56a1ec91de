import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentFailure } from "../../agent/agent-failure.js";
import { AgentResult } from "../../agent/agent-result.js";
import { ConversationService } from "../../agent/execution/conversation-service.js";
import { MemoryGenerations } from "../../agent/execution/memory-generations.js";
import type { AgentStore, ChatRecord } from "../../agent/storage/agent-store.js";
import { literal } from "../../agent/text.js";
import { MemoryLogger } from "../../util/logger.js";
import { ChatReplayCache, type ChatReplayCacheOptions } from "./chat-replay-cache.js";
import { FileAgentStore } from "./file-agent-store.js";
import { FileConversationStore } from "./file-conversation-store.js";

const PLAYER = "0f8fad5b-d9cb-469f-a165-70867728950e";
const WINDOW = 30_000;

let world: string;
let store: FileAgentStore;
let generations: MemoryGenerations;
const clock = { now: 1_000_000 };
let window = WINDOW;

const cacheOver = (agentStore: AgentStore, options: Partial<ChatReplayCacheOptions> = {}): ChatReplayCache =>
  new ChatReplayCache({
    store: agentStore,
    generations,
    windowMillis: () => window,
    now: () => clock.now,
    ...options,
  });

/** A store whose disk is gone: every read and write of the player's files fails. */
class BrokenStore extends FileAgentStore {
  override read<T>(): Promise<T> {
    return Promise.reject(new Error("disk gone"));
  }
  override readChat(): Promise<ChatRecord> {
    return Promise.reject(new Error("disk gone"));
  }
  override writeChat(): Promise<boolean> {
    return Promise.reject(new Error("disk gone"));
  }
}

const checkedIn = (day: number): AgentResult =>
  AgentResult.success(literal(`checked in, day ${day}`), { type: "system:message", data: { day } });

const encoded = (result: AgentResult | undefined) =>
  result === undefined ? undefined : AgentResult.CODEC.encode(result);

beforeEach(async () => {
  world = await mkdtemp(join(tmpdir(), "replay-cache-"));
  store = new FileAgentStore({ world });
  generations = new MemoryGenerations();
  clock.now = 1_000_000;
  window = WINDOW;
});
afterEach(async () => {
  // writes still pending (a write the test did not await) land before the folder goes
  await store.flush().catch(() => {});
  await rm(world, { recursive: true, force: true, maxRetries: 5 });
});

describe("ChatReplayCache", () => {
  it("answers a key within the window with the stored result, and nothing after it", async () => {
    const cache = cacheOver(store);
    expect(await cache.lookup(PLAYER, "system:check_in#a", 0)).toBeUndefined();
    expect(await cache.store(PLAYER, "system:check_in#a", 0, checkedIn(1))).toBe(true);
    const storedAt = clock.now;
    clock.now += WINDOW - 1;
    const hit = await cache.lookup(PLAYER, "system:check_in#a", 0);
    expect(encoded(hit?.result)).toEqual(encoded(checkedIn(1)));
    // the time it was stored comes back with it: a replay says how long ago the answer was given
    expect(hit?.at).toBe(storedAt);
    expect(await cache.lookup(PLAYER, "system:check_in#b", 0)).toBeUndefined();
    clock.now += 1;
    expect(await cache.lookup(PLAYER, "system:check_in#a", 0)).toBeUndefined();
  });

  it("survives a restart: the entry is in the chat file, read by a new store", async () => {
    await cacheOver(store).store(PLAYER, "k", 0, checkedIn(1));
    await store.flush();
    const fresh = cacheOver(new FileAgentStore({ world }));
    expect(encoded((await fresh.lookup(PLAYER, "k", 0))?.result)).toEqual(encoded(checkedIn(1)));
  });

  it("sees a stored entry at once, before its write settled", async () => {
    const cache = cacheOver(store);
    const writing = cache.store(PLAYER, "k", 0, checkedIn(1));
    expect(encoded((await cache.lookup(PLAYER, "k", 0))?.result)).toEqual(encoded(checkedIn(1)));
    expect(await writing).toBe(true);
  });

  it("keeps at most maxEntries per player, the newest", async () => {
    const cache = cacheOver(store, { maxEntries: 3 });
    for (let index = 0; index < 5; index++) {
      clock.now += 10;
      await cache.store(PLAYER, `k${index}`, 0, checkedIn(index));
    }
    expect(Object.keys((await store.readChat(PLAYER)).replay).sort()).toEqual(["k2", "k3", "k4"]);
    expect(await cache.lookup(PLAYER, "k1", 0)).toBeUndefined();
    expect(encoded((await cache.lookup(PLAYER, "k4", 0))?.result)).toEqual(encoded(checkedIn(4)));
  });

  it("keeps the encoded entries within maxBytes and refuses a result larger than that", async () => {
    const cache = cacheOver(store, { maxBytes: 400 });
    const large = AgentResult.success(literal("x".repeat(500)));
    expect(await cache.store(PLAYER, "large", 0, large)).toBe(false);
    expect(await cache.lookup(PLAYER, "large", 0)).toBeUndefined();
    for (let index = 0; index < 6; index++) {
      clock.now += 10;
      await cache.store(PLAYER, `k${index}`, 0, checkedIn(index));
    }
    const replay = (await store.readChat(PLAYER)).replay;
    expect(Buffer.byteLength(JSON.stringify(Object.values(replay)))).toBeLessThanOrEqual(400);
    expect(Object.keys(replay)).toContain("k5");
    expect(Object.keys(replay)).not.toContain("k0");
  });

  it("drops expired entries when it writes", async () => {
    const cache = cacheOver(store);
    await cache.store(PLAYER, "old", 0, checkedIn(1));
    clock.now += WINDOW;
    await cache.store(PLAYER, "new", 0, checkedIn(2));
    expect(Object.keys((await store.readChat(PLAYER)).replay)).toEqual(["new"]);
  });

  it("ignores a damaged entry (another version, no result) and drops it on the next write", async () => {
    await store.writeChat(PLAYER, (chat) => ({
      ...chat,
      replay: {
        broken: { v: 1, at: clock.now, result: { status: "nonsense" } },
        future: { v: 99, at: clock.now, result: AgentResult.CODEC.encode(checkedIn(1)) },
        text: "not an entry",
      },
    }));
    const cache = cacheOver(store);
    for (const key of ["broken", "future", "text"])
      expect(await cache.lookup(PLAYER, key, 0)).toBeUndefined();
    await cache.store(PLAYER, "fine", 0, checkedIn(2));
    expect(Object.keys((await store.readChat(PLAYER)).replay)).toEqual(["fine"]);
  });

  it("is off with a window of 0: nothing stored, nothing answered", async () => {
    const cache = cacheOver(store);
    await cache.store(PLAYER, "k", 0, checkedIn(1));
    window = 0;
    expect(await cache.lookup(PLAYER, "k", 0)).toBeUndefined();
    expect(await cache.store(PLAYER, "other", 0, checkedIn(2))).toBe(false);
  });

  it("forgets everything on a generation bump (/system clear), and work from before cannot store", async () => {
    const conversation = new ConversationService({ store: new FileConversationStore(store), generations });
    const cache = cacheOver(store);
    await cache.store(PLAYER, "k", 0, checkedIn(1));
    await conversation.clear(PLAYER);
    expect(generations.generation(PLAYER)).toBe(1);
    expect(await cache.lookup(PLAYER, "k", 1)).toBeUndefined();
    expect((await store.readChat(PLAYER)).replay).toEqual({});
    // a request admitted before the clear finishes after it
    expect(await cache.store(PLAYER, "late", 0, checkedIn(2))).toBe(false);
    expect(await cache.lookup(PLAYER, "late", 1)).toBeUndefined();
    expect((await store.readChat(PLAYER)).replay).toEqual({});
  });

  it("holds nothing in a chat file older than the player file's generation", async () => {
    const cache = cacheOver(store);
    await cache.store(PLAYER, "k", 0, checkedIn(1));
    await store.transaction(PLAYER, (data) => data.bumpGeneration());
    expect(await cache.lookup(PLAYER, "k", 0)).toBeUndefined();
    await cache.store(PLAYER, "next", 0, checkedIn(2));
    const chat = await store.readChat(PLAYER);
    expect(chat.generation).toBe(1);
    expect(Object.keys(chat.replay)).toEqual(["next"]);
  });

  it("reads a failing store as a miss and reports a failed write, never throwing", async () => {
    const logger = new MemoryLogger();
    const cache = cacheOver(new BrokenStore({ world }), { logger });
    expect(await cache.lookup(PLAYER, "k", 0)).toBeUndefined();
    expect(await cache.store(PLAYER, "k", 0, checkedIn(1))).toBe(false);
    expect(logger.has("disk gone")).toBe(true);
    // the entry did not linger in memory after its write failed
    expect(await cache.lookup(PLAYER, "k", 0)).toBeUndefined();
  });

  it("stores what the player is shown: a deliberate failure round-trips with its key and arguments", async () => {
    const cache = cacheOver(store);
    const notFound = AgentResult.error(AgentFailure.NOT_FOUND.with("minecraft:unobtainium"));
    await cache.store(PLAYER, "k", 0, notFound);
    await store.flush();
    const replayed = (await cacheOver(new FileAgentStore({ world })).lookup(PLAYER, "k", 0))?.result;
    expect(replayed?.failure).toEqual(notFound.failure);
    expect(replayed?.message).toEqual(notFound.message);
  });
});
