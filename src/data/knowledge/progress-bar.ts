/** Where a progress bar writes: a TTY stream gets a redrawn bar, anything else only the final line. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): boolean;
}

/**
 * A one-line progress bar on stderr. On a TTY it redraws in place; on a pipe or file it stays silent until
 * `done`, so logs are not filled with carriage returns.
 */
export class ProgressBar {
  #shown = -1;

  constructor(
    private readonly stream: ProgressStream,
    private readonly total: number,
    private readonly label: string,
  ) {}

  update(current: number, item = ""): void {
    if (this.stream.isTTY !== true || this.total <= 0) return;
    const width = 24;
    const filled = Math.round((Math.min(current, this.total) / this.total) * width);
    if (filled === this.#shown && item === "") return;
    this.#shown = filled;
    const bar = `${"#".repeat(filled)}${".".repeat(width - filled)}`;
    const line = `${this.label} [${bar}] ${current}/${this.total} ${item}`;
    const columns = this.stream.columns ?? 80;
    this.stream.write(`\r${line.slice(0, Math.max(20, columns - 1)).padEnd(Math.max(20, columns - 1))}`);
  }

  done(): void {
    if (this.stream.isTTY === true && this.total > 0) this.stream.write("\n");
  }
}
