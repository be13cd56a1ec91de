// `npx system <command>` (bin/system.js loads this file through tsx).
import { type CliIo, knowledgeCommand } from "./data/knowledge/knowledge-cli.js";

const USAGE = [
  "usage: system <command>",
  "  serve                                   start the server",
  "  knowledge import <dir> [--db <path>]    import Markdown/text/JSON knowledge",
].join("\n");

/** One subcommand: its arguments after the name, the streams; resolves to the exit code. */
type Subcommand = (args: readonly string[], io: CliIo) => number | Promise<number>;

const serve: Subcommand = async () => {
  // TODO(lead): start the server here by calling src/main.ts's start function once it exports one;
  // importing src/main.ts today starts the embedded defaults as a side effect.
  await import("./main.js");
  return 0;
};

const SUBCOMMANDS: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ["serve", serve],
  ["knowledge", knowledgeCommand],
]);

const run = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : SUBCOMMANDS.get(name);
  if (command === undefined) {
    io.err.write(`${name === undefined ? "" : `unknown command ${JSON.stringify(name)}\n`}${USAGE}\n`);
    return 2;
  }
  return command(args, io);
};

try {
  process.exitCode = await run(process.argv.slice(2), { out: process.stdout, err: process.stderr });
} catch (error) {
  process.stderr.write(`system: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
