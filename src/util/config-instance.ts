import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "./atomic-file.js";
import type { Codec } from "./codec.js";
import type { Logger } from "./logger.js";

/**
 * One JSON config file (ConfigInstance of the seeds): `get()` returns the current snapshot, `set(next)`
 * persists it with an atomic write, `reload()` re-reads the file. A missing file gives the defaults (and is
 * written so admins can find it); an unreadable or invalid file is logged, left untouched, and gives the defaults.
 */
export class ConfigInstance<T> {
  #value: T;
  readonly #listeners: ((value: T) => void)[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly options: {
      readonly path: string | undefined;
      readonly codec: Codec<T>;
      readonly defaults: T;
      readonly logger: Logger;
      readonly name: string;
    },
  ) {
    this.#value = options.defaults;
  }

  get(): T {
    return this.#value;
  }

  /** Persists `next` and makes it current. Writes and reloads run one at a time, so file and value agree. */
  set(next: T): Promise<void> {
    return this.#serial(() => this.#write(next));
  }

  /** Re-reads the file; returns false (keeping the previous value) when it is invalid. */
  reload(): Promise<boolean> {
    return this.#serial(() => this.#read());
  }

  #serial<R>(work: () => Promise<R>): Promise<R> {
    const run = this.#queue.then(work);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async #write(next: T): Promise<void> {
    const encoded = this.options.codec.encode(next);
    if (this.options.path !== undefined) {
      await mkdir(dirname(this.options.path), { recursive: true });
      await writeFileAtomic(this.options.path, `${JSON.stringify(encoded, null, 2)}\n`);
    }
    this.#value = next;
    this.#notify();
  }

  async #read(): Promise<boolean> {
    const path = this.options.path;
    if (path === undefined) return true;
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        this.options.logger.error(`${this.options.name}: cannot read ${path}`, error);
        return false;
      }
      await this.#write(this.options.defaults);
      return true;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      this.options.logger.error(
        `${this.options.name}: ${path} is not valid JSON; keeping the previous settings`,
        error,
      );
      return false;
    }
    const decoded = this.options.codec.decode(data);
    if (!decoded.success) {
      this.options.logger.error(
        `${this.options.name}: ${path} is invalid (${decoded.error}); keeping the previous settings`,
      );
      return false;
    }
    this.#value = decoded.value;
    this.#notify();
    return true;
  }

  onChange(listener: (value: T) => void): void {
    this.#listeners.push(listener);
  }

  #notify(): void {
    // A broken listener must not make a successful write or reload look failed, nor starve the others.
    for (const listener of this.#listeners) {
      try {
        listener(this.#value);
      } catch (error) {
        this.options.logger.error(`${this.options.name}: a change listener failed`, error);
      }
    }
  }
}
