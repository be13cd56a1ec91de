/**
 * The long kill loops: the SIGKILL loops of test/system (check-in, shop, welcome kit, quest rewards, rewards through
 * the gateway's RCON) and the
 * journal's crash test (test/crash) at their long sizes (`SYSTEM_KILL_LOOPS=long`), one file at a time. Each
 * prints its seed and its figures (kills, kills inside RUNNING→DONE, lost, doubled); `SYSTEM_KILL_SEED=<seed>`
 * replays a run. `npm test` runs the same loops at CI sizes.
 *
 *   npm run bench -- kill-loops
 *   SYSTEM_KILL_SEED=1234 npm run bench -- kill-loops
 */
import { spawnSync } from "node:child_process";

const FILES = [
  "test/crash/crash.test.ts",
  "test/system/delivery-crash.test.ts",
  "test/system/shop-crash.test.ts",
  "test/system/welcome-crash.test.ts",
  "test/system/quest-reward-crash.test.ts",
  "test/system/gateway-effects-crash.test.ts",
];

let failed = 0;
for (const file of FILES) {
  const started = Date.now();
  const run = spawnSync("npx", ["vitest", "run", file], {
    stdio: "inherit",
    env: { ...process.env, SYSTEM_KILL_LOOPS: "long" },
  });
  console.log(
    `${file}: ${run.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
