import type { Logger } from "../../util/logger.js";

/** What a shutdown stops, in order: the game server first (no new requests), then storage. */
export interface ShutdownSteps {
  readonly close: () => Promise<void>;
  readonly flush: () => Promise<void>;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * flying-squid (through exit-hook) exits synchronously on SIGINT/SIGTERM, before any async flush can run;
 * its listeners are bound functions named `bound exit`. Only those are removed.
 */
export const detachExitHook = (): void => {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (isExitHook(listener)) process.off(signal, listener);
    }
  }
};

const isExitHook = (listener: (...args: never[]) => unknown): boolean => listener.name === "bound exit";

/**
 * exit-hook registers from a dynamic import that may settle late; remove its listener whenever it arrives, before
 * any signal can reach it: `newListener` fires just before the listener is added, and a microtask runs once it is
 * added, ahead of the event loop's next signal (a `setImmediate` left a turn in which a stop signal met exit-hook,
 * which exited 143 before the shutdown flushed anything).
 */
const watchExitHook = (): (() => void) => {
  const onNewListener = (event: string | symbol, listener: (...args: never[]) => unknown): void => {
    if ((event === "SIGINT" || event === "SIGTERM") && isExitHook(listener)) queueMicrotask(detachExitHook);
  };
  process.on("newListener", onNewListener);
  return () => process.off("newListener", onNewListener);
};

/**
 * How long after the first stop signal another one is taken as the same stop. A terminal's Ctrl+C signals the
 * whole process group, so `npm start` and the server both receive it and npm forwards its copy moments later;
 * systemd's default KillMode sends SIGTERM to every process of the unit the same way.
 */
export const REPEAT_WINDOW_MILLIS = 2_000;

/** What a stop signal does: start the shutdown, be the echo of the one that started it, or force an exit. */
export type SignalAction = "shut-down" | "repeat" | "force";

/** The action for a signal at `now`, given when the first one arrived (undefined: none yet). */
export const signalAction = (
  firstAt: number | undefined,
  now: number,
  windowMillis: number = REPEAT_WINDOW_MILLIS,
): SignalAction => {
  if (firstAt === undefined) return "shut-down";
  return now - firstAt < windowMillis ? "repeat" : "force";
};

/** Seams of `installShutdown` for tests: how the process exits and the monotonic clock in milliseconds. */
export interface ShutdownOptions {
  readonly exit?: (code: number) => void;
  readonly now?: () => number;
}

/**
 * The signal handler: the first SIGINT or SIGTERM closes the game server, flushes storage, then exits 0 (1 if a
 * step failed). Another signal within `REPEAT_WINDOW_MILLIS` is the same stop and is ignored; a later one (a
 * deliberate second Ctrl+C) exits at once with 130.
 */
export const shutdownHandler = (
  steps: ShutdownSteps,
  logger: Logger,
  options: ShutdownOptions = {},
): ((signal: NodeJS.Signals) => void) => {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const now = options.now ?? (() => performance.now());
  let firstAt: number | undefined;
  return (signal) => {
    const at = now();
    const action = signalAction(firstAt, at);
    if (action === "repeat") return;
    if (action === "force") {
      logger.warn(`${signal} again: exiting before the shutdown finished`);
      exit(130);
      return;
    }
    firstAt = at;
    logger.info(`${signal}: shutting down`);
    void runShutdown(steps, logger).then(exit);
  };
};

/**
 * Installs `shutdownHandler` for SIGINT and SIGTERM, in place of flying-squid's synchronous exit.
 * Returns a function that uninstalls the handlers.
 */
export const installShutdown = (
  steps: ShutdownSteps,
  logger: Logger,
  options: ShutdownOptions = {},
): (() => void) => {
  detachExitHook();
  const unwatch = watchExitHook();
  const onSignal = shutdownHandler(steps, logger, options);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return () => {
    unwatch();
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
};

/** Runs the steps, each even if the one before failed; resolves to the exit code. */
export const runShutdown = async (steps: ShutdownSteps, logger: Logger): Promise<number> => {
  let code = 0;
  for (const [name, step] of [
    ["close", steps.close],
    ["flush", steps.flush],
  ] as const) {
    try {
      await step();
    } catch (error) {
      logger.error(`shutdown step ${name} failed`, error);
      code = 1;
    }
  }
  logger.info("stopped");
  return code;
};
