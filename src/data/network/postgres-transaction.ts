import type { Pool, PoolClient } from "pg";

/**
 * Runs `work` in one transaction on a connection of the pool: committed when it resolves, rolled back when it
 * (or the commit) throws, and the error rethrown; the connection goes back to the pool either way.
 */
export const inTransaction = async <T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> => {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const value = await work(client);
    await client.query("COMMIT");
    return value;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
};
