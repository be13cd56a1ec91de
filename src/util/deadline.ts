/**
 * Races `work` against a timer and an AbortSignal. The timer is always cleared; the work receives a signal
 * that aborts on timeout or on the outer signal, so an HTTP request under it is closed.
 */
export const withDeadline = async <T>(options: {
  readonly millis: number;
  readonly signal: AbortSignal;
  readonly work: (signal: AbortSignal) => Promise<T>;
  readonly onTimeout: () => Error;
  readonly onAbort: () => Error;
}): Promise<T> => {
  if (options.signal.aborted) throw options.onAbort();
  if (options.millis <= 0) throw options.onTimeout();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let abortListener: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(options.onTimeout());
      reject(options.onTimeout());
    }, options.millis);
    abortListener = () => {
      controller.abort(options.onAbort());
      reject(options.onAbort());
    };
    options.signal.addEventListener("abort", abortListener, { once: true });
  });
  try {
    return await Promise.race([options.work(controller.signal), stop]);
  } finally {
    clearTimeout(timer);
    if (abortListener !== undefined) options.signal.removeEventListener("abort", abortListener);
  }
};

/**
 * Runs `work` with a signal that aborts on the outer signal or once `millis` have passed, and waits for the work
 * itself instead of racing it: for work that ends soon after its signal aborts and reports what it did (a write
 * that knows whether it began its effect).
 */
export const withAbortAfter = async <T>(options: {
  readonly millis: number;
  readonly signal: AbortSignal;
  readonly work: (signal: AbortSignal) => Promise<T>;
}): Promise<T> => {
  const controller = new AbortController();
  const abort = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) abort();
  else options.signal.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(() => controller.abort(new Error("deadline")), Math.max(0, options.millis));
  try {
    return await options.work(controller.signal);
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", abort);
  }
};
