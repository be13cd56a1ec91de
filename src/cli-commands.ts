// The commands of `npx system <command>`; src/cli.ts runs them with the process arguments.
import type { CliIo } from "./host/flying-squid/knowledge-cli.js";

/** One subcommand: its arguments after the name, the streams; resolves to the exit code. */
type Subcommand = (args: readonly string[], io: CliIo) => number | Promise<number>;

/** A command of the table below: its usage lines (for `system help`) and what runs it. */
interface Command {
  readonly usage: readonly string[];
  readonly run: Subcommand;
}

/** Every command by name; a new one is one entry here (its usage lines join `system help` by themselves). */
const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  [
    "serve",
    {
      usage: [
        "serve [--port N] [--panel-port N] [--metrics-port N] [--data-dir DIR] [--server-dir DIR]   start the server (as npm start)",
      ],
      run: async (args, io) => {
        const { startServer } = await import("./main.js");
        await startServer(args, io.out);
        return 0;
      },
    },
  ],
  [
    "gateway",
    {
      usage: [
        "gateway --backend HOST:PORT [--port N] [--data-dir DIR] [--rcon HOST:PORT --rcon-password-file FILE] [--server-dir DIR]   relay players to your own server, System in front",
      ],
      run: async (args, io) => {
        const { runGateway } = await import("./host/gateway/start-gateway.js");
        return runGateway(args, io.err, io.out);
      },
    },
  ],
  [
    "route",
    {
      usage: [
        'route "<text>" | --stdin [--player NAME] [--locale zh_cn|en_us] [--data-dir DIR]   explain routing',
        "route fit <labelled.tsv> [--data-dir DIR]   precision/recall per module over a threshold grid",
      ],
      run: async (args) => {
        const { routeCommand } = await import("./assistant/route-cli.js");
        return routeCommand(args, { out: process.stdout, err: process.stderr, input: process.stdin });
      },
    },
  ],
  [
    "knowledge",
    {
      usage: ["knowledge import <dir> [--data-dir DIR] [--db <path>]   import Markdown/text/JSON knowledge"],
      run: async (args, io) => {
        const { knowledgeCommand } = await import("./host/flying-squid/knowledge-cli.js");
        return knowledgeCommand(args, io);
      },
    },
  ],
  [
    "storage",
    {
      usage: [
        "storage migrate --from files --to postgres [--data-dir DIR] [--dry-run]   copy points, check-ins, usage to the network's database",
      ],
      run: async (args, io) => {
        const { storageCommand } = await import("./host/flying-squid/storage-cli.js");
        return storageCommand(args, io);
      },
    },
  ],
  [
    "content",
    {
      usage: [
        "content inspect <serverDir> [--json]   read a server's mods, datapacks and KubeJS: counts and every error",
        "content item <id or name> --server-dir DIR [--locale L] [--json] | --stdin   what the item card says",
      ],
      run: async (args, io) => {
        const { contentCommand } = await import("./assistant/content-cli.js");
        return contentCommand(args, { ...io, input: process.stdin });
      },
    },
  ],
  [
    "quests",
    {
      usage: [
        "quests inspect <dir> [--json] [--locale L]   load an FTB Quests folder: counts and every error",
      ],
      run: async (args, io) => {
        const { questsCommand } = await import("./data/quests/quest-inspect.js");
        return questsCommand(args, io);
      },
    },
  ],
]);

/** What asks for the usage instead of a command. */
const HELP = new Set(["help", "--help", "-h"]);

const usage = (): string =>
  [
    "usage: system <command>",
    ...[...COMMANDS.values()].flatMap((command) => command.usage.map((line) => `  ${line}`)),
    "  help | --help | -h   this list",
  ].join("\n");

/** Runs `system <argv…>` with the given streams; resolves to the exit code (2: an unknown command). */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const [name, ...args] = argv;
  if (name !== undefined && HELP.has(name)) {
    io.out.write(`${usage()}\n`);
    return 0;
  }
  const command = name === undefined ? undefined : COMMANDS.get(name);
  if (command === undefined) {
    io.err.write(`${name === undefined ? "" : `unknown command ${JSON.stringify(name)}\n`}${usage()}\n`);
    return 2;
  }
  return command.run(args, io);
};
