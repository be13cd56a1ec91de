import type { Logger } from "../../../util/logger.js";
import { RconError } from "../rcon/rcon-error.js";
import type { SaveReply } from "../rcon/server-commands.js";

/** The backend as the batcher needs it: a save over RCON, and which RCON login the commands run on. */
export interface SaveTarget {
  /** Runs `minecraft:save-all` and reads its reply; rejects when its outcome is unknown. */
  save(): Promise<SaveReply>;
  /**
   * How many times the RCON client logged in so far: a different count after a save than at an effect means the
   * connection broke in between (the backend may have restarted and lost the effect with its memory).
   */
  logins(): number;
}

interface Waiter {
  /** The RCON login the effect ran on. */
  readonly login: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Makes effects durable on a backend that keeps a give only in memory until it saves. `afterEffect` resolves once
 * a `save-all` that began after the call has finished on the same RCON connection the effect ran on; it rejects
 * when that save failed, or when the connection changed in between (the outcome is then unknown: the backend may
 * have died before saving). Saves are batched: one save covers every effect that completed before it began, and
 * at most one begins per `intervalMillis` while effects wait (none while nothing waits).
 */
export class SaveBatcher {
  /** Effects waiting for the next save to begin. */
  #waiting: Waiter[] = [];
  #running = false;
  #lastStart = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #saves = 0;

  constructor(
    private readonly options: {
      readonly target: SaveTarget;
      readonly intervalMillis: number;
      readonly logger: Logger;
      readonly now?: () => number;
    },
  ) {}

  /** How many saves completed (for the start line and the bench). */
  get saves(): number {
    return this.#saves;
  }

  /**
   * Called right after an effect's reply arrived on RCON login `login`: resolves when a later save has finished
   * on that login. The caller reports the effect done only then.
   */
  afterEffect(login: number): Promise<void> {
    if (this.#closed) return Promise.reject(new RconError("closed", "the gateway is stopping", false));
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ login, resolve, reject });
      this.#schedule();
    });
  }

  /** Saves at once for the effects waiting (a clean stop), and resolves when no save is running. */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#running || this.#waiting.length > 0) {
      if (this.#running) await new Promise((resolve) => setTimeout(resolve, 10));
      else await this.#save();
    }
  }

  /** Fails every waiting effect (their fate stays unknown) and begins no further save. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const waiting = this.#waiting.splice(0);
    for (const waiter of waiting)
      waiter.reject(new RconError("closed", "the gateway stopped before the backend saved", false));
  }

  #now(): number {
    return this.options.now?.() ?? Date.now();
  }

  #schedule(): void {
    if (this.#running || this.#timer !== undefined || this.#waiting.length === 0 || this.#closed) return;
    const wait = Math.max(0, this.#lastStart + this.options.intervalMillis - this.#now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#save();
    }, wait);
  }

  async #save(): Promise<void> {
    if (this.#closed) return;
    const batch = this.#waiting.splice(0);
    if (batch.length === 0) return;
    this.#running = true;
    this.#lastStart = this.#now();
    const { target, logger } = this.options;
    try {
      const reply = await target.save();
      const login = target.logins();
      if (reply.outcome !== "saved") {
        const error = new RconError(
          "unrecognized_reply",
          reply.outcome === "save_failed"
            ? "the backend could not save the game (save-all failed)"
            : "the backend does not know save-all",
          false,
        );
        logger.error(`${batch.length} effect(s) may not be saved: ${error.message}`);
        for (const waiter of batch) waiter.reject(error);
        return;
      }
      this.#saves++;
      for (const waiter of batch)
        if (waiter.login === login) waiter.resolve();
        else
          waiter.reject(
            new RconError(
              "connection_lost",
              "the RCON connection broke between the effect and the save: the backend may have restarted without saving it",
              false,
            ),
          );
    } catch (error) {
      logger.error(`${batch.length} effect(s) may not be saved: the save did not complete`, error);
      const failure = error instanceof Error ? error : new RconError("connection_lost", String(error), false);
      for (const waiter of batch) waiter.reject(failure);
    } finally {
      this.#running = false;
      this.#schedule();
    }
  }
}
