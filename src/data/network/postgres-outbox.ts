import type { Pool, PoolClient, QueryResultRow } from "pg";
import type { Json } from "../../util/codec.js";
import { type Logger, silentLogger } from "../../util/logger.js";

/** One in-game effect waiting in (or gone through) the outbox. */
export interface OutboxEffect {
  readonly id: number;
  readonly idemKey: string;
  readonly playerId: string;
  readonly payload: Json;
  readonly status: "pending" | "applying" | "done" | "unconfirmed" | "failed";
  readonly attempts: number;
  /** The join epoch of the presence under which it was claimed last. */
  readonly presenceEpoch?: number;
  readonly note?: string;
  /** The server that claimed it last (while `applying`, and after, unless it went back to pending). */
  readonly server?: string;
  /** When its status last changed (epoch milliseconds). */
  readonly updatedAt: number;
}

/**
 * What applying did: `applied`; `absent` when the player is not on this server (nothing changed: it waits for
 * the server that hosts them); `refused` when the game refused it without a change (kept as failed).
 */
export type ApplyOutcome = "applied" | "absent" | "refused";
/** What a reconcile read from the world about an effect whose outcome is unknown. */
export type ReconcileVerdict = "applied" | "not-applied" | "unknown";

export interface PostgresOutboxOptions {
  readonly pool: Pool;
  /** This server's name, as in presence. */
  readonly server: string;
  /** Applies one effect in the game (RCON, the bridge). A throw means the outcome is unknown. */
  readonly apply: (effect: OutboxEffect) => Promise<ApplyOutcome>;
  /** Decides from the world whether an interrupted effect was applied; without it, such effects wait for an admin. */
  readonly reconcile?: (effect: OutboxEffect) => Promise<ReconcileVerdict>;
  readonly logger?: Logger;
}

const effectFromRow = (row: QueryResultRow): OutboxEffect => ({
  id: Number(row.id),
  idemKey: row.idem_key as string,
  playerId: row.player_id as string,
  payload: row.payload as Json,
  status: row.status as OutboxEffect["status"],
  attempts: Number(row.attempts),
  ...(row.presence_epoch === null ? {} : { presenceEpoch: Number(row.presence_epoch) }),
  ...(row.note === null ? {} : { note: row.note as string }),
  ...(row.server === null || row.server === undefined ? {} : { server: row.server as string }),
  updatedAt: new Date(row.updated_at as string | Date).getTime(),
});

/** Why an effect is held for an admin: its server stopped while giving, or the give failed mid-way here. */
export type HeldReason = "server_stopped" | "outcome_unknown";

const UNKNOWN_NOTE = "outcome unknown: an admin must check";
const STOPPED_NOTE = " stopped while applying: an admin must check";

/** The reason an unconfirmed effect's note records (undefined for a note this outbox did not write). */
export const heldReason = (effect: OutboxEffect): HeldReason | undefined =>
  effect.note === UNKNOWN_NOTE
    ? "outcome_unknown"
    : effect.note?.startsWith("server ") && effect.note.endsWith(STOPPED_NOTE)
      ? "server_stopped"
      : undefined;

/** Effects held for an admin (`unconfirmed`), oldest first, whichever server held them. */
export const unconfirmedEffects = async (pool: Pick<Pool, "query">): Promise<OutboxEffect[]> => {
  const { rows } = await pool.query("SELECT * FROM system_outbox WHERE status = 'unconfirmed' ORDER BY id");
  return rows.map(effectFromRow);
};

/**
 * An admin's decision on an unconfirmed effect: it was applied (`done`), or deliver it again (`redeliver`: pending,
 * for the server that hosts the player). False when the effect is not unconfirmed (already settled), so an
 * effect is settled once.
 */
export const resolveEffect = async (
  pool: Pick<Pool, "query">,
  id: number,
  decision: "done" | "redeliver",
): Promise<boolean> => {
  const { rowCount } = await pool.query(
    `UPDATE system_outbox SET status = $2, server = NULL, note = 'resolved by an admin', updated_at = now()
     WHERE id = $1 AND status = 'unconfirmed'`,
    [id, decision === "done" ? "done" : "pending"],
  );
  return rowCount === 1;
};

