import type { Logger } from "../../util/logger.js";
import type { AgentResult } from "../agent-result.js";
import type { EventTask } from "../storage/agent-journal.js";
import { DEFER_MILLIS, type EventExecutorOptions } from "./event-executor-options.js";

/**
 * Event tasks whose effect had to wait (EFFECT_DEFERRED: the world could not take it, nothing changed): how long
 * each waits before it is offered again (doubling per attempt), a log line per deferral with its cause, and the
 * player told once — not at every attempt — until one of their tasks settles or they join again.
 */
export class EventDeferrals {
  readonly #told = new Set<string>();

  constructor(
    private readonly options: Pick<EventExecutorOptions, "deferMillis" | "onDeferred">,
    private readonly logger: Logger,
  ) {}

  /** Records a deferral of the task's `attempts`-th run; the wait before it is offered again. */
  deferred(task: EventTask, result: AgentResult, attempts: number): number {
    const backoff = this.options.deferMillis ?? DEFER_MILLIS;
    const wait = Math.min(backoff.max, backoff.initial * 2 ** Math.min(Math.max(0, attempts - 1), 20));
    const cause = result.failure?.args.join("; ") || "effects unavailable";
    this.logger.info(
      `event ${task.id} of ${task.playerId}: nothing done, it waits (${cause}); attempt ${attempts}, next in ${Math.ceil(wait / 1000)} s or at the player's next join`,
    );
    if (!this.#told.has(task.playerId)) {
      this.#told.add(task.playerId);
      try {
        this.options.onDeferred?.(task, result);
      } catch (error) {
        this.logger.error(`event ${task.id}: the deferral listener failed`, error);
      }
    }
    return wait;
  }

  /** A task of the player settled, or they joined: a later deferral is told again. */
  forget(playerId: string): void {
    this.#told.delete(playerId);
  }
}
