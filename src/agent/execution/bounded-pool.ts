import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";

/** Work for a pool: it receives a signal that aborts when the pool shuts down. */
export type PoolWork<T> = (signal: AbortSignal) => Promise<T>;

/** The size of one pool: how many run at once and how many may wait. */
export interface PoolLimits {
  readonly running: number;
  readonly queued: number;
}

interface Queued {
  readonly start: () => void;
  readonly cancel: () => void;
}

/**
 * A bounded async pool (the seed's bounded thread pool). Work runs on the event loop and never blocks it;
 * a full queue refuses at once with BUSY; shutdown cancels waiting work and aborts running work.
 */
export class BoundedPool {
  readonly #queue: Queued[] = [];
  readonly #running = new Set<AbortController>();
  readonly #idle: (() => void)[] = [];
  #closed = false;

  constructor(
    readonly name: string,
    readonly limits: PoolLimits,
  ) {
    if (!Number.isInteger(limits.running) || limits.running < 1)
      throw new RangeError(`pool ${name}: running must be a positive integer`);
    if (!Number.isInteger(limits.queued) || limits.queued < 0)
      throw new RangeError(`pool ${name}: queued must be a non-negative integer`);
  }

  get running(): number {
    return this.#running.size;
  }

  get queued(): number {
    return this.#queue.length;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Runs `work` when a slot is free. Rejects with AgentException BUSY when the queue is full and CANCELLED
   * when the pool shut down before the work started; a started work's own outcome is passed through. The work's
   * signal is `controller`'s when given (the caller's own cancellation, which a shutdown then aborts too), so
   * the work needs no second signal joined to it.
   */
  submit<T>(work: PoolWork<T>, controller?: AbortController): Promise<T> {
    if (this.#closed) return Promise.reject(new AgentException(AgentFailure.CANCELLED));
    if (this.#running.size >= this.limits.running && this.#queue.length >= this.limits.queued)
      return Promise.reject(new AgentException(AgentFailure.BUSY.with(this.name)));
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        const running = controller ?? new AbortController();
        this.#running.add(running);
        // A microtask boundary turns a synchronous throw in `work` into a rejection.
        Promise.resolve()
          .then(() => work(running.signal))
          .then(resolve, reject)
          .finally(() => {
            this.#running.delete(running);
            this.#next();
          });
      };
      if (this.#running.size < this.limits.running) start();
      else this.#queue.push({ start, cancel: () => reject(new AgentException(AgentFailure.CANCELLED)) });
    });
  }

  /**
   * Refuses new work, completes every queued work CANCELLED and aborts running work's signals.
   * The returned promise settles when running work has finished (it is never awaited by the game loop).
   */
  shutdown(): Promise<void> {
    this.#closed = true;
    for (const queued of this.#queue.splice(0)) queued.cancel();
    for (const controller of this.#running) controller.abort(new AgentException(AgentFailure.CANCELLED));
    return this.#whenIdle();
  }

  #next(): void {
    if (this.#running.size < this.limits.running) this.#queue.shift()?.start();
    if (this.#running.size === 0 && this.#queue.length === 0) for (const wake of this.#idle.splice(0)) wake();
  }

  #whenIdle(): Promise<void> {
    if (this.#running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
