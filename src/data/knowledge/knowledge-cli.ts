import { statSync } from "node:fs";
import { join } from "node:path";
import { KnowledgeDatabase } from "./knowledge-database.js";
import { importKnowledge, summaryLine } from "./knowledge-import.js";
import type { ProgressStream } from "./progress-bar.js";

/** The streams a CLI command writes to (process.stdout/stderr, or buffers in tests). */
export interface CliIo {
  readonly out: ProgressStream;
  readonly err: ProgressStream;
}

/** Where the server keeps its knowledge database: `<data dir>/system/knowledge.sqlite`. */
export const defaultKnowledgePath = (dataDir = process.env.SYSTEM_DATA_DIR ?? "run"): string =>
  join(dataDir, "system", "knowledge.sqlite");

const USAGE = "usage: system knowledge import <dir> [--db <path>]";

/** `system knowledge import <dir> [--db path]`; returns the exit code (0 ok, 1 some files failed, 2 usage). */
export const knowledgeCommand = (args: readonly string[], io: CliIo): number => {
  const [verb, ...rest] = args;
  if (verb !== "import") {
    io.err.write(`${USAGE}\n`);
    return 2;
  }
  let folder: string | undefined;
  let path = defaultKnowledgePath();
  for (let index = 0; index < rest.length; index++) {
    const argument = rest[index] ?? "";
    if (argument === "--db") {
      const value = rest[++index];
      if (value === undefined) {
        io.err.write(`--db needs a path\n${USAGE}\n`);
        return 2;
      }
      path = value;
    } else if (folder === undefined && !argument.startsWith("--")) folder = argument;
    else {
      io.err.write(`unexpected argument ${JSON.stringify(argument)}\n${USAGE}\n`);
      return 2;
    }
  }
  if (folder === undefined || !isFolder(folder)) {
    io.err.write(`${folder === undefined ? "missing <dir>" : `not a folder: ${folder}`}\n${USAGE}\n`);
    return 2;
  }
  const database = KnowledgeDatabase.open(path);
  try {
    const summary = importKnowledge({ database, folder, progress: io.err });
    for (const failure of summary.failures) io.err.write(`failed: ${failure.file}: ${failure.reason}\n`);
    io.out.write(`${summaryLine(summary)} (${path})\n`);
    return summary.failed > 0 ? 1 : 0;
  } finally {
    database.close();
  }
};

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};
