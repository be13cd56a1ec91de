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
