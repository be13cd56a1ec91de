import pg from "pg";
import { COORDINATION_MIGRATIONS } from "../../src/data/network/coordination-migrations.js";
import { migrate } from "../../src/data/network/postgres-migrations.js";
import { silentLogger } from "../../src/util/logger.js";
import type { PostgresCluster } from "./postgres-cluster.js";

/** A fresh database of the cluster with the coordination schema (journal, leases, presence, outbox). */
export const coordinationDatabase = async (cluster: PostgresCluster, name: string): Promise<string> => {
  const url = await cluster.createDatabase(name);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migrate(pool, COORDINATION_MIGRATIONS, silentLogger);
  } finally {
    await pool.end();
  }
  return url;
};
