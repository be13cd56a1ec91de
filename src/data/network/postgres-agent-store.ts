import type { Pool, PoolClient } from "pg";
import { AgentException } from "../../agent/agent-exception.js";
import { AgentFailure } from "../../agent/agent-failure.js";
import type { AgentStore, ChatRecord, TickOutcome } from "../../agent/storage/agent-store.js";
import { emptyChatRecord } from "../../agent/storage/agent-store.js";
import { emptyPlayerRecord, PlayerData, type PlayerRecord } from "../../agent/storage/player-data.js";
import { type Logger, silentLogger } from "../../util/logger.js";
import { KeyedLock } from "../store/keyed-lock.js";
import { decodeChatRow, decodeRecordRow, PLAYER_ROW_FORMAT } from "./player-rows.js";
import { inTransaction } from "./postgres-transaction.js";

/** Options of {@link PostgresAgentStore}. */
export interface PostgresAgentStoreOptions {
  /** A pool of a database migrated with NETWORK_STATE_MIGRATIONS; the caller closes it. */
  readonly pool: Pool;
  readonly logger?: Logger;
  readonly now?: () => number;
  /** The largest player record (its JSON text); a write over it fails with STORAGE_FULL. Default 1 MiB. */
  readonly recordMaxBytes?: number;
  /** The largest chat cache kept (its JSON text); older history goes first. As the chat file's limit by default. */
  readonly chatMaxBytes?: number;
  /**
   * How long tick changes (playtime) of an online player stay in memory before one coalesced row transaction
   * writes them (default 0: the next scheduled task). A crash loses at most this much tick work.
   */
  readonly tickWriteDelayMillis?: number;
  /** Runs the coalesced tick writes (the maintenance pool); defaults to the next macrotask. */
  readonly schedule?: (task: () => Promise<void>) => void;
}

/** An online player's tick state: the record as last seen here, and the tick work not yet in the row. */
interface Pinned {
  record: PlayerRecord;
  /** Tick transactions run in memory, in order, replayed on the locked row by the next row transaction. */
  pending: ((data: PlayerData) => unknown)[];
  scheduled: boolean;
}

const PLAYER_ID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/**
 * The player records and chat caches of a network, one row each in PostgreSQL, so that a player's orders, quest
 * progress, preferences and history follow them from server to server. Nothing is cached: every read is the
 * latest committed row (another server may have written it).
 *
 * A transaction locks the player's row (`SELECT … FOR UPDATE`), runs `work` on a copy and writes the record with
 * its version + 1 in the same database transaction; a throw or a failed commit leaves the row as it was and is
 * rethrown. Every caller's `work` is synchronous (it reads and changes the copy, no game or model call), so the
 * row lock is held for two statements' time; servers taking turns on one player wait for each other rather than
 * retrying, and `work` runs exactly once. Transactions of one player on this server queue locally first, so they
 * hold one pooled connection, not one each.
 */
export class PostgresAgentStore implements AgentStore {
  readonly #players = new KeyedLock();
  readonly #chats = new KeyedLock();
  readonly #pool: Pool;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #chatMaxBytes: number;
  readonly #recordMaxBytes: number;
  readonly #pinned = new Map<string, Pinned>();
  readonly #options: PostgresAgentStoreOptions;

  constructor(options: PostgresAgentStoreOptions) {
    this.#options = options;
    this.#pool = options.pool;
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#chatMaxBytes = options.chatMaxBytes ?? 256 * 1024;
    this.#recordMaxBytes = options.recordMaxBytes ?? 1024 * 1024;
  }

