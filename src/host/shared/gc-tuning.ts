import { setFlagsFromString } from "node:v8";

/**
 * How much V8 lets the old generation grow past what survived the last full collection before it collects
 * again, in percent. V8's own choice on a machine with a large heap limit is up to 300% (4×): with ~90 MB live
 * under 50 players, the old generation filled with promoted request garbage up to ~360 MB before a full
 * collection, and the server's RSS peaked near 580 MB. At 50% it collects at ~140 MB and the RSS levels off
 * (docs/admin.md, "Memory"). The live heap is not limited: this only makes full collections more frequent.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * The young generation `npm start` gives node (package.json): 16 MB semi-spaces, Node 20's default on 64-bit, so
 * `npx system serve` (no node flags) runs the same. 32 MB held a little more of a request's garbage until it
 * died, but cost 32 MB of RSS from the start; the server's CPU per request under the 50-bot load differed by 5%,
 * within the noise of the runs.
 */
export const YOUNG_GENERATION_FLAG = "--max-semi-space-size=16";

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * Sets the heap growing factor for this process (the server and the gateway), unless node was started with its
 * own `--heap-growing-percent`. V8 reads the factor at every full collection, so setting it at start applies to
 * the whole run whether node was started by `npm start` or by the `system` command. Returns the flag it set.
 */
export const tuneGarbageCollector = (
  execArgv: readonly string[] = process.execArgv,
  set: (flags: string) => void = setFlagsFromString,
): string | undefined => {
  if (execArgv.some((argument) => FLAG.test(argument))) return undefined;
  const flag = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  set(flag);
  return flag;
};
