import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RaceJob, RaceReport } from "./race-worker.js";

const WORKER = fileURLToPath(new URL("./race-worker.ts", import.meta.url));

/** Runs one race process (a server of the network) to its end and returns its report. */
export const runRaceProcess = (job: RaceJob): Promise<RaceReport> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER, JSON.stringify(job)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code === 0) resolve(JSON.parse(last) as RaceReport);
      else reject(new Error(`race process exited ${code}: ${err.trim()}`));
    });
  });
