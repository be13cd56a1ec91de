// `npx system <command>` (bin/system.js loads this file through tsx).
import type { CliIo } from "./host/flying-squid/knowledge-cli.js";

const USAGE = [
  "usage: system <command>",
  "  serve [--port N] [--data-dir DIR]      start the server (as npm start)",
  '  route "<text>" | --stdin [--player NAME] [--locale zh_cn|en_us] [--data-dir DIR]   explain routing',
  "  route fit <labelled.tsv> [--data-dir DIR]   precision/recall per module over a threshold grid",
  "  knowledge import <dir> [--data-dir DIR] [--db <path>]   import Markdown/text/JSON knowledge",
  "  quests inspect <dir> [--json] [--locale L]   load an FTB Quests folder: counts and every error",
].join("\n");

/** One subcommand: its arguments after the name, the streams; resolves to the exit code. */
type Subcommand = (args: readonly string[], io: CliIo) => number | Promise<number>;

const serve: Subcommand = async (args) => {
  const { startServer } = await import("./main.js");
  await startServer(args);
  return 0;
};

const route: Subcommand = async (args, io) => {
  const { routeCommand } = await import("./assistant/route-cli.js");
  void io;
  return routeCommand(args, { out: process.stdout, err: process.stderr, input: process.stdin });
};

const knowledge: Subcommand = async (args, io) => {
  const { knowledgeCommand } = await import("./host/flying-squid/knowledge-cli.js");
  return knowledgeCommand(args, io);
};

const quests: Subcommand = async (args, io) => {
  const { questsCommand } = await import("./data/quests/quest-inspect.js");
  return questsCommand(args, io);
};

const SUBCOMMANDS: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ["serve", serve],
  ["knowledge", knowledge],
  ["route", route],
  ["quests", quests],
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
