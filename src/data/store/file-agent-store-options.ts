import type { Logger } from "../../util/logger.js";

/** Options of {@link FileAgentStore}. */
export interface FileAgentStoreOptions {
  /** The world save folder; files go to `<world>/system/players/` and `<world>/system/chat/`. */
  readonly world: string;
  readonly playerMaxBytes?: number;
  readonly chatMaxBytes?: number;
  /**
   * How long a chat cache update waits before its file write (default 0: the next scheduled task), so that the
   * turns of a burst share one write. `flush`, `unload` and `close` write at once.
   */
  readonly chatWriteDelayMillis?: number;
  /** Runs coalesced tick writes on the maintenance pool; defaults to the next macrotask. */
  readonly schedule?: (task: () => Promise<void>) => void;
  /**
   * How long tick changes (playtime) stay in memory before their coalesced file write (default 0: the next
   * scheduled task). A crash loses at most this much tick work; a business transaction writes them at once.
   */
  readonly tickWriteDelayMillis?: number;
  readonly logger?: Logger;
  readonly now?: () => number;
  /** Told of every damaged player file once a copy of it is kept (an admin must hear of it). */
  readonly onDamaged?: (report: DamagedPlayerFile) => void;
}

/** A player file found damaged: the copy kept of it (before anything was written in its place) and why. */
export interface DamagedPlayerFile {
  readonly playerId: string;
  /** The kept copy, beside the player file: `<uuid>.dat.corrupt-<time>`. */
  readonly kept: string;
  readonly reason: string;
  /** The whole file was unreadable (the player starts empty), or only these entries (read as empty). */
  readonly entries?: readonly string[];
}

/**
 * How long the tick changes of an online player (playtime) stay in memory before one coalesced write of their
 * player file or row: a crash loses at most this much playtime, never a business write.
 */
export const TICK_WRITE_DELAY_MILLIS = 5 * 60_000;
