import type { Json } from "../../util/codec.js";
import type { DataStorage, ModuleStorage } from "./module-storage.js";

/** One storage's persisted form: the codec id it was written with and the encoded data. */
export interface StoredModuleData {
  readonly codec: string;
  readonly data: Json;
}

/** Player preferences that decide what may be kept and sent outside (ConversationService). */
export interface PlayerPreferences {
  /** Keep conversation history. */
  readonly history: boolean;
  /** Allow external AI and web services. */
  readonly external: boolean;
  /** Narrate cards that carry speech (off unless the player turns it on). */
  readonly speech?: boolean;
}

/** The plain, persisted form of a player's private record (<world>/system/players/<UUID>.dat). */
export interface PlayerRecord {
  readonly playerId: string;
  /** Memory generation: forget/revoke bump it so that older work cannot write back. */
  readonly generation: number;
  /** Undefined until the player chooses (the ConversationService applies defaults). */
  readonly preferences?: PlayerPreferences;
  /** By ServerModule id, then by storage type. Data of features not installed now is kept untouched. */
  readonly moduleData: { readonly [owner: string]: { readonly [type: string]: StoredModuleData } };
}

/** A new player's record. */
export const emptyPlayerRecord = (playerId: string): PlayerRecord => ({
  playerId,
  generation: 0,
  moduleData: {},
});

/** A stored entry the current codec of its storage refuses (a damaged file): read as empty, replaced when written. */
export interface DamagedEntry {
  readonly owner: string;
  readonly type: string;
  readonly reason: string;
}

/**
 * The working copy of a player's record inside one transaction or read. Storages are materialised from the
 * persisted JSON on first access, so no caller ever holds the committed state.
 */
export class PlayerData {
  readonly #record: PlayerRecord;
  readonly #live = new Map<
    string,
    { declared: ModuleStorage<unknown, DataStorage<unknown>>; storage: DataStorage<unknown> }
  >();
  #generation: number;
  #preferences: PlayerPreferences | undefined;
  #changed = false;
  readonly #tolerant: boolean;
  readonly #damaged: DamagedEntry[] = [];

  /**
   * `tolerateDamage`: an entry whose data its codec refuses reads as empty and is reported by `damaged` (the
   * store keeps a copy of the file before it writes); without it such an entry throws. A different codec id is
   * refused either way: it may be a newer format, never guessed.
   */
  constructor(record: PlayerRecord, options: { readonly tolerateDamage?: boolean } = {}) {
    this.#tolerant = options.tolerateDamage === true;
    this.#record = record;
    this.#generation = record.generation;
    this.#preferences = record.preferences;
  }

  get playerId(): string {
    return this.#record.playerId;
  }
  get generation(): number {
    return this.#generation;
  }
  get preferences(): PlayerPreferences | undefined {
    return this.#preferences;
  }

  /** Bumps the memory generation (forget, revoke); returns the new one. */
  bumpGeneration(): number {
    this.#generation++;
    this.#changed = true;
    return this.#generation;
  }

  /** Stores preferences; marks the record changed only when a value really differs. */
  setPreferences(next: PlayerPreferences): void {
    const current = this.#preferences;
    const speech = next.speech === true;
    if (
      current !== undefined &&
      next.history === current.history &&
      next.external === current.external &&
      speech === (current.speech === true)
    )
      return;
    this.#preferences = { history: next.history, external: next.external, speech };
    this.#changed = true;
  }

  /** Forgets the preferences (revoke): the defaults apply again. */
  clearPreferences(): void {
    if (this.#preferences === undefined) return;
    this.#preferences = undefined;
    this.#changed = true;
  }

  /** The storage of a declaration; use {@link ModuleData.get}. */
  storage<D, S extends DataStorage<D>>(declared: ModuleStorage<D, S>): S {
    const key = `${declared.owner}\u0000${declared.type}`;
    const existing = this.#live.get(key);
    if (existing !== undefined) return existing.storage as S;
    const stored = this.#record.moduleData[declared.owner.toString()]?.[declared.type];
    if (stored !== undefined && stored.codec !== declared.codecId.toString())
      throw new Error(`storage ${declared} was written with codec ${stored.codec}, not ${declared.codecId}`);
    let storage: S;
    try {
      storage = declared.create(stored === undefined ? undefined : structuredClone(stored.data));
    } catch (error) {
      if (!this.#tolerant || stored === undefined) throw error;
      this.#damaged.push({
        owner: declared.owner.toString(),
        type: declared.type,
        reason: error instanceof Error ? error.message : String(error),
      });
      storage = declared.create(undefined);
    }
    this.#live.set(key, {
      declared: declared as unknown as ModuleStorage<unknown, DataStorage<unknown>>,
      storage: storage as DataStorage<unknown>,
    });
    return storage;
  }

  /** The damaged entries this working copy met (read as empty). */
  get damaged(): readonly DamagedEntry[] {
    return this.#damaged;
  }

  /** Whether anything really changed (a dirty storage, generation or preferences, a damaged entry replaced). */
  get changed(): boolean {
    if (this.#changed || this.#damaged.length > 0) return true;
    for (const { storage } of this.#live.values()) if (storage.dirty) return true;
    return false;
  }

  /** The record with every dirty storage re-encoded; untouched data is shared with the input record. */
  toRecord(): PlayerRecord {
    const moduleData: Record<string, Record<string, StoredModuleData>> = {};
    for (const [owner, types] of Object.entries(this.#record.moduleData)) moduleData[owner] = { ...types };
    const replaced = new Set(this.#damaged.map((entry) => `${entry.owner}\u0000${entry.type}`));
    for (const [key, { declared, storage }] of this.#live) {
      if (!storage.dirty && !replaced.has(key)) continue;
      const owner = declared.owner.toString();
      moduleData[owner] ??= {};
      (moduleData[owner] as Record<string, StoredModuleData>)[declared.type] = {
        codec: declared.codecId.toString(),
        data: declared.encode(storage),
      };
    }
    return {
      playerId: this.#record.playerId,
      generation: this.#generation,
      ...(this.#preferences === undefined ? {} : { preferences: this.#preferences }),
      moduleData,
    };
  }
}

/** The only way business code reaches a module's player storage. */
export const ModuleData = {
  get<D, S extends DataStorage<D>>(data: PlayerData, storage: ModuleStorage<D, S>): S {
    return data.storage(storage);
  },
} as const;
