interface Entry<T> {
  readonly answer: Promise<T>;
  readonly admittedAt: number;
  settled: boolean;
}

/**
 * Answers shared by fingerprint: an entry is shared while its work runs, and after it finished until
 * `windowMillis` past its admission. Expired entries are swept on every access, so the map stays small.
 */
export class RecentResults<T> {
  readonly #entries = new Map<string, Entry<T>>();

  constructor(
    private readonly windowMillis: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The answer of an identical request still running or admitted within the window. */
  get(key: string): Promise<T> | undefined {
    this.#sweep();
    return this.#entries.get(key)?.answer;
  }

  put(key: string, answer: Promise<T>): void {
    this.#sweep();
    this.#entries.delete(key);
    this.#entries.set(key, { answer, admittedAt: this.now(), settled: false });
  }

  /** The work finished: the answer stays shared until the window closes. */
  settle(key: string, answer: Promise<T>): void {
    const entry = this.#entries.get(key);
    if (entry?.answer === answer) entry.settled = true;
    this.#sweep();
  }

  /** Forgets an answer that must not be shared (refused or cancelled work). */
  delete(key: string, answer: Promise<T>): void {
    if (this.#entries.get(key)?.answer === answer) this.#entries.delete(key);
  }

  #sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.#entries)
      if (entry.settled && now - entry.admittedAt >= this.windowMillis) this.#entries.delete(key);
  }
}
