import type { Json } from "../../util/codec.js";
import type { PlayerData, PlayerRecord } from "./player-data.js";

/**
 * The conversation and request-replay cache of one player (<world>/system/chat/<UUID>.dat). It is a cache:
 * losing it loses history, never business data, and writing it never blocks a business write.
 */
export interface ChatRecord {
  readonly playerId: string;
  /** The memory generation the cache was written under; older generations are discarded on read. */
  readonly generation: number;
  /** History entries, oldest first; their shape belongs to ConversationMemory. */
  readonly history: readonly Json[];
  /** Replay entries by request fingerprint. */
  readonly replay: { readonly [fingerprint: string]: Json };
}

/** An empty cache for a player under a generation. */
export const emptyChatRecord = (playerId: string, generation: number): ChatRecord => ({
  playerId,
  generation,
  history: [],
  replay: {},
});

/** The outcome of a game-tick transaction: it runs only when the player is loaded and not mid-write. */
export type TickOutcome<T> = { readonly ran: true; readonly value: T } | { readonly ran: false };

/**
 * Player storage. Reads return copies; a transaction works on a copy and commits to memory only when it
 * succeeds, so a failed one leaves memory exactly as before. Transactions of one player run one at a time.
 */
export interface AgentStore {
  /** Reads a copy of the player's data (loading the file when needed). */
  read<T>(playerId: string, reader: (data: PlayerData) => T): Promise<T>;
  /** A copy of the persisted record, for export and tests. */
  record(playerId: string): Promise<PlayerRecord>;
  /**
   * A business write: resolves only after the file is durably replaced (when anything really changed).
   * If `work` throws, or the write fails, memory is left as it was and the error is rethrown.
   */
  transaction<T>(playerId: string, work: (data: PlayerData) => T | Promise<T>): Promise<T>;
  /**
   * For the game tick: synchronous and in memory only; the file write is coalesced on the maintenance
   * scheduler. Does not run ({ ran: false }) when the player is not loaded or a transaction is in flight.
   */
  tickTransaction<T>(playerId: string, work: (data: PlayerData) => T): TickOutcome<T>;
  /** Loads the player into memory (on join), so tick transactions can run. */
  load(playerId: string): Promise<void>;
  /** Writes pending changes and drops the player from memory (on leave). */
  unload(playerId: string): Promise<void>;

  /** The chat cache; an unreadable or missing cache reads as empty. */
  readChat(playerId: string): Promise<ChatRecord>;
  /** Replaces the chat cache; returns false (and logs) when it could not be written. Never throws. */
  writeChat(playerId: string, update: (chat: ChatRecord) => ChatRecord): Promise<boolean>;

  /** revoke/reset: deletes the player's files and caches (usage statistics live elsewhere). */
  reset(playerId: string): Promise<void>;
  /** Writes every pending (tick) change now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
