import type { Identifier } from "./identifier.js";

/**
 * A registry of values by Identifier. After `freeze()`, nothing more can be registered and every
 * entry has a stable numeric id (entries sorted by id text), identical on every side with the same entries.
 */
export class Registry<T> {
  readonly #entries = new Map<string, { readonly id: Identifier; readonly value: T }>();
  #numeric: string[] | undefined;

  constructor(readonly name: string) {}

  register(id: Identifier, value: T): T {
    if (this.#numeric !== undefined)
      throw new Error(`registry ${this.name} is frozen; cannot register ${id}`);
    const key = id.toString();
    if (this.#entries.has(key)) throw new Error(`registry ${this.name} already has ${key}`);
    this.#entries.set(key, { id, value });
    return value;
  }

  get(id: Identifier | string): T | undefined {
    return this.#entries.get(id.toString())?.value;
  }

  has(id: Identifier | string): boolean {
    return this.#entries.has(id.toString());
  }

  freeze(): void {
    if (this.#numeric === undefined) this.#numeric = [...this.#entries.keys()].sort();
  }

  get frozen(): boolean {
    return this.#numeric !== undefined;
  }

  /** The stable numeric id of an entry; only after freeze. */
  numericId(id: Identifier | string): number | undefined {
    if (this.#numeric === undefined) throw new Error(`registry ${this.name} is not frozen`);
    const index = this.#numeric.indexOf(id.toString());
    return index < 0 ? undefined : index;
  }

  /** The entry with a numeric id; undefined for unknown ids (never throws on untrusted numbers). */
  byNumericId(numeric: number): T | undefined {
    if (this.#numeric === undefined) throw new Error(`registry ${this.name} is not frozen`);
    const key = this.#numeric[numeric];
    return key === undefined ? undefined : this.#entries.get(key)?.value;
  }

  ids(): Identifier[] {
    return [...this.#entries.values()].map((entry) => entry.id);
  }

  values(): T[] {
    return [...this.#entries.values()].map((entry) => entry.value);
  }

  get size(): number {
    return this.#entries.size;
  }
}
