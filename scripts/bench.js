// Runs every benchmark under bench/ (or the ones named) one after another with tsx.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const named = process.argv.slice(2);
const files = readdirSync("bench")
  .filter((file) => file.endsWith(".ts") && !file.startsWith("_"))
  .filter((file) => named.length === 0 || named.some((name) => file.startsWith(name)))
  .sort();
let status = 0;
for (const file of files) {
  console.log(`\n=== bench/${file} ===`);
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", `bench/${file}`], {
    stdio: "inherit",
  });
  if (run.status !== 0) status = 1;
}
process.exit(status);
