import { z } from "zod";
import { AgentResult } from "../../agent/agent-result.js";
import type { MemoryGenerations } from "../../agent/execution/memory-generations.js";
import type { ReplayCache, ReplayHit } from "../../agent/execution/replay-cache.js";
import type { AgentStore, ChatRecord } from "../../agent/storage/agent-store.js";
import { codec, type Json } from "../../util/codec.js";
import { type Logger, silentLogger } from "../../util/logger.js";

/** Format version of one replay entry in the chat file. */
export const REPLAY_ENTRY_VERSION = 1;

/** Entries kept per player by default (newest first when over). */
export const DEFAULT_MAX_REPLAY_ENTRIES = 32;

/** UTF-8 bytes of encoded entries kept per player by default: the chat file (256 KiB) is mostly history's. */
export const DEFAULT_MAX_REPLAY_BYTES = 64 * 1024;

/** One stored result: when it was stored and the result as AgentResult.CODEC encodes it. */
interface ReplayEntry {
  readonly at: number;
  readonly result: AgentResult;
}

const ENTRY_SHAPE = codec(
  z.object({ v: z.literal(REPLAY_ENTRY_VERSION), at: z.number(), result: z.unknown() }),
);

const encodeEntry = (entry: ReplayEntry): Json => ({
  v: REPLAY_ENTRY_VERSION,
  at: entry.at,
  result: AgentResult.CODEC.encode(entry.result),
});

/** A stored entry, or undefined when it is damaged or of another version (it is then ignored and dropped). */
const decodeEntry = (data: unknown): ReplayEntry | undefined => {
  const shape = ENTRY_SHAPE.decode(data);
  if (!shape.success) return undefined;
  const result = AgentResult.CODEC.decode(shape.value.result);
  return result.success ? { at: shape.value.at, result: result.value } : undefined;
};

export interface ChatReplayCacheOptions {
  /** Where the chat file (`<world>/system/chat/<UUID>.dat`) is read and written. */
  readonly store: AgentStore;
  readonly generations: MemoryGenerations;
  /** The current window in milliseconds, read at every use (config reloads apply at once); 0 disables. */
  readonly windowMillis: () => number;
  readonly maxEntries?: number;
  /** Bound on the encoded entries of one player; a result larger than this is not stored. */
  readonly maxBytes?: number;
  readonly now?: () => number;
  readonly logger?: Logger;
}

/**
 * The replay cache in the `replay` map of the player's chat file, next to the history it shares the file with.
 * Entries carry their time; on every write, expired and damaged entries are dropped and the newest `maxEntries`
 * kept. A chat file written under an older memory generation than the player's holds no entries (as its history).
 * Entries just stored stay visible in memory until their write settled, so a quick repeat never misses them.
 */
export class ChatReplayCache implements ReplayCache {
  readonly #options: ChatReplayCacheOptions;
  readonly #now: () => number;
  readonly #logger: Logger;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  /** Entries being written, by player and key, with the memory generation they were stored under. */
  readonly #pending = new Map<string, Map<string, ReplayEntry & { readonly generation: number }>>();

  constructor(options: ChatReplayCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
    this.#maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_REPLAY_ENTRIES);
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_REPLAY_BYTES;
  }

  async lookup(playerId: string, key: string, generation: number): Promise<ReplayHit | undefined> {
    const window = this.#options.windowMillis();
    if (window <= 0 || !this.#options.generations.isCurrent(playerId, generation)) return undefined;
    const pending = this.#pending.get(playerId)?.get(key);
    if (pending !== undefined && pending.generation === generation && this.#fresh(pending, window))
      return { result: pending.result, at: pending.at };
    try {
      const [chat, fileGeneration] = await Promise.all([
        this.#options.store.readChat(playerId),
        this.#options.store.read(playerId, (data) => data.generation),
      ]);
      if (chat.generation < fileGeneration) return undefined;
      const entry = Object.hasOwn(chat.replay, key) ? decodeEntry(chat.replay[key]) : undefined;
      // a forget while the file was read wins
      if (entry === undefined || !this.#options.generations.isCurrent(playerId, generation)) return undefined;
      return this.#fresh(entry, window) ? { result: entry.result, at: entry.at } : undefined;
    } catch (error) {
      this.#logger.warn(`replay cache of ${playerId} unreadable, the request runs: ${describe(error)}`);
      return undefined;
    }
  }

  async store(playerId: string, key: string, generation: number, result: AgentResult): Promise<boolean> {
    const window = this.#options.windowMillis();
    if (window <= 0 || !this.#options.generations.isCurrent(playerId, generation)) return false;
    const entry = { at: this.#now(), result, generation };
    if (bytesOf(encodeEntry(entry)) > this.#maxBytes) return false;
    let mine = this.#pending.get(playerId);
    if (mine === undefined) {
      mine = new Map();
      this.#pending.set(playerId, mine);
    }
    mine.set(key, entry);
    try {
      const fileGeneration = await this.#options.store.read(playerId, (data) => data.generation);
      let written = false;
      const ok = await this.#options.store.writeChat(playerId, (chat) => {
        // checked under the chat lock: a forget that bumped the generation first is never undone by this write
        if (!this.#options.generations.isCurrent(playerId, generation)) return chat;
        written = true;
        return this.#withEntry(chat, fileGeneration, key, entry);
      });
      return ok && written;
    } catch (error) {
      this.#logger.warn(`replay entry of ${playerId} not stored: ${describe(error)}`);
      return false;
    } finally {
      if (mine.get(key) === entry) mine.delete(key);
      if (mine.size === 0 && this.#pending.get(playerId) === mine) this.#pending.delete(playerId);
    }
  }

  /**
   * The chat record with one more entry: expired and damaged entries dropped, then the newest entries kept
   * within `maxEntries` and `maxBytes`.
   */
  #withEntry(chat: ChatRecord, fileGeneration: number, key: string, entry: ReplayEntry): ChatRecord {
    const stale = chat.generation < fileGeneration;
    const window = this.#options.windowMillis();
    const kept: [string, ReplayEntry][] = [];
    if (!stale)
      for (const [other, data] of Object.entries(chat.replay)) {
        if (other === key) continue;
        const decoded = decodeEntry(data);
        if (decoded !== undefined && this.#fresh(decoded, window)) kept.push([other, decoded]);
      }
    kept.sort((left, right) => right[1].at - left[1].at);
    // the new entry first (it fits: `store` checked), then the others newest first while they fit
    const first = encodeEntry(entry);
    const encoded: [string, Json][] = [[key, first]];
    let bytes = bytesOf(first);
    for (const [name, value] of kept) {
      if (encoded.length >= this.#maxEntries) break;
      const data = encodeEntry(value);
      bytes += bytesOf(data);
      if (bytes > this.#maxBytes) break;
      encoded.push([name, data]);
    }
    const replay: Record<string, Json> = Object.fromEntries(encoded.reverse());
    // a record from an older generation starts over, as the history write does
    return stale ? { ...chat, generation: fileGeneration, history: [], replay } : { ...chat, replay };
  }

  /** Stored within the window (an entry from the future, after a clock change, counts as expired). */
  #fresh(entry: ReplayEntry, window: number): boolean {
    const age = this.#now() - entry.at;
    return age >= 0 && age < window;
  }
}

const bytesOf = (data: Json): number => Buffer.byteLength(JSON.stringify(data), "utf8");

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
