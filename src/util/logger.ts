/** Where System writes its log lines; injected, never global. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, cause?: unknown): void;
}

export const consoleLogger: Logger = {
  info: (message) => console.log(`[System] ${message}`),
  warn: (message) => console.warn(`[System] WARN ${message}`),
  error: (message, cause) => console.error(`[System] ERROR ${message}`, cause ?? ""),
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