  async read<T>(playerId: string, reader: (data: PlayerData) => T): Promise<T> {
    this.#checkId(playerId);
    const { rows } = await this.#pool.query(
      "SELECT format, record, version FROM system_player_record WHERE player_id = $1",
      [playerId],
    );
    const data = new PlayerData(this.#recordOf(playerId, rows[0]), { tolerateDamage: true });
    for (const work of this.#pinned.get(playerId)?.pending ?? []) work(data);
    return reader(data);
  }

  async record(playerId: string): Promise<PlayerRecord> {
    return this.read(playerId, (data) => data.toRecord());
  }

  transaction<T>(playerId: string, work: (data: PlayerData) => T | Promise<T>): Promise<T> {
    this.#checkId(playerId);
    return this.#players.run(playerId, () =>
      inTransaction(this.#pool, async (client) => {
        const row = await this.#lockRow(client, playerId);
        const data = new PlayerData(this.#recordOf(playerId, row), { tolerateDamage: true });
        // tick work kept in memory is written with this transaction (replayed on the row as it is now)
        const pinned = this.#pinned.get(playerId);
        const ticks = pinned === undefined ? [] : [...pinned.pending];
        for (const tick of ticks) tick(data);
        const value = await work(data);
        if (!data.changed) return { value, record: undefined, ticks: 0 };
        const record = data.toRecord();
        const text = JSON.stringify(record);
        const bytes = Buffer.byteLength(text);
        if (bytes > this.#recordMaxBytes)
          throw new AgentException(
            AgentFailure.STORAGE_FULL.with("player record", String(bytes), String(this.#recordMaxBytes)),
          );
        if (data.damaged.length > 0) await this.#keepDamaged(client, playerId, row, data);
        await client.query(
          `UPDATE system_player_record SET format = $2, record = $3::json, version = version + 1, updated_at = $4
           WHERE player_id = $1`,
          [playerId, PLAYER_ROW_FORMAT, text, this.#now()],
        );
        return { value, record, ticks: ticks.length };
      }).then(({ value, record, ticks }) => {
        this.#committed(playerId, record, ticks);
        return value;
      }),
    );
  }

  /**
   * For the game tick, on a player loaded here (online on this server): `work` runs at once on the record as last
   * seen here and is kept in memory; one row transaction writes the kept tick work after the coalescing delay
   * (or the player's next row transaction does), replaying it on the row as it is then, so a change another
   * server made meanwhile is kept. A crash loses at most the kept tick work. `work` must be a change that may be
   * replayed on a newer record (add time online), never one that reads a decision from it.
   */
  tickTransaction<T>(playerId: string, work: (data: PlayerData) => T): TickOutcome<T> {
    const pinned = this.#pinned.get(playerId);
    if (pinned === undefined) return { ran: false };
    const data = new PlayerData(structuredClone(pinned.record));
    const value = work(data);
    if (data.changed) {
      pinned.record = data.toRecord();
      pinned.pending.push(work);
      this.#scheduleTicks(playerId, pinned);
    }
    return { ran: true, value };
  }

  /** Keeps the player's record here for tick transactions (they are online on this server). */
  async load(playerId: string): Promise<void> {
    this.#checkId(playerId);
    if (this.#pinned.has(playerId)) return;
    const record = await this.record(playerId);
    if (!this.#pinned.has(playerId)) this.#pinned.set(playerId, { record, pending: [], scheduled: false });
  }

  /** Writes the player's kept tick work and forgets the record. */
  async unload(playerId: string): Promise<void> {
    this.#checkId(playerId);
    await this.#writeTicks(playerId);
    this.#pinned.delete(playerId);
  }

  /** After a commit: the record as written, with the tick work that came in meanwhile still kept. */
  #committed(playerId: string, record: PlayerRecord | undefined, written: number): void {
    const pinned = this.#pinned.get(playerId);
    if (pinned === undefined || record === undefined) return;
    pinned.pending.splice(0, written);
    const data = new PlayerData(structuredClone(record));
    for (const tick of pinned.pending) tick(data);
    pinned.record = data.toRecord();
  }

  #scheduleTicks(playerId: string, pinned: Pinned): void {
    if (pinned.scheduled) return;
    pinned.scheduled = true;
    const schedule = this.#options.schedule ?? ((task) => void setTimeout(() => void task(), 0));
    const write = (): void =>
      schedule(async () => {
        pinned.scheduled = false;
        await this.#writeTicks(playerId);
      });
    const delay = this.#options.tickWriteDelayMillis ?? 0;
    if (delay <= 0) write();
    else setTimeout(write, delay).unref();
  }

  /** One row transaction with the kept tick work; a failure keeps it for the next one (logged). */
  async #writeTicks(playerId: string): Promise<void> {
    if ((this.#pinned.get(playerId)?.pending.length ?? 0) === 0) return;
    try {
      await this.transaction(playerId, () => undefined);
    } catch (error) {
      this.#logger.error(`tick changes of ${playerId} were not written; will retry`, error);
    }
  }

  async readChat(playerId: string): Promise<ChatRecord> {
    try {
      this.#checkId(playerId);
      const { rows } = await this.#pool.query(
        "SELECT format, chat FROM system_player_chat WHERE player_id = $1",
        [playerId],
      );
      return this.#chatOf(playerId, rows[0]);
    } catch (error) {
      this.#logger.error(`chat cache of ${playerId} could not be read`, error);
      return emptyChatRecord(playerId, 0);
    }
  }

  /**
   * Replaces the chat cache in one short transaction on its own row (a business write never waits for it). A
   * cache over the size limit loses its oldest history entries until it fits.
   */
  async writeChat(playerId: string, update: (chat: ChatRecord) => ChatRecord): Promise<boolean> {
    try {
      this.#checkId(playerId);
    } catch (error) {
      this.#logger.error(`chat cache of ${playerId} was not written`, error);
      return false;
    }
    return this.#chats.run(playerId, async () => {
      try {
        await inTransaction(this.#pool, async (client) => {
          await client.query(
            `INSERT INTO system_player_chat (player_id, format, chat, updated_at) VALUES ($1, $2, $3::json, $4)
             ON CONFLICT (player_id) DO NOTHING`,
            [playerId, PLAYER_ROW_FORMAT, JSON.stringify(emptyChatRecord(playerId, 0)), this.#now()],
          );
          const { rows } = await client.query(
            "SELECT format, chat FROM system_player_chat WHERE player_id = $1 FOR UPDATE",
            [playerId],
          );
          const text = this.#fit(update(this.#chatOf(playerId, rows[0])));
          await client.query(
            "UPDATE system_player_chat SET format = $2, chat = $3::json, updated_at = $4 WHERE player_id = $1",
            [playerId, PLAYER_ROW_FORMAT, text, this.#now()],
          );
        });
        return true;
      } catch (error) {
        this.#logger.error(`chat cache of ${playerId} was not written`, error);
        return false;
      }
    });
  }

  /** revoke/reset: deletes the player's record, chat cache and kept copies (on every server at once). */
  async reset(playerId: string): Promise<void> {
    this.#checkId(playerId);
    const pinned = this.#pinned.get(playerId);
    if (pinned !== undefined) {
      pinned.pending = [];
      pinned.record = emptyPlayerRecord(playerId);
    }
    await this.#players.run(playerId, () =>
      this.#chats.run(playerId, () =>
        inTransaction(this.#pool, async (client) => {
          for (const table of ["system_player_record", "system_player_chat", "system_player_record_kept"])
            await client.query(`DELETE FROM ${table} WHERE player_id = $1`, [playerId]);
        }),
      ),
    );
  }

