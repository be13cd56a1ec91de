import type { ModelActivity } from "../agent/execution/execution-context.js";
import type { Languages } from "../util/language.js";

/** How long a model call may wait before the player is told System is thinking, and how often it is repeated. */
export const THINKING_DELAY_MILLIS = 1_000;
const THINKING_REPEAT_MILLIS = 2_500;

/** Receives a short progress line for a player (the host shows it in the action bar). */
export type ProgressListener = (playerId: string, text: string) => void;

/**
 * One request's "thinking…" line: shown once a model call has waited longer than the delay, repeated while it
 * keeps waiting (an action bar fades), never after the request ended.
 */
export class ThinkingIndicator implements ModelActivity {
  #waiting = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly show: () => void) {}

  started(): void {
    if (this.#closed) return;
    this.#waiting++;
    if (this.#waiting === 1) this.#arm(THINKING_DELAY_MILLIS);
  }

  finished(): void {
    this.#waiting = Math.max(0, this.#waiting - 1);
    if (this.#waiting === 0) this.#clear();
  }

  /** The request ended: nothing more is shown. */
  close(): void {
    this.#closed = true;
    this.#clear();
  }

  #arm(millis: number): void {
    this.#timer = setTimeout(() => {
      if (this.#closed || this.#waiting === 0) return;
      this.show();
      this.#arm(THINKING_REPEAT_MILLIS);
    }, millis);
    this.#timer.unref();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The progress lines of all requests; the host listens and shows them. */
export class ProgressChannel {
  readonly #listeners: ProgressListener[] = [];

  constructor(private readonly languages: Languages) {}

  listen(listener: ProgressListener): void {
    this.#listeners.push(listener);
  }

  /** An indicator for one request of this player, in their language. */
  indicator(playerId: string, locale: string): ThinkingIndicator {
    return new ThinkingIndicator(() => {
      const text = this.languages.format(locale, "system.progress.thinking", []);
      for (const listener of this.#listeners) listener(playerId, text);
    });
  }
}