/**
 * Holds for an admin the effects another server (not `server`) left `applying` and then stopped: its liveness
 * lease (`server:<name>`) expired. Servers that never held a liveness lease are left alone. Returns how many.
 */
export const holdAbandoned = async (pool: Pick<Pool, "query">, server: string): Promise<number> => {
  const { rowCount } = await pool.query(
    `UPDATE system_outbox o SET status = 'unconfirmed', updated_at = now(),
       note = 'server ' || o.server || $2
     FROM system_lease l
     WHERE o.status = 'applying' AND o.server <> $1 AND l.key = 'server:' || o.server
       AND l.expires_at <= clock_timestamp()`,
    [server, STOPPED_NOTE],
  );
  return rowCount ?? 0;
};

/**
 * Writes an effect in the caller's transaction, the one that changes the ledger, so that the effect exists
 * exactly when the change does. A second write of the same idempotency key is a no-op (`created: false`).
 */
export const enqueueEffect = async (
  client: Pick<PoolClient, "query">,
  effect: { readonly idemKey: string; readonly playerId: string; readonly payload: Json },
): Promise<{ readonly created: boolean; readonly id: number | undefined }> => {
  const { rows } = await client.query(
    `INSERT INTO system_outbox (idem_key, player_id, payload) VALUES ($1, $2, $3)
     ON CONFLICT (idem_key) DO NOTHING RETURNING id`,
    [effect.idemKey, effect.playerId, JSON.stringify(effect.payload)],
  );
  return { created: rows.length === 1, id: rows[0] === undefined ? undefined : Number(rows[0].id) };
};

/**
 * The outbox of in-game effects on one server of a network. Only the server that hosts the player (presence)
 * claims an effect (`FOR UPDATE SKIP LOCKED`, so servers never wait on each other), and it marks it `applying`
 * before the effect and `done` after. A claim left `applying` by a crash is never applied again blindly: a
 * reconcile decides from the world, or it is held `unconfirmed` for an admin.
 */
export class PostgresOutbox {
  readonly #logger: Logger;
  readonly #owed = new Map<number, { effect: OutboxEffect; status: string; note?: string }>();

