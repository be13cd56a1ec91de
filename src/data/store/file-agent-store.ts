import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { AgentException } from "../../agent/agent-exception.js";
import { AgentFailure } from "../../agent/agent-failure.js";
import type { AgentStore, ChatRecord, TickOutcome } from "../../agent/storage/agent-store.js";
import { emptyChatRecord } from "../../agent/storage/agent-store.js";
import {
  type DamagedEntry,
  emptyPlayerRecord,
  PlayerData,
  type PlayerRecord,
} from "../../agent/storage/player-data.js";
import { type Logger, silentLogger } from "../../util/logger.js";
import type { Validation } from "../../util/validation.js";
import { CHAT_FILE_VERSION, decodeChat, encodeChat } from "./chat-file.js";
import type { FileAgentStoreOptions } from "./file-agent-store-options.js";
import { KeyedLock } from "./keyed-lock.js";

export type { DamagedPlayerFile, FileAgentStoreOptions } from "./file-agent-store-options.js";

import { type NbtFileKind, quarantine, readNbtFile, writeNbtFile } from "./nbt-file.js";
import { decodePlayer, encodePlayer, PLAYER_FILE_VERSION } from "./player-file.js";
import { keepDamagedCopy, putCopyBack, readPlayerCopy } from "./player-file-repair.js";

/** A chat cache held in memory; `dirty` until the file has it. */
interface ChatEntry {
  record: ChatRecord;
  dirty: boolean;
  scheduled: boolean;
}

interface Entry {
  /** The committed record; replaced, never mutated. */
  record: PlayerRecord;
  /** Kept in memory for tick transactions (the player is online). */
  pinned: boolean;
  /** A business transaction is between its copy and its commit. */
  busy: boolean;
  /** Memory holds tick changes not yet in the file. */
  dirty: boolean;
  scheduled: boolean;
}

const PLAYER_ID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/**
 * Player files and chat caches as gzip NBT, each atomically replaced and size-limited. Player transactions
 * and chat writes use separate locks, so a slow or failing cache write never holds up a business write.
 */
export class FileAgentStore implements AgentStore {
  readonly #entries = new Map<string, Entry>();
  /** Chat caches of players read or written since they were last flushed; written back coalesced. */
  readonly #chatEntries = new Map<string, ChatEntry>();
  readonly #players = new KeyedLock();
  readonly #chats = new KeyedLock();
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #playerKind: NbtFileKind;
  readonly #chatKind: NbtFileKind;
  /** Damaged entries (`player owner type`) whose file was already copied aside by this process. */
  readonly #keptDamage = new Set<string>();

