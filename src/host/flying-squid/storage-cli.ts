import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ModuleData } from "../../agent/storage/player-data.js";
import type { UsageRecord } from "../../agent/storage/usage-store.js";
import { copyToPostgres, type FileState } from "../../data/network/copy-to-postgres.js";
import { SCHEMA_MIGRATIONS } from "../../data/network/open-storage.js";
import { openPostgresDatabase } from "../../data/network/postgres-database.js";
import { loadStorageConfig } from "../../data/network/storage-config.js";
import type { PointsEntry } from "../../data/player-state/points-accounts.js";
import { lockDataDir } from "../../data/store/data-dir-lock.js";
import { FileAgentStore } from "../../data/store/file-agent-store.js";
import { FileUsageStore } from "../../data/store/file-usage-store.js";
import { CheckInLedger } from "../../module/builtin/storage/check-in-ledger.js";
import { checkInStorage } from "../../module/builtin/storage/check-in-storage.js";
import { pointsLedgerStorage } from "../../module/builtin/storage/points-ledger.js";
import { Identifier } from "../../util/identifier.js";
import { silentLogger } from "../../util/logger.js";
import { DEFAULT_DATA_DIR } from "../shared/cli-options.js";
import { loadServerConfig, worldFolderOf } from "../shared/server-config.js";
import type { CliIo } from "./knowledge-cli.js";

const USAGE = "usage: system storage migrate --from files --to postgres [--data-dir DIR] [--dry-run]";

const CHECK_IN = checkInStorage(Identifier.parse("system:check_in"));

/** Reads the points, check-in days, model usage, player records and chat caches a stopped server keeps in files. */
const readFiles = async (world: string): Promise<FileState> => {
  const system = join(world, "system");
  const players = await playerIds(join(system, "players"));
  const store = new FileAgentStore({ world });
  const ledger = new CheckInLedger(join(system, "check-in-ledger.json"));
  const points = new Map<string, readonly PointsEntry[]>();
  const checkIns: FileState["checkIns"][number][] = [];
  const records: FileState["players"][number][] = [];
  const chats: FileState["chats"][number][] = [];
  try {
    for (const playerId of players) records.push(await store.record(playerId));
    for (const playerId of await playerIds(join(system, "chat"))) {
      const chat = await store.readChat(playerId);
      if (chat.history.length > 0 || Object.keys(chat.replay).length > 0) chats.push(chat);
    }
    for (const playerId of players) {
      const found = await store.read(playerId, (data) => ({
        entries: ModuleData.get(data, pointsLedgerStorage).entries(),
        record: ModuleData.get(data, CHECK_IN).toData(),
      }));
      if (found.entries.length > 0) points.set(playerId, found.entries);
      const known = await ledger.latest(playerId);
      const day = found.record.lastDay;
      const latest =
        known !== undefined && (day === null || known.day > day)
          ? known
          : day === null
            ? undefined
            : { day, streak: found.record.streak, total: found.record.total };
      if (latest !== undefined) {
        const items = found.record.deliveries.find((delivery) => delivery.day === latest.day)?.items ?? [];
        checkIns.push({ playerId, ...latest, items });
      }
    }
  } finally {
    await store.close();
  }
  const usage: UsageRecord[] = (
    await FileUsageStore.open({ path: join(system, "model-usage.json"), logger: silentLogger })
  ).query();
  return { points, checkIns, usage, players: records, chats };
};

/** The players of a folder of `<uuid>.dat` files. */
const playerIds = async (folder: string): Promise<string[]> => {
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => /^[0-9a-f-]{36}\.dat$/.test(name)).map((name) => name.slice(0, 36));
};

/**
 * `system storage migrate --from files --to postgres [--data-dir DIR] [--dry-run]`: copies a stopped server's
 * points, latest check-in days, model usage, player records and chat caches into the database its storage.json names, so it can join a
 * network without losing them. Prints the counts; a second run copies nothing.
 */
export const storageCommand = async (args: readonly string[], io: CliIo): Promise<number> => {
  const [verb, ...rest] = args;
  let dataDir = DEFAULT_DATA_DIR;
  let from: string | undefined;
  let to: string | undefined;
  let dryRun = false;
  for (let index = 0; index < rest.length; index++) {
    const flag = rest[index];
    if (flag === "--dry-run") dryRun = true;
    else if (flag === "--from" || flag === "--to" || flag === "--data-dir") {
      const value = rest[++index];
      if (value === undefined) {
        io.err.write(`${flag} needs a value\n${USAGE}\n`);
        return 2;
      }
      if (flag === "--from") from = value;
      else if (flag === "--to") to = value;
      else dataDir = value;
    } else {
      io.err.write(`unexpected argument ${JSON.stringify(flag)}\n${USAGE}\n`);
      return 2;
    }
  }
  if (verb !== "migrate" || from !== "files" || to !== "postgres") {
    io.err.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const config = await loadStorageConfig(dataDir, silentLogger);
    if (config.backend !== "postgres")
      throw new Error(`${join(dataDir, "config", "system", "storage.json")} must name the database first`);
    // the server must be stopped: its files are read as they are
    const release = await lockDataDir(dataDir);
    try {
      const world = worldFolderOf(await loadServerConfig(dataDir, silentLogger), dataDir);
      const state = await readFiles(world);
      const entries = [...state.points.values()].reduce((sum, list) => sum + list.length, 0);
      io.out.write(
        `${dryRun ? "would copy" : "copying"}: ${state.points.size} players' points (${entries} entries), ${state.checkIns.length} check-in days, ${state.usage.length} usage records, ${state.players.length} player records, ${state.chats.length} chat caches\n`,
      );
      if (dryRun) return 0;
      const database = await openPostgresDatabase({
        config,
        dataDir,
        environment: process.env,
        migrations: SCHEMA_MIGRATIONS,
        logger: silentLogger,
      });
      try {
        const counts = await copyToPostgres(database.pool, state);
        io.out.write(
          `copied: ${counts.points.copied} points entries (${counts.points.present} already there), ${counts.checkIns.copied} check-in days (${counts.checkIns.present} already there), ${counts.usage.copied} usage records (${counts.usage.present} already there), ${counts.players.copied} player records (${counts.players.present} already there), ${counts.chats.copied} chat caches (${counts.chats.present} already there)\n`,
        );
      } finally {
        await database.close();
      }
    } finally {
      await release();
    }
    return 0;
  } catch (error) {
    io.err.write(`system storage: ${(error as Error).message}\n`);
    return 1;
  }
};
