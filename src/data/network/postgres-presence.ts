import type { Pool } from "pg";

/** Where a player is: the server hosting them and the epoch of that join. */
export interface PresenceToken {
  readonly playerId: string;
  readonly server: string;
  readonly epoch: number;
}

/**
 * Which server hosts each player of a network. A join takes its epoch from one database sequence, so of two
 * joins the later one has the larger epoch and wins whatever order the rows arrive in; a quit clears presence
 * only when its epoch is the current one, because on a server switch the new server's join can come before
 * the old server's quit.
 */
export class PostgresPresence {
  constructor(
    private readonly pool: Pool,
    /** This server's name in the network. */
    readonly server: string,
  ) {}

  /** Records that this server hosts the player now; `current` is false when a later join already won. */
  async join(playerId: string): Promise<PresenceToken & { readonly current: boolean }> {
    const { rows } = await this.pool.query(
      `WITH joined AS (SELECT nextval('system_presence_epoch') AS epoch),
       upserted AS (
         INSERT INTO system_presence (player_id, server, epoch)
         SELECT $1, $2, epoch FROM joined
         ON CONFLICT (player_id) DO UPDATE SET server = EXCLUDED.server, epoch = EXCLUDED.epoch, joined_at = now()
           WHERE system_presence.epoch < EXCLUDED.epoch
         RETURNING epoch)
       SELECT joined.epoch, EXISTS (SELECT 1 FROM upserted) AS current FROM joined`,
      [playerId, this.server],
    );
    const row = rows[0] as { epoch: string; current: boolean };
    return { playerId, server: this.server, epoch: Number(row.epoch), current: row.current };
  }

  /** Clears presence if this join is still the current one; false when a later join replaced it. */
  async quit(token: PresenceToken): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      "DELETE FROM system_presence WHERE player_id = $1 AND server = $2 AND epoch = $3",
      [token.playerId, token.server, token.epoch],
    );
    return rowCount === 1;
  }

  /** The server hosting the player now, or undefined when they are on none. */
  async host(playerId: string): Promise<PresenceToken | undefined> {
    const { rows } = await this.pool.query("SELECT server, epoch FROM system_presence WHERE player_id = $1", [
      playerId,
    ]);
    const row = rows[0];
    return row === undefined
      ? undefined
      : { playerId, server: row.server as string, epoch: Number(row.epoch) };
  }

  /** Clears every presence of this server (at start, after a crash left rows behind). */
  async clearServer(): Promise<number> {
    const { rowCount } = await this.pool.query("DELETE FROM system_presence WHERE server = $1", [
      this.server,
    ]);
    return rowCount ?? 0;
  }
}
