// Runs the type checks and vitest and ends with one line "N passed, N failed" so CI can count the run.
// The unit project runs first (it keeps both cores busy); the type checks then run beside the system project,
// whose tests mostly wait on sockets and timers. Arguments go to vitest (`npm test -- test/system/shop.test.ts`).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const PROJECTS = ["unit", "system"];
const TYPECHECKS = ["tsconfig.json", "examples/greeter/tsconfig.json"];

/** The failed tests of a JSON report, each as "file > test: first line of its message". */
const failuresOf = (result) => {
  const lines = [];
  for (const file of result.testResults ?? []) {
    const name = file.name?.replace(`${process.cwd()}/`, "") ?? "?";
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) {
      const message = String(test.failureMessages?.[0] ?? "")
        .split("\n")[0]
        .slice(0, 300);
      lines.push(`${name} > ${test.fullName ?? test.title}: ${message}`);
    }
    if (failedTests.length === 0 && file.status === "failed") {
      lines.push(
        `${name}: ${String(file.message ?? "failed to run")
          .split("\n")[0]
          .slice(0, 300)}`,
      );
    }
  }
  return lines;
};

/** One vitest run of a project; resolves to its counts from the JSON report. */
const runProject = (project) => {
  const report = `.vitest-report-${project}.json`;
  rmSync(report, { force: true });
  const run = spawnSync(
    "npx",
    [
      "vitest",
      "run",
      "--project",
      project,
      "--passWithNoTests",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...process.argv.slice(2),
    ],
    { stdio: "inherit" },
  );
  if (!existsSync(report))
    return { passed: 0, failed: 1, ok: false, failures: [`${project}: no report written`] };
  const result = JSON.parse(readFileSync(report, "utf8"));
  let failed = (result.numFailedTests ?? 0) + (result.numRuntimeErrorTests ?? 0);
  if (result.success === false && failed === 0) failed = 1;
  return { passed: result.numPassedTests ?? 0, failed, ok: run.status === 0, failures: failuresOf(result) };
};

/** `tsc --noEmit -p <config>` in the background; resolves to whether it passed, its output kept for a failure. */
const typecheck = (config) =>
  new Promise((resolve) => {
    const child = spawn("npx", ["tsc", "--noEmit", "-p", config], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => resolve({ config, ok: code === 0, output }));
  });

let passed = 0;
let failed = 0;
let ok = true;
let checks = [];
const failures = [];
for (const project of PROJECTS) {
  if (project === "system") checks = TYPECHECKS.map(typecheck);
  const counts = runProject(project);
  passed += counts.passed;
  failed += counts.failed;
  ok &&= counts.ok;
  failures.push(...counts.failures.map((line) => `[${project}] ${line}`));
}
for (const check of await Promise.all(checks)) {
  if (check.ok) continue;
  console.error(`type check failed: tsc --noEmit -p ${check.config}\n${check.output}`);
  failed += 1;
  ok = false;
  failures.push(`type check: tsc --noEmit -p ${check.config}`);
}
if (failures.length > 0) console.log(`failed:\n${failures.map((line) => `  ${line}`).join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
