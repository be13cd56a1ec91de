import pg from "pg";
import type { Logger } from "../../util/logger.js";
import { type Migration, migrate } from "./postgres-migrations.js";
import { type StorageConfig, storagePassword } from "./storage-config.js";

export type PostgresStorageConfig = Extract<StorageConfig, { backend: "postgres" }>;

/** The shared database of a network: a pool of connections, migrated to the schema this version needs. */
export interface PostgresDatabase {
  readonly pool: pg.Pool;
  /** Settings for a dedicated connection (LISTEN needs one outside the pool). */
  readonly connection: pg.ClientConfig;
  close(): Promise<void>;
}

/**
 * Opens the pool and applies `migrations`. A database that cannot be reached stops the start with one line
 * naming the address (never the password).
 */
export const openPostgresDatabase = async (options: {
  readonly config: PostgresStorageConfig;
  readonly dataDir: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly migrations: readonly Migration[];
  readonly logger: Logger;
}): Promise<PostgresDatabase> => {
  const password = await storagePassword(options.config, options.dataDir, options.environment);
  const connection: pg.ClientConfig = {
    connectionString: options.config.url,
    ...(password === undefined ? {} : { password }),
    connectionTimeoutMillis: 10_000,
    application_name: "system",
  };
  const pool = new pg.Pool({ ...connection, max: options.config.poolSize, idleTimeoutMillis: 30_000 });
  // an idle connection the server dropped (a restart) must not crash the process; the next query reconnects
  pool.on("error", (error) =>
    options.logger.warn(`storage: a PostgreSQL connection failed: ${error.message}`),
  );
  // Neither may one checked out between two statements of a transaction: pg-pool listens only while a connection
  // is idle, and an 'error' nobody listens to is thrown. Its statement in flight or the next one fails instead.
  pool.on("connect", (client) => client.on("error", () => {}));
  try {
    await migrate(pool, options.migrations, options.logger);
  } catch (error) {
    await pool.end().catch(() => undefined);
    const where = new URL(options.config.url);
    throw new Error(
      `storage: cannot use PostgreSQL at ${where.host}${where.pathname}: ${(error as Error).message}`,
    );
  }
  return { pool, connection, close: () => pool.end() };
};
