import type { FileHandle } from "node:fs/promises";

interface Pending {
  readonly frame: Buffer;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Appends frames to an open file with group commit: every frame waiting while one write + fdatasync runs
 * goes into the next write + fdatasync together. A commit resolves only after its fdatasync. After a failed
 * write or sync the log is broken for good (the page cache can no longer be trusted); later appends fail.
 */
export class GroupCommitLog {
  #pending: Pending[] = [];
  #chain: Promise<void> = Promise.resolve();
  #draining = false;
  #broken: unknown;
  #size: number;

  constructor(
    private handle: FileHandle,
    size: number,
    /** Runs after each batch with no write in flight (automatic compaction). */
    private readonly between: () => Promise<void> = async () => {},
  ) {
    this.#size = size;
  }

  /** Bytes in the current file. */
  get size(): number {
    return this.#size;
  }

  get broken(): unknown {
    return this.#broken;
  }

  /** Durably appends one frame. */
  append(frame: Buffer): Promise<void> {
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    return new Promise((resolve, reject) => {
      this.#pending.push({ frame, resolve, reject });
      if (this.#draining) return;
      this.#draining = true;
      this.#chain = this.#chain.then(() => this.#drain());
    });
  }

  /** Runs work with no write in flight (compaction, close); appends meanwhile wait for the next batch. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#chain.then(work);
    this.#chain = result.then(
      () => {},
      () => {},
    );
    return result;
  }

  /** Switches to a new file (after compaction); call only inside `exclusive` or `between`. */
  replace(handle: FileHandle, size: number): void {
    this.handle = handle;
    this.#size = size;
  }

  /** Resolves when nothing is written or waiting. */
  async idle(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.#chain) {
      seen = this.#chain;
      await seen;
    }
  }

  /** Marks the log broken (a failed compaction) so that nothing else is acknowledged. */
  fail(error: unknown): void {
    this.#broken ??= error;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending;
        this.#pending = [];
        if (this.#broken !== undefined) {
          for (const entry of batch) entry.reject(this.#broken);
          continue;
        }
        try {
          const bytes =
            batch.length === 1
              ? (batch[0] as Pending).frame
              : Buffer.concat(batch.map((entry) => entry.frame));
          await this.#writeFully(bytes);
          await this.handle.datasync();
          this.#size += bytes.length;
        } catch (error) {
          this.fail(error);
          for (const entry of batch) entry.reject(error);
          continue;
        }
        for (const entry of batch) entry.resolve();
        try {
          await this.between();
        } catch (error) {
          this.fail(error);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  async #writeFully(bytes: Buffer): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await this.handle.write(
        bytes,
        offset,
        bytes.length - offset,
        this.#size + offset,
      );
      offset += bytesWritten;
    }
  }
}