  /** Writes the tick work kept in memory; every other change was committed before it resolved. */
  async flush(): Promise<void> {
    await Promise.all([...this.#pinned.keys()].map((playerId) => this.#writeTicks(playerId)));
  }

  /** Writes the kept tick work; the pool belongs to the storage that opened it. */
  async close(): Promise<void> {
    await this.flush();
  }

  /** The player's row, locked until the transaction ends; created empty the first time. */
  async #lockRow(client: PoolClient, playerId: string): Promise<unknown> {
    const select = "SELECT format, record, version FROM system_player_record WHERE player_id = $1 FOR UPDATE";
    const found = await client.query(select, [playerId]);
    if (found.rows[0] !== undefined) return found.rows[0];
    await client.query(
      `INSERT INTO system_player_record (player_id, format, record, version, updated_at)
       VALUES ($1, $2, $3::json, 0, $4) ON CONFLICT (player_id) DO NOTHING`,
      [playerId, PLAYER_ROW_FORMAT, JSON.stringify(emptyPlayerRecord(playerId)), this.#now()],
    );
    return (await client.query(select, [playerId])).rows[0];
  }

  /**
   * Entries their codecs refuse read as empty and are replaced by this write: the record as it was is kept first
   * (`system_player_record_kept`), in the same transaction, and an admin hears of it in the log.
   */
  async #keepDamaged(client: PoolClient, playerId: string, row: unknown, data: PlayerData): Promise<void> {
    const reason = data.damaged.map((entry) => `${entry.owner}/${entry.type}: ${entry.reason}`).join("; ");
    await client.query(
      `INSERT INTO system_player_record_kept (player_id, kept_at, reason, record)
       VALUES ($1, $2, $3, $4::json)`,
      [playerId, this.#now(), reason, JSON.stringify((row as { record?: unknown }).record ?? null)],
    );
    this.#logger.error(`player record of ${playerId} held damaged entries (kept a copy): ${reason}`);
  }

  #recordOf(playerId: string, row: unknown): PlayerRecord {
    if (row === undefined) return emptyPlayerRecord(playerId);
    const decoded = decodeRecordRow(row, playerId);
    if (decoded.success) return decoded.value;
    // a refused format may be a newer build's: never guessed, never overwritten
    throw new Error(`player record of ${playerId} is unreadable: ${decoded.error}`);
  }

  #chatOf(playerId: string, row: unknown): ChatRecord {
    if (row === undefined) return emptyChatRecord(playerId, 0);
    const decoded = decodeChatRow(row, playerId);
    if (decoded.success) return decoded.value;
    this.#logger.warn(`chat cache of ${playerId} is unreadable (${decoded.error}); read as empty`);
    return emptyChatRecord(playerId, 0);
  }

  /** The cache's JSON text within the size limit: its oldest quarter of history goes until it fits. */
  #fit(chat: ChatRecord): string {
    let next = chat;
    for (;;) {
      const text = JSON.stringify(next);
      if (Buffer.byteLength(text) <= this.#chatMaxBytes) return text;
      if (next.history.length === 0) throw new Error(`chat cache over ${this.#chatMaxBytes} bytes`);
      next = { ...next, history: next.history.slice(Math.ceil(next.history.length / 4)) };
    }
  }

  #checkId(playerId: string): void {
    if (!PLAYER_ID.test(playerId)) throw new TypeError(`not a player UUID: ${JSON.stringify(playerId)}`);
  }
}
