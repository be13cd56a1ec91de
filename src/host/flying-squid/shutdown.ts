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

/** exit-hook registers from a dynamic import that may settle late; remove its listener whenever it arrives. */
const watchExitHook = (): (() => void) => {
  const onNewListener = (event: string | symbol, listener: (...args: never[]) => unknown): void => {
    if ((event === "SIGINT" || event === "SIGTERM") && isExitHook(listener)) setImmediate(detachExitHook);
  };
  process.on("newListener", onNewListener);
  return () => process.off("newListener", onNewListener);
};

/**
 * On the first SIGINT or SIGTERM: close the game server, flush storage, then exit 0 (1 if a step failed).
 * A second signal while shutting down exits at once with 130. Returns a function that uninstalls the handlers.
 */
export const installShutdown = (
  steps: ShutdownSteps,
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): (() => void) => {
  detachExitHook();
  const unwatch = watchExitHook();
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      exit(130);
      return;
    }
    stopping = true;
    logger.info(`${signal}: shutting down`);
    void runShutdown(steps, logger).then(exit);
  };
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
