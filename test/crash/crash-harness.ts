import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Bundles the worker into one CommonJS file in a temp folder: a fresh `node` starts it far faster than tsx would. */
export const buildWorker = async (): Promise<string> => {
  const outfile = join(await mkdtemp(join(tmpdir(), "system-crash-worker-")), "worker.cjs");
  await build({
    entryPoints: [join(ROOT, "test", "crash", "crash-worker.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    outfile,
    logLevel: "warning",
  });
  return outfile;
};

/** What one killed (or finished) child said before it died. */
export interface ChildReport {
  readonly acknowledged: Set<string>;
  readonly ready: boolean;
  readonly finished: boolean;
  readonly stderr: string;
  readonly exit: string;
}

/** A child started ahead of its trial: it loads while the previous trial is recovered. */
export class WarmChild {
  readonly #child: Child;
  readonly #lines: string[] = [];
  #stderr = "";
  #partial = "";
  #onLine: (() => void) | undefined;
  readonly #exited: Promise<string>;

  constructor(worker: string, world: string, effects: string) {
    this.#child = spawn(process.execPath, [worker, world, effects], { stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => {
      const parts = (this.#partial + chunk).split("\n");
      this.#partial = parts.pop() ?? "";
      this.#lines.push(...parts);
      this.#onLine?.();
    });
    this.#child.stderr.setEncoding("utf8");
    this.#child.stderr.on("data", (chunk: string) => {
      this.#stderr += chunk;
    });
    this.#exited = new Promise((resolve) => {
      this.#child.on("close", (code, signal) => resolve(signal ?? `exit ${code}`));
    });
  }

  /**
   * Starts the trial and kills the child `delayMillis` after it has acknowledged `afterSteps` durable steps
   * (counting progress, not time, spreads the kill points over the workflow on a slow or a fast machine).
   */
  async run(trial: number, workflows: number, afterSteps: number, delayMillis: number): Promise<ChildReport> {
    this.#child.stdin.write(`go ${trial} ${workflows}\n`);
    let timer: NodeJS.Timeout | undefined;
    const ready = await new Promise<boolean>((resolve) => {
      const check = (): void => {
        if (!this.#lines.includes("ready")) return;
        resolve(true);
        const acknowledged = this.#lines.filter((line) => line.startsWith("done ")).length;
        if (acknowledged >= afterSteps && timer === undefined)
          timer = setTimeout(() => this.#child.kill("SIGKILL"), delayMillis);
      };
      this.#onLine = check;
      check();
      void this.#exited.then(() => resolve(this.#lines.includes("ready")));
    });
    const exit = await this.#exited;
    this.#onLine = undefined;
    clearTimeout(timer);
    return this.#report(exit, ready);
  }

  dispose(): void {
    this.#child.kill("SIGKILL");
  }

  #report(exit: string, ready: boolean): ChildReport {
    const acknowledged = new Set<string>();
    for (const line of this.#lines) if (line.startsWith("done ")) acknowledged.add(line.slice(5));
    return { acknowledged, ready, finished: this.#lines.includes("finished"), stderr: this.#stderr, exit };
  }
}

/** A small deterministic generator for kill delays (mulberry32). */
export const random = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
};
