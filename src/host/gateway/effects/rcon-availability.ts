import type { Logger } from "../../../util/logger.js";
import { listCommand } from "../rcon/player-commands.js";
import type { RconCommands } from "../rcon/rcon-commands.js";
import { RconError } from "../rcon/rcon-error.js";

/** How often an unreachable RCON is asked again: the first wait, doubled after each miss up to the maximum. */
export const DEFAULT_PROBE_MILLIS = { initial: 1_000, max: 30_000 } as const;
/** How long one probe may take. */
const PROBE_TIMEOUT_MILLIS = 5_000;

/**
 * Whether the backend's RCON can be reached, as far as the gateway knows. While it cannot (no connection could be
 * made), rewards are refused at once as `unavailable` (nothing is sent; they wait, still owed) instead of each
 * waiting out a command timeout, and a probe (`list`) asks again with backoff. One line says that rewards wait,
 * one says when RCON answers again; then the listeners run (the assistant offers the waiting rewards again).
 */
export class RconAvailability {
  #down: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #listeners: (() => void)[] = [];

  constructor(
    private readonly options: {
      readonly commands: RconCommands;
      /** `host:port`, for the log lines. */
      readonly where: string;
      readonly logger: Logger;
      readonly probeMillis?: { readonly initial: number; readonly max: number };
    },
  ) {}

  /** Why RCON cannot be reached now; undefined while it can (or nothing failed yet). */
  get down(): string | undefined {
    return this.#down;
  }

  /** Runs `listener` each time RCON answers again after it could not be reached. */
  onBack(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * No connection to RCON could be made (`cause`): says once that rewards wait, and probes until it answers.
   * `quiet` leaves the line to the caller (the gateway's start line says it).
   */
  failed(cause: string, options: { readonly quiet?: boolean } = {}): void {
    if (this.#down !== undefined || this.#closed) return;
    this.#down = cause;
    if (options.quiet !== true)
      this.options.logger.warn(
        `RCON at ${this.options.where} cannot be reached (${cause}): rewards wait, nothing is given until it answers again`,
      );
    this.#probe(this.options.probeMillis?.initial ?? DEFAULT_PROBE_MILLIS.initial);
  }

  /** Stops probing. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #probe(wait: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.options.commands.run(listCommand(), { timeoutMillis: PROBE_TIMEOUT_MILLIS }).then(
        () => this.#back(),
        (error: unknown) => {
          if (this.#closed) return;
          // an answer that is not a list still means RCON answers
          if (error instanceof RconError && error.kind === "unrecognized_reply") return this.#back();
          const max = this.options.probeMillis?.max ?? DEFAULT_PROBE_MILLIS.max;
          this.#probe(Math.min(max, wait * 2));
        },
      );
    }, wait);
    this.#timer.unref();
  }

  #back(): void {
    if (this.#closed || this.#down === undefined) return;
    this.#down = undefined;
    this.options.logger.info(
      `RCON at ${this.options.where} answers again: rewards that waited are given now`,
    );
    for (const listener of this.#listeners)
      try {
        listener();
      } catch (error) {
        this.options.logger.error("a listener of RCON's return failed", error);
      }
  }
}
