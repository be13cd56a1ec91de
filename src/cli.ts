// `npx system <command>` (bin/system.js loads this file through tsx); the commands are in cli-commands.ts.
import { runCli } from "./cli-commands.js";

try {
  process.exitCode = await runCli(process.argv.slice(2), { out: process.stdout, err: process.stderr });
} catch (error) {
  process.stderr.write(`system: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
