import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Runs a module snippet in a fresh Node process (the guard is process-wide, so never in the test worker). */
const run = (body: string): { status: number | null; stdout: string; stderr: string } => {
  const script = `
import { guardProcess } from "./src/host/flying-squid/process-guard.js";
import { consoleLogger } from "./src/util/logger.js";
${body}`;
  const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
};

describe("guardProcess", () => {
  it("keeps the process alive through a throwing timer and a rejected promise", () => {
    const result = run(`
guardProcess(consoleLogger);
setTimeout(() => { throw new Error("boom from a timer"); }, 10);
Promise.reject(new Error("boom from a promise"));
setTimeout(() => { console.log("alive"); process.exit(0); }, 200);`);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("alive");
    expect(result.stderr).toContain("boom from a timer");
    expect(result.stderr).toContain("boom from a promise");
  });

  it("lets errors crash the process again once every holder released it", () => {
    const result = run(`
const first = guardProcess(consoleLogger);
const second = guardProcess(consoleLogger);
first();
second();
setTimeout(() => { throw new Error("boom after release"); }, 10);
setTimeout(() => { console.log("alive"); process.exit(0); }, 200);`);
    expect(result.status).not.toBe(0);
    expect(result.stdout).not.toContain("alive");
  });
});
