import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "./atomic-file.js";
import type { Codec } from "./codec.js";
import { CorruptFileError } from "./corrupt-file-error.js";
import type { Logger } from "./logger.js";

/**
 * What a ConfigInstance does with a file it cannot read or decode. `defaults`: log it, leave the file as it is
 * and use the defaults (or the previous value); a later `set` replaces the file. `refuse`: for files that hold
 * admin decisions, the first load throws, a later reload keeps the previous value, and `set` is refused until a
 * reload succeeds, so the file is never replaced by defaults.
 */
export type InvalidConfigPolicy = "defaults" | "refuse";

/**
 * One JSON config file (ConfigInstance of the seeds): `get()` returns the current snapshot, `set(next)`
 * persists it with an atomic write, `reload()` re-reads the file. A missing file gives the defaults (and is
 * written so admins can find it); an unreadable or invalid file is never written over by a read and is
 * handled as `onInvalid` says (default `defaults`).
 */
export class ConfigInstance<T> {
  #value: T;
  readonly #listeners: ((value: T) => void)[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  /** Whether the file was read (or written) successfully once. */
  #loaded: boolean;
  /** What is wrong with the file on disk; undefined when it was read successfully last time. */
  #problem: string | undefined;

  constructor(
    private readonly options: {
      readonly path: string | undefined;
      readonly codec: Codec<T>;
      readonly defaults: T;
      readonly logger: Logger;
      readonly name: string;
      readonly onInvalid?: InvalidConfigPolicy;
    },
  ) {
    this.#value = options.defaults;
    this.#loaded = options.path === undefined;
  }

  get(): T {
    return this.#value;
  }

  /** What is wrong with the file (path, field and reason) since the last reload; undefined when it is fine. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /**
   * Persists `next` and makes it current. Writes and reloads run one at a time, so file and value agree.
   * With `onInvalid: "refuse"` it rejects (a CorruptFileError) while the file on disk is invalid, and before
   * the first successful load, so the admin's file is never replaced.
   */
  set(next: T): Promise<void> {
    return this.#serial(async () => {
      this.#checkWritable();
      await this.#write(next);
    });
  }

  /**
   * Persists `change(current)`, where current is the value when this write's turn comes: a read-modify-write in
   * one step, so two concurrent changes never lose one another (as `set({...get(), …})` would).
   */
  modify(change: (current: T) => T): Promise<void> {
    return this.#serial(async () => {
      this.#checkWritable();
      await this.#write(change(this.#value));
    });
  }

  /**
   * Re-reads the file; returns false (keeping the previous value) when it is invalid. With
   * `onInvalid: "refuse"`, an invalid file at the first load throws a CorruptFileError naming file and field.
   */
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

  #refusing(): boolean {
    return this.options.onInvalid === "refuse";
  }

  #checkWritable(): void {
    const path = this.options.path;
    if (!this.#refusing() || path === undefined) return;
    if (this.#problem !== undefined)
      throw new CorruptFileError(
        path,
        `${path} is invalid (${this.#problem}); it is not written until it is fixed and reloaded`,
      );
    if (!this.#loaded) throw new Error(`${this.options.name}: ${path} was not loaded; refusing to write it`);
  }

  async #write(next: T): Promise<void> {
    const encoded = this.options.codec.encode(next);
    if (this.options.path !== undefined) {
      await mkdir(dirname(this.options.path), { recursive: true });
      await writeFileAtomic(this.options.path, `${JSON.stringify(encoded, null, 2)}\n`);
    }
    this.#value = next;
    this.#loaded = true;
    this.#notify();
  }

  async #read(): Promise<boolean> {
    const path = this.options.path;
    if (path === undefined) return true;
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        return this.#invalid(path, `cannot be read: ${(error as Error).message}`, error);
      this.#problem = undefined;
      await this.#write(this.options.defaults);
      return true;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      return this.#invalid(path, `is not valid JSON: ${(error as Error).message}`, error);
    }
    const decoded = this.options.codec.decode(data);
    if (!decoded.success) return this.#invalid(path, `is invalid: ${decoded.error}`, undefined);
    this.#problem = undefined;
    this.#loaded = true;
    this.#value = decoded.value;
    this.#notify();
    return true;
  }

  /** Handles a file that cannot be used: it is left untouched; what else happens depends on `onInvalid`. */
  #invalid(path: string, problem: string, cause: unknown): false {
    if (!this.#refusing()) {
      this.options.logger.error(`${this.options.name}: ${path} ${problem}; keeping the previous settings`);
      return false;
    }
    this.#problem = problem;
    if (!this.#loaded)
      throw new CorruptFileError(
        path,
        `${path} ${problem}. System does not replace it with defaults: fix the file (or remove it to start from the defaults)`,
        { cause },
      );
    this.options.logger.error(
      `${path} ${problem}; keeping the settings loaded before and refusing changes until the file is fixed and reloaded`,
    );
    return false;
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
