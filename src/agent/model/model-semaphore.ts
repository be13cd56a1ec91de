import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";

/** setTimeout's largest delay; longer waits would fire at once. */
const MAX_TIMER_MILLIS = 2_147_483_647;

interface Waiter {
  readonly grant: () => void;
}

/**
 * The server-wide model concurrency limit. Excess callers wait first in, first out until their deadline
 * (then BUSY) or until their request is cancelled (then CANCELLED, leaving the queue at once).
 */
export class ModelSemaphore {
  #active = 0;
  readonly #queue: Waiter[] = [];

  constructor(private capacity: number) {}

  /** Changes the limit; a higher one admits waiters at once, a lower one applies as slots free. */
  resize(capacity: number): void {
    this.capacity = capacity;
    this.#drain();
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /** Resolves with a release function once a slot is free; `waitMillis` is how long waiting may last. */
  acquire(waitMillis: number, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(new AgentException(AgentFailure.CANCELLED));
    if (this.#queue.length === 0 && this.#active < Math.max(1, this.capacity)) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    if (waitMillis <= 0) return Promise.reject(new AgentException(AgentFailure.BUSY));
    return new Promise((resolve, reject) => {
      const leave = (failure: AgentFailure): void => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        cleanup();
        reject(new AgentException(failure));
      };
      const onAbort = (): void => leave(AgentFailure.CANCELLED);
      const timer = setTimeout(() => leave(AgentFailure.BUSY), Math.min(waitMillis, MAX_TIMER_MILLIS));
      const cleanup = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      const waiter: Waiter = {
        grant: () => {
          cleanup();
          resolve(this.#releaser());
        },
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#queue.length > 0 && this.#active < Math.max(1, this.capacity)) {
      const next = this.#queue.shift();
      if (next === undefined) return;
      this.#active++;
      next.grant();
    }
  }
}
