import type { Pool, PoolClient } from "pg";
import { inTransaction } from "./postgres-transaction.js";

/** The first key of the advisory locks of players (the second is a hash of the player id). */
const PLAYER_LOCK_SPACE = 0x5359_5300;
/** Deadlock and serialization failures: the transaction is rolled back whole and can run again. */
const RETRIED = new Set(["40P01", "40001"]);

/**
 * Runs `work` in a transaction that first takes the player's transaction-level advisory lock: write sections of
 * one player never interleave across the servers of a network (a request on one and an event task on
 * another), and the lock is released by the commit or rollback, also when the connection dies. Keep `work`
 * short: never a model call inside. A deadlock or serialization failure runs the whole section again.
 */
export const withPlayerExclusive = async <T>(
  pool: Pool,
  playerId: string,
  work: (client: PoolClient) => Promise<T>,
  attempts = 3,
): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PLAYER_LOCK_SPACE, playerId]);
        return work(client);
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= attempts || code === undefined || !RETRIED.has(code)) throw error;
    }
  }
};