  constructor(private readonly options: PostgresOutboxOptions) {
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Claims and applies, in order, pending effects of players this server hosts; returns how many applied. When
   * the database goes away mid-round, what is known stays owed in memory (an effect given is `done`, one not yet
   * tried goes back to `pending`) and is written before the next round claims anything: an outage never leaves
   * this running server's effects `applying`.
   */
  async deliver(limit = 50): Promise<number> {
    await this.#payOwed();
    const { rows } = await this.options.pool.query(
      `UPDATE system_outbox o
         SET status = 'applying', server = $1, presence_epoch = p.epoch, attempts = o.attempts + 1,
             updated_at = now()
       FROM system_presence p
       WHERE p.player_id = o.player_id AND p.server = $1 AND o.id IN (
         SELECT c.id FROM system_outbox c JOIN system_presence h ON h.player_id = c.player_id AND h.server = $1
         WHERE c.status = 'pending' ORDER BY c.id LIMIT $2 FOR UPDATE OF c SKIP LOCKED)
       RETURNING o.*`,
      [this.options.server, limit],
    );
    const claimed = rows.map(effectFromRow).sort((left, right) => left.id - right.id);
    const absent = new Set<string>();
    let applied = 0;
    let failure: unknown;
    for (const effect of claimed) {
      // Keep a player's order: after one came back absent, the rest of theirs go back too. After a failed
      // write nothing more is tried: the rest go back untouched.
      if (failure !== undefined || absent.has(effect.playerId)) {
        failure ??= await this.#settle(effect, "pending").catch((error: unknown) => error);
        if (failure !== undefined) this.#owe(effect, "pending");
        continue;
      }
      let outcome: ApplyOutcome;
      try {
        outcome = await this.options.apply(effect);
      } catch (error) {
        this.#logger.warn(`outbox: effect ${effect.idemKey} failed mid-way: ${(error as Error).message}`);
        failure = await this.#unknown(effect).then(
          () => undefined,
          (settleError: unknown) => {
            this.#owe(effect, "unconfirmed", "outcome unknown: an admin must check");
            return settleError;
          },
        );
        continue;
      }
      if (outcome === "applied") applied++;
      if (outcome === "absent") absent.add(effect.playerId);
      const status = outcome === "applied" ? "done" : outcome === "absent" ? "pending" : "failed";
      failure = await this.#settle(effect, status).then(
        () => undefined,
        (error: unknown) => {
          this.#owe(effect, status);
          return error;
        },
      );
    }
    if (failure !== undefined) throw failure;
    return applied;
  }

  /** Outcomes known here but not yet written (the database went away): written first at the next round. */
  get owed(): number {
    return this.#owed.size;
  }

  #owe(effect: OutboxEffect, status: string, note?: string): void {
    this.#owed.set(effect.id, { effect, status, ...(note === undefined ? {} : { note }) });
  }

  async #payOwed(): Promise<void> {
    for (const [id, { effect, status, note }] of [...this.#owed]) {
      await this.#settle(effect, status, note);
      this.#owed.delete(id);
    }
  }

  /**
   * At start: effects this server left `applying` (it stopped between marking and finishing) are reconciled,
   * or held `unconfirmed`; never applied again blindly.
   */
  async recover(): Promise<{ done: number; pending: number; unconfirmed: number }> {
    const { rows } = await this.options.pool.query(
      "SELECT * FROM system_outbox WHERE status = 'applying' AND server = $1 ORDER BY id",
      [this.options.server],
    );
    const counts = { done: 0, pending: 0, unconfirmed: 0 };
    for (const effect of rows.map(effectFromRow)) counts[await this.#unknown(effect)]++;
    return counts;
  }

  /**
   * Effects another server left `applying` and then stopped: its liveness lease (`server:<name>`, held by each
   * server while it runs) expired. Only that server's world could tell what happened, so they are held
   * `unconfirmed` for an admin. Servers that never held a liveness lease are left alone.
   */
  async recoverAbandoned(): Promise<number> {
    const held = await holdAbandoned(this.options.pool, this.options.server);
    if (held > 0)
      this.#logger.warn(`outbox: ${held} effects of stopped servers are held for an admin to check`);
    return held;
  }

  /** Effects held for an admin, oldest first. */
  unconfirmed(): Promise<OutboxEffect[]> {
    return unconfirmedEffects(this.options.pool);
  }

  /** An admin's decision on an unconfirmed effect: it was applied (done), or deliver it again (pending). */
  resolve(id: number, decision: "done" | "redeliver"): Promise<boolean> {
    return resolveEffect(this.options.pool, id, decision);
  }

  async #unknown(effect: OutboxEffect): Promise<"done" | "pending" | "unconfirmed"> {
    let verdict: ReconcileVerdict = "unknown";
    if (this.options.reconcile !== undefined)
      verdict = await this.options.reconcile(effect).catch(() => "unknown" as const);
    const status = verdict === "applied" ? "done" : verdict === "not-applied" ? "pending" : "unconfirmed";
    await this.#settle(effect, status, verdict === "unknown" ? UNKNOWN_NOTE : "reconciled");
    if (status === "unconfirmed")
      this.#logger.warn(
        `outbox: effect ${effect.idemKey} of ${effect.playerId} is held for an admin to check`,
      );
    return status;
  }

  /** Finishes this server's claim (only if it is still this server's `applying` claim). */
  async #settle(effect: OutboxEffect, status: string, note?: string): Promise<void> {
    await this.options.pool.query(
      `UPDATE system_outbox SET status = $3, server = CASE WHEN $3 = 'pending' THEN NULL ELSE server END,
         note = COALESCE($4, note), updated_at = now()
       WHERE id = $1 AND status = 'applying' AND server = $2`,
      [effect.id, this.options.server, status, note ?? null],
    );
  }
}
