import { AgentException } from "../../agent/agent-exception.js";
import { AgentFailure } from "../../agent/agent-failure.js";
import { isTerminal, type State } from "../../agent/storage/state.js";

/** Limits of one journal table: entries and encoded bytes. */
export interface TableLimits {
  readonly maxEntries: number;
  readonly maxBytes: number;
}

interface Slot<V> {
  value: V;
  bytes: number;
}

/**
 * An insertion-ordered table with limits by count and encoded bytes. Making room evicts the oldest terminal
 * entries first; unfinished entries (QUEUED/RUNNING/WAITING) are never evicted, so STORAGE_FULL is reported
 * only when the remaining entries are all unfinished.
 */
export class BoundedTable<V extends { readonly state: State }> {
  readonly #slots = new Map<string, Slot<V>>();
  #bytes = 0;

  constructor(
    readonly name: string,
    readonly limits: TableLimits,
    /** Terminal entries that unfinished work still needs (a DONE receipt of a pending event's step). */
    private readonly pinned: (key: string, value: V) => boolean = () => false,
  ) {}

  get size(): number {
    return this.#slots.size;
  }
  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): V | undefined {
    return this.#slots.get(key)?.value;
  }

  has(key: string): boolean {
    return this.#slots.has(key);
  }

  /** Entries with their encoded size, oldest first. */
  *entries(): IterableIterator<[string, V, number]> {
    for (const [key, slot] of this.#slots) yield [key, slot.value, slot.bytes];
  }

  /**
   * Inserts or replaces an entry, evicting old terminal entries to stay within limits. A new key that still
   * does not fit is refused with STORAGE_FULL and nothing changes; a replaced key (`force`) is always stored.
   * Returns the evicted keys.
   */
  set(key: string, value: V, bytes: number, force = false): string[] {
    const previous = this.#slots.get(key);
    const count = this.#slots.size + (previous === undefined ? 1 : 0);
    const total = this.#bytes - (previous?.bytes ?? 0) + bytes;
    const victims = this.#victims(key, count, total);
    if (victims.fits === false && !force) throw new AgentException(AgentFailure.STORAGE_FULL.with(this.name));
    for (const victim of victims.keys) this.delete(victim);
    const slot = this.#slots.get(key);
    if (slot === undefined) this.#slots.set(key, { value, bytes });
    else {
      this.#bytes -= slot.bytes;
      slot.value = value;
      slot.bytes = bytes;
    }
    this.#bytes += bytes;
    return victims.keys;
  }

  delete(key: string): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    this.#bytes -= slot.bytes;
    this.#slots.delete(key);
    return true;
  }

  /** Evicts terminal entries until the table is within its limits again (after loading); returns them. */
  trim(): string[] {
    const victims = this.#victims(undefined, this.#slots.size, this.#bytes);
    for (const victim of victims.keys) this.delete(victim);
    return victims.keys;
  }

  #victims(keep: string | undefined, count: number, total: number): { keys: string[]; fits: boolean } {
    const keys: string[] = [];
    const over = (): boolean => count > this.limits.maxEntries || total > this.limits.maxBytes;
    if (!over()) return { keys, fits: true };
    for (const [key, slot] of this.#slots) {
      if (key === keep || !isTerminal(slot.value.state) || this.pinned(key, slot.value)) continue;
      keys.push(key);
      count--;
      total -= slot.bytes;
      if (!over()) return { keys, fits: true };
    }
    return { keys, fits: false };
  }
}
