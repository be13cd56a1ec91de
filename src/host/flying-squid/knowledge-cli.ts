import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { KnowledgeDatabase } from "../../data/knowledge/knowledge-database.js";
import { importKnowledge, summaryLine } from "../../data/knowledge/knowledge-import.js";
import type { KnowledgeStore } from "../../data/knowledge/knowledge-store.js";
import { PostgresKnowledgeStore } from "../../data/knowledge/postgres/postgres-knowledge-store.js";
import type { ProgressStream } from "../../data/knowledge/progress-bar.js";
import { SqliteKnowledgeStore } from "../../data/knowledge/sqlite-knowledge-store.js";
import { SCHEMA_MIGRATIONS } from "../../data/network/open-storage.js";
import { openPostgresDatabase } from "../../data/network/postgres-database.js";
import { loadStorageConfig } from "../../data/network/storage-config.js";
import { BUILTIN_PACK_ROOT } from "../../data/prompts/prompt-store.js";
import {
  KNOWLEDGE_CONFIG,
  KNOWLEDGE_MODULE_TYPE_ID,
  knowledgeDatabasePath,
} from "../../module/builtin/knowledge/knowledge-settings.js";
import { readSystemModuleEntries } from "../../module/system-module-entries.js";
import type { Logger } from "../../util/logger.js";
import { DEFAULT_DATA_DIR } from "../shared/cli-options.js";
import { loadServerConfig, worldFolderOf } from "../shared/server-config.js";

/** The streams a CLI command writes to (process.stdout/stderr, or buffers in tests). */
export interface CliIo {
  readonly out: ProgressStream;
  readonly err: ProgressStream;
}

const USAGE = "usage: system knowledge import <dir> [--data-dir DIR] [--db <path>]";

/**
 * The knowledge database of the server in `dataDir`, as the knowledge feature resolves it: the world folder of
 * `config/system/server.json` and the `database` setting of the `system:knowledge` data-pack entry (built-in
 * pack, then `<dataDir>/datapacks`). Throws when the entry is ambiguous or its settings are invalid.
 */
export const serverKnowledgeDatabase = async (options: {
  readonly dataDir: string;
  readonly logger: Logger;
}): Promise<string> => {
  const { dataDir, logger } = options;
  const world = worldFolderOf(await loadServerConfig(dataDir, logger), dataDir);
  const entries = readSystemModuleEntries([BUILTIN_PACK_ROOT, join(dataDir, "datapacks")], logger).filter(
    (entry) => entry.type.equals(KNOWLEDGE_MODULE_TYPE_ID),
  );
  const enabled = entries.filter((entry) => entry.enabled);
  const candidates = enabled.length > 0 ? enabled : entries;
  if (candidates.length > 1)
    throw new Error(
      `several ${KNOWLEDGE_MODULE_TYPE_ID} entries (${candidates.map((entry) => entry.source).join(", ")}); ` +
        "choose the database with --db",
    );
  const entry = candidates[0];
  if (entry === undefined) return knowledgeDatabasePath({ world, setting: undefined });
  const config = KNOWLEDGE_CONFIG.decode(entry.server);
  if (!config.success) throw new Error(`${entry.source}: invalid server settings (${config.error})`);
  return knowledgeDatabasePath({ world, setting: config.value.database });
};

interface ImportArguments {
  readonly folder: string;
  readonly dataDir: string;
  readonly database: string | undefined;
}

const parseImport = (args: readonly string[]): ImportArguments | string => {
  let folder: string | undefined;
  let dataDir = DEFAULT_DATA_DIR;
  let database: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] ?? "";
    const [flag, inline] = argument.startsWith("--") ? argument.split(/=(.*)/s, 2) : [argument, undefined];
    if (flag === "--db" || flag === "--data-dir") {
      const value = inline ?? args[++index];
      if (value === undefined || value === "") return `${flag} needs a value`;
      if (flag === "--db") database = value;
      else dataDir = value;
    } else if (folder === undefined && !argument.startsWith("--")) folder = argument;
    else return `unexpected argument ${JSON.stringify(argument)}`;
  }
  if (folder === undefined) return "missing <dir>";
  if (!isFolder(folder)) return `not a folder: ${folder}`;
  return { folder, dataDir, database };
};

/**
 * `system knowledge import <dir> [--data-dir DIR] [--db path]`: imports into the database the server of DIR
 * (default `run`) uses, or into `--db`. Returns the exit code (0 ok, 1 some files failed or the database
 * could not be opened, 2 usage).
 */
export const knowledgeCommand = async (args: readonly string[], io: CliIo): Promise<number> => {
  const [verb, ...rest] = args;
  const parsed = verb === "import" ? parseImport(rest) : "";
  if (typeof parsed === "string") {
    io.err.write(`${parsed === "" ? "" : `${parsed}\n`}${USAGE}\n`);
    return 2;
  }
  const logger: Logger = {
    info: () => {},
    warn: (message) => io.err.write(`system: ${message}\n`),
    error: (message, cause) =>
      io.err.write(`system: ${message}${cause instanceof Error ? `: ${cause.message}` : ""}\n`),
  };
  let target: { readonly store: KnowledgeStore; readonly where: string; close(): Promise<void> };
  try {
    target = await openTarget(parsed, logger);
  } catch (error) {
    io.err.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const summary = await importKnowledge({ store: target.store, folder: parsed.folder, progress: io.err });
    for (const failure of summary.failures) io.err.write(`failed: ${failure.file}: ${failure.reason}\n`);
    io.out.write(`${summaryLine(summary)} (${target.where})\n`);
    return summary.failed > 0 ? 1 : 0;
  } finally {
    await target.close();
  }
};

/**
 * Where an import writes: `--db`, else the store the server of the data folder uses: the network's PostgreSQL
 * when its storage.json says `postgres`, otherwise the knowledge feature's SQLite file.
 */
const openTarget = async (
  parsed: ImportArguments,
  logger: Logger,
): Promise<{ readonly store: KnowledgeStore; readonly where: string; close(): Promise<void> }> => {
  if (parsed.database === undefined && existsSync(join(parsed.dataDir, "config", "system", "storage.json"))) {
    const config = await loadStorageConfig(parsed.dataDir, logger);
    if (config.backend === "postgres") {
      const database = await openPostgresDatabase({
        config,
        dataDir: parsed.dataDir,
        environment: process.env,
        migrations: SCHEMA_MIGRATIONS,
        logger,
      });
      const store = new PostgresKnowledgeStore(database.pool);
      const where = new URL(config.url);
      return {
        store,
        where: `postgres ${where.host}${where.pathname}`,
        close: async () => {
          await store.close();
          await database.close();
        },
      };
    }
  }
  const path = parsed.database ?? (await serverKnowledgeDatabase({ dataDir: parsed.dataDir, logger }));
  const store = new SqliteKnowledgeStore(KnowledgeDatabase.open(path), path);
  return { store, where: path, close: () => store.close() };
};

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};
