import type { Logger } from "../../util/logger.js";

let holders = 0;
let logger: Logger | undefined;

/** A write to a console that is gone (the terminal or the parent process closed its end of the pipe). */
const brokenPipe = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EPIPE";

const onError = (error: unknown): void => {
  // Logging it would write to the same closed console and fail again, in a loop that never ends.
  if (brokenPipe(error)) return;
  logger?.error("uncaught error in the game server; still serving", error);
};

/**
 * Keeps the process alive when a request or a flying-squid plugin throws outside a promise chain.
 * flying-squid's own handler would exit the process (and adds a listener per join); the host disables it
 * and installs this one listener per process instead. Returns the release function.
 */
export const guardProcess = (target: Logger): (() => void) => {
  logger = target;
  if (holders++ === 0) {
    process.on("uncaughtException", onError);
    process.on("unhandledRejection", onError);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) {
      process.off("uncaughtException", onError);
      process.off("unhandledRejection", onError);
    }
  };
};
