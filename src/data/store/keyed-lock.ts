/** Runs work one at a time per key (per player), in arrival order; different keys run in parallel. */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #holders = new Map<string, number>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    this.#holders.set(key, (this.#holders.get(key) ?? 0) + 1);
    const result = previous.then(work);
    const tail = result.then(
      () => {},
      () => {},
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      const count = (this.#holders.get(key) ?? 1) - 1;
      if (count === 0) {
        this.#holders.delete(key);
        if (this.#tails.get(key) === tail) this.#tails.delete(key);
      } else this.#holders.set(key, count);
    });
    return result;
  }

  /** Whether work for the key is running or waiting. */
  held(key: string): boolean {
    return this.#holders.has(key);
  }
}
