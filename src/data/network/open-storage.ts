import { hostname } from "node:os";
import { join, resolve } from "node:path";
import type { AgentStore } from "../../agent/storage/agent-store.js";
import type { UsageStore } from "../../agent/storage/usage-store.js";
import type { Logger } from "../../util/logger.js";
import { KNOWLEDGE_MIGRATIONS } from "../knowledge/postgres/knowledge-migrations.js";
import type { CheckInClaims } from "../player-state/check-in-claims.js";
import type { PointsAccounts } from "../player-state/points-accounts.js";
import { lockDataDir } from "../store/data-dir-lock.js";
import { TICK_WRITE_DELAY_MILLIS } from "../store/file-agent-store-options.js";
import { FileUsageStore } from "../store/file-usage-store.js";
import { COORDINATION_MIGRATIONS } from "./coordination-migrations.js";
import { NETWORK_STATE_MIGRATIONS } from "./network-migrations.js";
import { PostgresAgentStore } from "./postgres-agent-store.js";
import { openPostgresDatabase, type PostgresDatabase } from "./postgres-database.js";
import type { Migration } from "./postgres-migrations.js";
import { PostgresPlayerState } from "./postgres-points.js";
import { PostgresUsageStore } from "./postgres-usage-store.js";
import { loadStorageConfig, type StorageConfig } from "./storage-config.js";

/**
 * Every schema change this build knows, in one list, applied at start: network state 000–099, knowledge
 * 100–199, coordination (journal, leases, presence, outbox) 200–299.
 */
export const SCHEMA_MIGRATIONS: readonly Migration[] = [
  ...NETWORK_STATE_MIGRATIONS,
  ...KNOWLEDGE_MIGRATIONS,
  ...COORDINATION_MIGRATIONS,
];

/**
 * The stores of the state a player sees follow them across a network, opened in one place. With `files` the
 * points, check-in days and player records live in the player files (`points`/`checkIns`/`players` absent) and
 * usage in `<world>/system/model-usage.json`; with `postgres` all of them are the shared database's.
 */
export interface OpenedStorage {
  readonly backend: StorageConfig["backend"];
  readonly usage: UsageStore;
  /** A network's shared points; absent: the player files of this server. */
  readonly points?: PointsAccounts;
  /** A network's shared check-in days; absent: the player files and the ledger file of this server. */
  readonly checkIns?: CheckInClaims;
  /**
   * A network's player records and chat caches (orders, quest progress, preferences, history); absent: the
   * player files of this server.
   */
  readonly players?: AgentStore;
  /**
   * A network's database: the one pool of this server (every shared store above and the network link use it)
   * and the settings of a dedicated connection (LISTEN). Absent with `files`.
   */
  readonly database?: PostgresDatabase;
  /** This server's name in the network (storage.json `server`, else `holder`); absent with `files`. */
  readonly server?: string;
  /** This data folder on this machine (`<host name>:<data folder path>`): a restart of this server is the same holder. */
  readonly holder?: string;
  /** storage.json `leaseMillis`: how long this server's run claims and liveness lease last (absent: 30 s). */
  readonly leaseMillis?: number;
  /** Resolves when every usage change so far is durable. */
  flush(): Promise<void>;
  /** Flushes usage, closes the database's pool and releases the data folder. */
  close(): Promise<void>;
}

export interface OpenStorageOptions {
  readonly dataDir: string;
  /** The world folder: files of the `files` backend are under `<world>/system`. */
  readonly world: string;
  readonly logger: Logger;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
  /** `config/system/storage.json` is read when absent. */
  readonly config?: StorageConfig;
  /** Take `<dataDir>/system.lock` (a server does; tools reading a stopped server's files do not). */
  readonly lock: boolean;
}

/** The storage could not be opened: the data folder is in use, storage.json is wrong, or the database is unreachable. */
export class StorageOpenError extends Error {
  override readonly name = "StorageOpenError";
}

/**
 * Opens the configured storage: the data folder's lock first (its files assume one writer, whatever the
 * backend), then the stores; for PostgreSQL after the schema migrations. A database that cannot be reached
 * throws one line naming its address.
 */
export const openStorage = async (options: OpenStorageOptions): Promise<OpenedStorage> => {
  const release = options.lock
    ? await lockDataDir(options.dataDir).catch((error: unknown) => {
        throw new StorageOpenError((error as Error).message);
      })
    : async () => {};
  try {
    const config = options.config ?? (await loadStorageConfig(options.dataDir, options.logger));
    const now = options.now;
    if (config.backend === "files") {
      const usage = await FileUsageStore.open({
        path: join(options.world, "system", "model-usage.json"),
        logger: options.logger,
        ...(now === undefined ? {} : { now }),
      });
      return {
        backend: "files",
        usage,
        flush: () => usage.flush(),
        close: async () => {
          await usage.flush();
          await release();
        },
      };
    }
    const database = await openPostgresDatabase({
      config,
      dataDir: options.dataDir,
      environment: options.environment,
      migrations: SCHEMA_MIGRATIONS,
      logger: options.logger,
    });
    const usage = await PostgresUsageStore.open({
      pool: database.pool,
      logger: options.logger,
      ...(now === undefined ? {} : { now }),
    }).catch(async (error: unknown) => {
      await database.close();
      throw error;
    });
    const state = new PostgresPlayerState(database.pool);
    const holder = `${hostname()}:${resolve(options.dataDir)}`;
    const where = new URL(config.url);
    options.logger.info(
      `storage: PostgreSQL at ${where.host}${where.pathname} (points, check-in, model quotas, player records, chat, knowledge, journal)`,
    );
    return {
      backend: "postgres",
      usage,
      points: state,
      checkIns: state,
      players: new PostgresAgentStore({
        pool: database.pool,
        logger: options.logger,
        tickWriteDelayMillis: TICK_WRITE_DELAY_MILLIS,
        ...(now === undefined ? {} : { now }),
      }),
      database,
      server: config.server ?? holder,
      holder,
      ...(config.leaseMillis === undefined ? {} : { leaseMillis: config.leaseMillis }),
      // each change is committed before it resolves
      flush: async () => {},
      close: async () => {
        usage.close();
        await database.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error instanceof StorageOpenError ? error : new StorageOpenError((error as Error).message);
  }
};
