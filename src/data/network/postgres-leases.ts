import type { Pool, PoolClient, QueryResultRow } from "pg";

/** What a protected write carries: the lease's key and the epoch its holder got. */
export interface LeaseToken {
  readonly key: string;
  readonly epoch: number;
}

/** A held lease: the token, who holds it, and until when (database time). */
export interface Lease extends LeaseToken {
  readonly owner: string;
  readonly expiresAt: Date;
}

/** A protected write refused because the lease was taken over (a newer epoch) since it was acquired. */
export class LeaseLostError extends Error {
  constructor(
    readonly lease: LeaseToken,
    what: string,
  ) {
    super(`lease ${lease.key} at epoch ${lease.epoch} is no longer held: ${what} refused`);
    this.name = "LeaseLostError";
  }
}

type Queryable = Pick<Pool | PoolClient, "query">;

const leaseFromRow = (key: string, row: QueryResultRow | undefined): Lease | undefined =>
  row === undefined
    ? undefined
    : {
        key,
        owner: row.owner as string,
        epoch: Number(row.epoch),
        expiresAt: row.expires_at as Date,
      };

/**
 * Leases of long work (a run, an effect executor) shared by the servers of a network, on database time. A
 * lease that expired is taken over with epoch + 1; a released lease keeps its row (and epoch), so epochs never
 * repeat and an old holder can never pass a fence again.
 */
export class PostgresLeases {
  constructor(
    private readonly pool: Pool,
    /** This server's name, recorded as the holder. */
    readonly owner: string,
  ) {}

  /** Takes the lease when free or expired (epoch + 1); undefined while someone holds it. */
  async acquire(key: string, ttlMillis: number): Promise<Lease | undefined> {
    const { rows } = await this.pool.query(
      `INSERT INTO system_lease (key, owner, epoch, expires_at)
       VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE
         SET owner = EXCLUDED.owner, epoch = system_lease.epoch + 1, expires_at = EXCLUDED.expires_at
         WHERE system_lease.expires_at <= clock_timestamp()
       RETURNING owner, epoch, expires_at`,
      [key, this.owner, ttlMillis],
    );
    return leaseFromRow(key, rows[0]);
  }

  /** Extends a lease still at its epoch; undefined when it was taken over (stop the work). */
  async renew(lease: LeaseToken, ttlMillis: number): Promise<Lease | undefined> {
    const { rows } = await this.pool.query(
      `UPDATE system_lease SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
       WHERE key = $1 AND epoch = $2 AND owner = $3 RETURNING owner, epoch, expires_at`,
      [lease.key, lease.epoch, this.owner, ttlMillis],
    );
    return leaseFromRow(lease.key, rows[0]);
  }

  /** Ends a lease still at its epoch (it can be taken at once, with the next epoch). */
  async release(lease: LeaseToken): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE system_lease SET expires_at = '-infinity' WHERE key = $1 AND epoch = $2 AND owner = $3`,
      [lease.key, lease.epoch, this.owner],
    );
    return rowCount === 1;
  }

  /** The lease row as stored now (expired or not). */
  async current(key: string): Promise<Lease | undefined> {
    const { rows } = await this.pool.query(
      "SELECT owner, epoch, expires_at FROM system_lease WHERE key = $1",
      [key],
    );
    return leaseFromRow(key, rows[0]);
  }
}

/**
 * Runs a write the lease protects. `text` says `:fence` where the check belongs (a WHERE condition); it becomes
 * `system_lease_holds(key, epoch)` in the same statement, so the write and the check are one. A write that
 * matched nothing while the lease is gone throws LeaseLostError; one that matched nothing for other reasons
 * returns a row count of 0.
 */
export const fencedQuery = async (
  database: Queryable,
  lease: LeaseToken,
  text: string,
  values: readonly unknown[] = [],
): Promise<{ rowCount: number; rows: QueryResultRow[] }> => {
  if (!text.includes(":fence")) throw new Error("a fenced write must say where its :fence goes");
  const fence = `system_lease_holds($${values.length + 1}, $${values.length + 2})`;
  const result = await database.query(text.replaceAll(":fence", fence), [...values, lease.key, lease.epoch]);
  const rowCount = result.rowCount ?? 0;
  if (rowCount === 0) {
    const { rows } = await database.query("SELECT epoch FROM system_lease WHERE key = $1", [lease.key]);
    if (rows[0] === undefined || Number(rows[0].epoch) !== lease.epoch)
      throw new LeaseLostError(lease, "write");
  }
  return { rowCount, rows: result.rows };
};
