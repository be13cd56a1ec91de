/**
 * The child of the crash test: loads everything, waits for `go <trial> <workflows>` on stdin (so the parent
 * can start it ahead of time), then runs crash workflows in two concurrent lanes until it is killed
 * (SIGKILL) or done. Prints `ready` once the journal is open and `done <stepKey>` after each write step's
 * DONE receipt is durable. Usage: crash-worker <world> <effects-log>
 */
import { writeSync } from "node:fs";
import type { StepRunner } from "../../src/agent/storage/step-runner.js";
import { openRig, PLAYERS } from "./crash-workflow.js";

const [world, effects] = process.argv.slice(2);
if (world === undefined || effects === undefined)
  throw new Error("usage: crash-worker <world> <effects-log>");

const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};

const reporting = (inner: StepRunner): StepRunner => ({
  async run(stepKey, tool, input, effect) {
    const output = await inner.run(stepKey, tool, input, effect);
    say(`done ${stepKey}`);
    return output;
  },
});

const start = async (trial: string, workflows: number): Promise<void> => {
  const rig = await openRig({ world, effects, phase: "run", wrap: reporting });
  say("ready");
  const lane = async (offset: number): Promise<void> => {
    for (let index = offset; index < workflows; index += 2) {
      const request = `t${trial}-w${index}`;
      const result = await rig.run(request, PLAYERS[index % PLAYERS.length] as string);
      say(`workflow ${request} ${result.status}`);
    }
  };
  await Promise.all([lane(0), lane(1)]);
  await rig.close();
  say("finished");
  process.exit(0);
};

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffered += chunk;
  const match = /^go (\S+) (\d+)\n/.exec(buffered);
  if (match === null) return;
  buffered = "";
  process.stdin.pause();
  start(match[1] as string, Number(match[2])).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  });
});
process.stdin.on("end", () => process.exit(0));
