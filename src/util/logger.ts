/** Where System writes its log lines; injected, never global. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, cause?: unknown): void;
}

/**
 * Lines written together once the current turn of the event loop is over: a request's log line leaves after its
 * reply has been sent (a write to stdout is a system call on the reply's path otherwise, about as dear as the
 * reply's own), and a burst of lines under load costs one write. `flush` writes what waits at once.
 */
export class LineBatcher {
  readonly #write: (chunk: string) => void;
  readonly #schedule: (flush: () => void) => void;
  #pending: string[] = [];
  #scheduled = false;

  constructor(
    write: (chunk: string) => void,
    schedule: (flush: () => void) => void = (flush) => setImmediate(flush),
  ) {
    this.#write = write;
    this.#schedule = schedule;
  }

  push(line: string): void {
    this.#pending.push(line);
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#schedule(() => this.flush());
  }

  flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const chunk = `${this.#pending.join("\n")}\n`;
    this.#pending = [];
    this.#write(chunk);
  }
}

let stdoutLines: LineBatcher | undefined;
/** The batcher of stdout, made on first use with a flush when the process exits (stdout writes are synchronous then). */
const stdout = (): LineBatcher => {
  if (stdoutLines === undefined) {
    const lines = new LineBatcher((chunk) => process.stdout.write(chunk));
    process.once("exit", () => lines.flush());
    stdoutLines = lines;
  }
  return stdoutLines;
};

/** Info lines are batched (see LineBatcher); warnings and errors are written at once, after the info lines before them. */
export const consoleLogger: Logger = {
  info: (message) => stdout().push(`[System] ${message}`),
  warn: (message) => {
    stdoutLines?.flush();
    console.warn(`[System] WARN ${message}`);
  },
  error: (message, cause) => {
    stdoutLines?.flush();
    console.error(`[System] ERROR ${message}`, cause ?? "");
  },
};

/** A logger that keeps its lines, for tests and for commands that report what happened. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`INFO ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`WARN ${message}`);
  }
  error(message: string, cause?: unknown): void {
    this.lines.push(`ERROR ${message}${cause instanceof Error ? `: ${cause.message}` : ""}`);
  }
  has(fragment: string): boolean {
    return this.lines.some((line) => line.includes(fragment));
  }
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
