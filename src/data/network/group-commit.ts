interface Waiting<Op, Result> {
  readonly op: Op;
  readonly key: string;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/** Options of {@link GroupCommit}. */
export interface GroupCommitOptions<Op> {
  /** Operations of one key commit in submission order: never two of them in commits running at once. */
  readonly key: (op: Op) => string;
  /** Commits running at once (each on its own connection: the database shares their WAL flushes). */
  readonly concurrency?: number;
  readonly maxBatch?: number;
}

/**
 * Group commit in the process: operations submitted while commits are in flight wait and go together in the
 * next one, so many concurrent writers share a few round trips and fsyncs. `commit` receives operations in
 * submission order and returns one result per operation, or throws to fail them all; a result may also be an
 * Error to fail that one operation.
 */
export class GroupCommit<Op, Result> {
  #queue: Waiting<Op, Result>[] = [];
  readonly #busyKeys = new Set<string>();
  #running = 0;
  #scheduled = false;
  #drained: (() => void)[] = [];

  constructor(
    private readonly commit: (ops: readonly Op[]) => Promise<readonly (Result | Error)[]>,
    private readonly options: GroupCommitOptions<Op>,
  ) {}

  /** Resolves once the operation's commit has returned. */
  submit(op: Op): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.#queue.push({ op, key: this.options.key(op), resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves when nothing is queued or in flight. */
  drain(): Promise<void> {
    if (this.#running === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // After the current microtasks: callers that submit in the same turn share the first commit too.
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#start();
    });
  }

  /** Starts commits while there is room, each with the queued operations whose keys are free. */
  #start(): void {
    while (this.#running < (this.options.concurrency ?? 1) && this.#queue.length > 0) {
      const batch: Waiting<Op, Result>[] = [];
      const blocked = new Set(this.#busyKeys);
      const rest: Waiting<Op, Result>[] = [];
      for (const waiting of this.#queue) {
        if (blocked.has(waiting.key) || batch.length >= (this.options.maxBatch ?? 1_000)) {
          // a later op of a held key waits behind the earlier one
          blocked.add(waiting.key);
          rest.push(waiting);
        } else batch.push(waiting);
      }
      if (batch.length === 0) return;
      this.#queue = rest;
      for (const waiting of batch) this.#busyKeys.add(waiting.key);
      this.#running++;
      void this.#run(batch);
    }
  }

  async #run(batch: readonly Waiting<Op, Result>[]): Promise<void> {
    try {
      const results = await this.commit(batch.map((waiting) => waiting.op));
      batch.forEach((waiting, index) => {
        const result = results[index];
        if (result instanceof Error) waiting.reject(result);
        else waiting.resolve(result as Result);
      });
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      for (const waiting of batch) this.#busyKeys.delete(waiting.key);
      this.#running--;
      this.#start();
      if (this.#running === 0 && this.#queue.length === 0) for (const wake of this.#drained.splice(0)) wake();
    }
  }
}