  constructor(private readonly options: FileAgentStoreOptions) {
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#playerKind = {
      label: "player file",
      version: PLAYER_FILE_VERSION,
      maxBytes: options.playerMaxBytes ?? 1024 * 1024,
    };
    this.#chatKind = {
      label: "chat cache",
      version: CHAT_FILE_VERSION,
      maxBytes: options.chatMaxBytes ?? 256 * 1024,
    };
  }

  async read<T>(playerId: string, reader: (data: PlayerData) => T): Promise<T> {
    const record = await this.#players.run(playerId, async () => (await this.#entry(playerId)).record);
    this.#release(playerId);
    const data = new PlayerData(structuredClone(record), { tolerateDamage: true });
    const value = reader(data);
    if (data.damaged.length > 0)
      await this.#players.run(playerId, () => this.#keepDamaged(playerId, data.damaged));
    return value;
  }

  async record(playerId: string): Promise<PlayerRecord> {
    return this.read(playerId, (data) => data.toRecord());
  }

  transaction<T>(playerId: string, work: (data: PlayerData) => T | Promise<T>): Promise<T> {
    return this.#players
      .run(playerId, async () => {
        const entry = await this.#entry(playerId);
        entry.busy = true;
        try {
          const data = new PlayerData(structuredClone(entry.record), { tolerateDamage: true });
          const value = await work(data);
          // a damaged entry is replaced by this write: a copy of the file as it is comes first
          if (data.damaged.length > 0) await this.#keepDamaged(playerId, data.damaged);
          if (!data.changed && !entry.dirty) return value;
          const next = data.changed ? data.toRecord() : entry.record;
          await writeNbtFile(this.#playerPath(playerId), encodePlayer(next), this.#playerKind);
          entry.record = next;
          entry.dirty = false;
          return value;
        } finally {
          entry.busy = false;
        }
      })
      .finally(() => this.#release(playerId));
  }

  tickTransaction<T>(playerId: string, work: (data: PlayerData) => T): TickOutcome<T> {
    const entry = this.#entries.get(playerId);
    if (entry === undefined || !entry.pinned || entry.busy) return { ran: false };
    const data = new PlayerData(structuredClone(entry.record));
    const value = work(data);
    if (data.changed) {
      entry.record = data.toRecord();
      entry.dirty = true;
      this.#scheduleWrite(playerId, entry);
    }
    return { ran: true, value };
  }

  async load(playerId: string): Promise<void> {
    await this.#players.run(playerId, async () => {
      (await this.#entry(playerId)).pinned = true;
    });
  }

  async unload(playerId: string): Promise<void> {
    await this.#writeIfDirty(playerId);
    await this.#writeChatIfDirty(playerId);
    await this.#chats.run(playerId, async () => {
      if (this.#chatEntries.get(playerId)?.dirty === false) this.#chatEntries.delete(playerId);
    });
    const entry = this.#entries.get(playerId);
    if (entry !== undefined) entry.pinned = false;
    this.#release(playerId);
  }

  async readChat(playerId: string): Promise<ChatRecord> {
    return this.#chats.run(playerId, async () => {
      try {
        return structuredClone((await this.#chatEntry(playerId)).record);
      } catch (error) {
        this.#logger.error(`chat cache of ${playerId} could not be read`, error);
        return emptyChatRecord(playerId, 0);
      }
    });
  }

  /**
   * Updates the chat cache in memory at once and writes the file later, coalesced: a burst of requests costs
   * one file write, not one per turn. The cache is a cache: a crash may lose its last turns, never player data.
   * `flush`, `unload` and `close` write what is pending.
   */
  async writeChat(playerId: string, update: (chat: ChatRecord) => ChatRecord): Promise<boolean> {
    return this.#chats.run(playerId, async () => {
      try {
        const entry = await this.#chatEntry(playerId);
        // updaters build a new record (they never mutate theirs), so memory needs no copy here
        entry.record = update(entry.record);
        entry.dirty = true;
        this.#scheduleChatWrite(playerId, entry);
        return true;
      } catch (error) {
        this.#logger.error(`chat cache of ${playerId} was not written`, error);
        return false;
      }
    });
  }

  #scheduleChatWrite(playerId: string, entry: ChatEntry): void {
    if (entry.scheduled) return;
    entry.scheduled = true;
    const schedule = this.options.schedule ?? ((task) => void setTimeout(() => void task(), 0));
    const write = (): void =>
      schedule(async () => {
        entry.scheduled = false;
        await this.#writeChatIfDirty(playerId);
      });
    const delay = this.options.chatWriteDelayMillis ?? 0;
    if (delay <= 0) write();
    else setTimeout(write, delay).unref();
  }

  /** Writes a pending chat cache; a file over its limit loses its oldest history entries until it fits. */
  async #writeChatIfDirty(playerId: string): Promise<void> {
    await this.#chats.run(playerId, async () => {
      const entry = this.#chatEntries.get(playerId);
      if (entry === undefined || !entry.dirty) return;
      let next = entry.record;
      try {
        for (;;) {
          try {
            await writeNbtFile(this.#chatPath(playerId), encodeChat(next), this.#chatKind);
            break;
          } catch (error) {
            if (
              next.history.length === 0 ||
              AgentException.failure(error).code !== AgentFailure.STORAGE_FULL.code
            )
              throw error;
            next = { ...next, history: next.history.slice(Math.ceil(next.history.length / 4)) };
          }
        }
        // (updates wait for this lock, so memory still holds what was written, perhaps trimmed to fit)
        entry.record = next;
        entry.dirty = false;
      } catch (error) {
        entry.dirty = false;
        this.#logger.error(`chat cache of ${playerId} was not written`, error);
      }
    });
  }

  async #chatEntry(playerId: string): Promise<ChatEntry> {
    const cached = this.#chatEntries.get(playerId);
    if (cached !== undefined) return cached;
    const entry: ChatEntry = { record: await this.#readChatFile(playerId), dirty: false, scheduled: false };
    this.#chatEntries.set(playerId, entry);
    return entry;
  }

  async reset(playerId: string): Promise<void> {
    this.#checkId(playerId);
    await this.#players.run(playerId, () =>
      this.#chats.run(playerId, async () => {
        this.#entries.delete(playerId);
        this.#chatEntries.delete(playerId);
        for (const folder of [this.#folder("players"), this.#folder("chat")]) {
          const names = await readdir(folder).catch(() => [] as string[]);
          for (const name of names)
            if (name === `${playerId}.dat` || name.startsWith(`${playerId}.dat.corrupt-`))
              await rm(join(folder, name), { force: true });
        }
      }),
    );
  }

  /** Reads a kept copy of a player's file without touching it: its record, or why it is still unreadable. */
  async readCopy(playerId: string, path: string): Promise<Validation<PlayerRecord>> {
    this.#checkId(playerId);
    return readPlayerCopy(path, playerId, this.#playerKind);
  }

  /**
   * Puts a mended copy back as the player's file (call while they are offline): the file it replaces is kept
   * aside as `<uuid>.dat.replaced-<time>` (returned); the copy itself stays where it is.
   */
  async restore(playerId: string, copy: string): Promise<string | undefined> {
    this.#checkId(playerId);
    return this.#players.run(playerId, async () => {
      const replaced = await putCopyBack(this.#playerPath(playerId), copy, this.#now());
      this.#entries.delete(playerId);
      return replaced;
    });
  }

  async flush(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((playerId) => this.#writeIfDirty(playerId)));
    await Promise.all([...this.#chatEntries.keys()].map((playerId) => this.#writeChatIfDirty(playerId)));
  }

  async close(): Promise<void> {
    await this.flush();
  }

  #scheduleWrite(playerId: string, entry: Entry): void {
    if (entry.scheduled) return;
    entry.scheduled = true;
    const schedule = this.options.schedule ?? ((task) => void setTimeout(() => void task(), 0));
    const write = (): void =>
      schedule(async () => {
        entry.scheduled = false;
        await this.#writeIfDirty(playerId);
      });
    const delay = this.options.tickWriteDelayMillis ?? 0;
    if (delay <= 0) write();
    else setTimeout(write, delay).unref();
  }

  /** Writes coalesced tick changes; a failure is logged and retried on the next change or flush. */
  async #writeIfDirty(playerId: string): Promise<void> {
    await this.#players.run(playerId, async () => {
      const entry = this.#entries.get(playerId);
      if (entry === undefined || !entry.dirty) return;
      const record = entry.record;
      try {
        await writeNbtFile(this.#playerPath(playerId), encodePlayer(record), this.#playerKind);
        if (entry.record === record) entry.dirty = false;
      } catch (error) {
        this.#logger.error(`player file of ${playerId} was not written; will retry`, error);
      }
    });
  }

  /** The cached entry, loading the file first (call under the player lock). */
  async #entry(playerId: string): Promise<Entry> {
    this.#checkId(playerId);
    const cached = this.#entries.get(playerId);
    if (cached !== undefined) return cached;
    const path = this.#playerPath(playerId);
    const damaged = (kept: string, reason: string): void =>
      this.options.onDamaged?.({ playerId, kept, reason });
    const fields = await readNbtFile(path, this.#playerKind, this.#logger, this.#now, damaged);
    let record = emptyPlayerRecord(playerId);
    if (fields !== undefined) {
      const decoded = decodePlayer(fields, playerId);
      if (decoded.success) record = decoded.value;
      else
        damaged(
          await quarantine(path, this.#playerKind, this.#logger, this.#now, decoded.error),
          decoded.error,
        );
    }
    const entry: Entry = { record, pinned: false, busy: false, dirty: false, scheduled: false };
    this.#entries.set(playerId, entry);
    return entry;
  }

  /**
   * Keeps a copy of a player file holding entries their codecs refuse, once per entry and process, before the
   * transaction that met them writes the file (the entries are then replaced by empty ones). Call under the lock.
   */
  async #keepDamaged(playerId: string, entries: readonly DamagedEntry[]): Promise<void> {
    const fresh = entries.filter(
      (entry) => !this.#keptDamage.has(`${playerId} ${entry.owner} ${entry.type}`),
    );
    if (fresh.length === 0) return;
    const path = this.#playerPath(playerId);
    const kept = await keepDamagedCopy(path, this.#now(), fresh, this.#logger);
    for (const entry of fresh) this.#keptDamage.add(`${playerId} ${entry.owner} ${entry.type}`);
    this.options.onDamaged?.({
      playerId,
      kept,
      reason: fresh.map((entry) => entry.reason).join("; "),
      entries: fresh.map((entry) => `${entry.owner}/${entry.type}`),
    });
  }

  /** Drops an offline player's clean entry: memory holds only online players and pending writes. */
  #release(playerId: string): void {
    const entry = this.#entries.get(playerId);
    if (entry !== undefined && !entry.pinned && !entry.dirty && !entry.busy) this.#entries.delete(playerId);
  }

  async #readChatFile(playerId: string): Promise<ChatRecord> {
    this.#checkId(playerId);
    const path = this.#chatPath(playerId);
    const fields = await readNbtFile(path, this.#chatKind, this.#logger, this.#now);
    if (fields === undefined) return emptyChatRecord(playerId, 0);
    const decoded = decodeChat(fields, playerId);
    if (decoded.success) return decoded.value;
    await quarantine(path, this.#chatKind, this.#logger, this.#now, decoded.error);
    return emptyChatRecord(playerId, 0);
  }

  #checkId(playerId: string): void {
    if (!PLAYER_ID.test(playerId)) throw new TypeError(`not a player UUID: ${JSON.stringify(playerId)}`);
  }

  #folder(kind: "players" | "chat"): string {
    return join(this.options.world, "system", kind);
  }
  #playerPath(playerId: string): string {
    return join(this.#folder("players"), `${playerId}.dat`);
  }
  #chatPath(playerId: string): string {
    return join(this.#folder("chat"), `${playerId}.dat`);
  }
}
