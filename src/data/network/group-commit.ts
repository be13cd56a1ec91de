interface Waiting<Op, Result> {
  readonly op: Op;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit in the process: operations submitted while a commit is in flight wait and go together in the
 * next one, so many concurrent writers share a few round trips and fsyncs. `commit` receives the operations
 * in submission order and returns one result per operation, or throws to fail them all; each result may also
 * be an Error to fail that one operation.
 */
export class GroupCommit<Op, Result> {
  #queue: Waiting<Op, Result>[] = [];
  #running = false;
  #scheduled = false;
  #drained: (() => void)[] = [];

  constructor(
    private readonly commit: (ops: readonly Op[]) => Promise<readonly (Result | Error)[]>,
    private readonly maxBatch = 1_000,
  ) {}

  /** Resolves once the operation's commit has returned. */
  submit(op: Op): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.#queue.push({ op, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves when nothing is queued or in flight. */
  drain(): Promise<void> {
    if (!this.#running && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  #schedule(): void {
    if (this.#running || this.#scheduled) return;
    this.#scheduled = true;
    // After the current microtasks: callers that submit in the same turn share the first commit too.
    queueMicrotask(() => {
      this.#scheduled = false;
      void this.#run();
    });
  }

  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.maxBatch);
      try {
        const results = await this.commit(batch.map((waiting) => waiting.op));
        batch.forEach((waiting, index) => {
          const result = results[index];
          if (result instanceof Error) waiting.reject(result);
          else waiting.resolve(result as Result);
        });
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.#running = false;
    for (const wake of this.#drained.splice(0)) wake();
  }
}
