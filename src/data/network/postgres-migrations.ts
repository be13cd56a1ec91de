import type { Pool, PoolClient } from "pg";
import type { Logger } from "../../util/logger.js";

/**
 * One versioned change of the shared schema. Names sort in the order they apply (`NNN-what`): 000–099 the
 * network state (points, check-in, quotas, journal), 100–199 knowledge, 200–299 presence, leases and the
 * outbox. A migration applies once per database, in one transaction, recorded in `system_schema_migrations`.
 */
export interface Migration {
  readonly name: string;
  readonly statements: readonly string[];
}

/** A fixed key of PostgreSQL's advisory locks: servers starting together migrate one at a time. */
const MIGRATION_LOCK = 0x5359_5354;

const applied = async (client: PoolClient): Promise<Set<string>> => {
  await client.query(
    `CREATE TABLE IF NOT EXISTS system_schema_migrations (
       name text PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const { rows } = await client.query<{ name: string }>("SELECT name FROM system_schema_migrations");
  return new Set(rows.map((row) => row.name));
};

/**
 * Applies the migrations the database has not seen, in name order, each in its own transaction under a
 * session advisory lock (a second server waits, then finds them applied). Returns the names applied now.
 */
export const migrate = async (
  pool: Pool,
  migrations: readonly Migration[],
  logger: Logger,
): Promise<string[]> => {
  const names = migrations.map((migration) => migration.name);
  if (new Set(names).size !== names.length) throw new Error("two schema migrations share a name");
  const client = await pool.connect();
  const done: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      const seen = await applied(client);
      for (const migration of [...migrations].sort((a, b) => a.name.localeCompare(b.name))) {
        if (seen.has(migration.name)) continue;
        await client.query("BEGIN");
        try {
          for (const statement of migration.statements) await client.query(statement);
          await client.query("INSERT INTO system_schema_migrations (name) VALUES ($1)", [migration.name]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw new Error(`schema migration ${migration.name} failed: ${(error as Error).message}`);
        }
        done.push(migration.name);
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  if (done.length > 0) logger.info(`storage: applied schema migrations ${done.join(", ")}`);
  return done;
};
