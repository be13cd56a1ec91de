import { createRequire } from "node:module";
import type { Interface, ReadLineOptions } from "node:readline";

type ReadlineModule = typeof import("node:readline");

let patched = false;

/**
 * flying-squid draws an interactive `> ` prompt and cursor moves on stdout even when stdout is a pipe,
 * which glues escape codes to the `listening on` line a supervisor waits for. When stdout is not a
 * terminal, its console keeps reading stdin but writes no prompt and no cursor moves. Idempotent.
 */
export const quietConsoleWhenPiped = (): void => {
  if (patched || process.stdout.isTTY) return;
  patched = true;
  const readline = createRequire(import.meta.url)("node:readline") as ReadlineModule;
  const createInterface = readline.createInterface;
  const cursorTo = readline.cursorTo;
  readline.createInterface = ((options: ReadLineOptions): Interface =>
    createInterface({ ...options, output: undefined, terminal: false })) as ReadlineModule["createInterface"];
  readline.cursorTo = ((stream: NodeJS.WritableStream, ...rest: unknown[]): boolean =>
    stream === process.stdout
      ? true
      : (cursorTo as (...args: unknown[]) => boolean)(stream, ...rest)) as ReadlineModule["cursorTo"];
};
