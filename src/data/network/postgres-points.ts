import type { Pool } from "pg";
import type { CheckInClaim, CheckInClaims, ClaimedDay } from "../player-state/check-in-claims.js";
import {
  checkPointsChange,
  type DebitOutcome,
  type PointsAccounts,
  type PointsChange,
  type PointsEntry,
} from "../player-state/points-accounts.js";

/** Reserved by the file ledger for the sum of folded entries; refused here too so both behave alike. */
const RESERVED_IDS = ["carried"];

/** Adds a signed amount: the entry's unique key makes a repeat a no-op; a balance below zero aborts it all. */
const CHANGE = `
  WITH entry AS (
    INSERT INTO system_points_entry (player_id, entry_id, amount, reason, at)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (player_id, entry_id) DO NOTHING
    RETURNING amount
  ), changed AS (
    UPDATE system_points_balance AS b SET balance = b.balance + entry.amount
    FROM entry WHERE b.player_id = $1
    RETURNING b.balance
  )
  SELECT (SELECT count(*) FROM entry)::int AS recorded, (SELECT balance FROM changed) AS balance`;

/** The outbox key of a day's check-in reward (SQL over two parameters): one reward per player and day. */
const checkInEffectKey = (player: string, day: string): string => `'check_in:' || ${player} || ':' || ${day}`;

/**
 * Check-in days, the day's points and the reward's in-game effect (the outbox) in one statement: the day's key
 * decides, the entry's and the effect's keys dedupe.
 */
const CLAIM = `
  WITH claim AS (
    INSERT INTO system_check_in (player_id, day, streak, total, items, at)
    VALUES ($1, $2, $3, $4, $5::jsonb, $6)
    ON CONFLICT (player_id, day) DO NOTHING
    RETURNING player_id
  ), entry AS (
    INSERT INTO system_points_entry (player_id, entry_id, amount, reason, at)
    SELECT $1, 'check_in:' || $2, $7::bigint, 'check_in', $6 FROM claim WHERE $7::bigint > 0
    ON CONFLICT (player_id, entry_id) DO NOTHING
    RETURNING amount
  ), credited AS (
    INSERT INTO system_points_balance AS b (player_id, balance) SELECT $1, amount FROM entry
    ON CONFLICT (player_id) DO UPDATE SET balance = b.balance + EXCLUDED.balance
    RETURNING balance
  ), effect AS (
    INSERT INTO system_outbox (idem_key, player_id, payload)
    SELECT ${checkInEffectKey("$1", "$2")}, $1,
      jsonb_build_object('kind', 'give_items', 'items', $5::jsonb, 'reason', 'check_in:' || $2)
    FROM claim WHERE jsonb_array_length($5::jsonb) > 0
    ON CONFLICT (idem_key) DO NOTHING
    RETURNING id
  )
  SELECT (SELECT count(*) FROM claim)::int AS claimed, (SELECT count(*) FROM credited)::int AS credited`;

const isCheckViolation = (error: unknown): boolean =>
  (error as { code?: string }).code === "23514" &&
  (error as { constraint?: string }).constraint === "system_points_not_negative";

/** Points and check-in days of a network in PostgreSQL (tables of migrations 000 and 001). */
export class PostgresPlayerState implements PointsAccounts, CheckInClaims {
  readonly scope = "shared";
  /** A claim queues its reward in the outbox; the server hosting the player gives it. */
  readonly delivers = true;

  constructor(private readonly pool: Pool) {}

  async balance(playerId: string): Promise<number> {
    const { rows } = await this.pool.query<{ balance: string }>(
      "SELECT balance FROM system_points_balance WHERE player_id = $1",
      [playerId],
    );
    return Number(rows[0]?.balance ?? 0);
  }

  async statement(playerId: string, limit: number): Promise<{ balance: number; entries: PointsEntry[] }> {
    const { rows } = await this.pool.query<{ entry_id: string; amount: string; reason: string; at: string }>(
      `SELECT entry_id, amount, reason, at FROM system_points_entry
       WHERE player_id = $1 ORDER BY seq DESC LIMIT $2`,
      [playerId, Math.max(0, limit)],
    );
    const entries = rows
      .map((row) => ({
        id: row.entry_id,
        amount: Number(row.amount),
        reason: row.reason,
        at: Number(row.at),
      }))
      .reverse();
    return { balance: await this.balance(playerId), entries };
  }

  async credit(playerId: string, change: PointsChange): Promise<{ recorded: boolean; balance: number }> {
    checkPointsChange(change, RESERVED_IDS);
    const { rows } = await this.pool.query<{ recorded: number }>(
      `WITH entry AS (
         INSERT INTO system_points_entry (player_id, entry_id, amount, reason, at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (player_id, entry_id) DO NOTHING
         RETURNING amount
       ), credited AS (
         INSERT INTO system_points_balance AS b (player_id, balance) SELECT $1, amount FROM entry
         ON CONFLICT (player_id) DO UPDATE SET balance = b.balance + EXCLUDED.balance
         RETURNING balance
       )
       SELECT (SELECT count(*) FROM entry)::int AS recorded`,
      [playerId, change.id, change.amount, change.reason, change.at],
    );
    return { recorded: rows[0]?.recorded === 1, balance: await this.balance(playerId) };
  }

  async debit(playerId: string, change: PointsChange): Promise<{ outcome: DebitOutcome; balance: number }> {
    checkPointsChange(change, RESERVED_IDS);
    // the balance row exists before the change (a player never credited has 0): the change only updates it
    await this.pool.query(
      "INSERT INTO system_points_balance (player_id, balance) VALUES ($1, 0) ON CONFLICT DO NOTHING",
      [playerId],
    );
    let outcome: DebitOutcome;
    try {
      const { rows } = await this.pool.query<{ recorded: number }>(CHANGE, [
        playerId,
        change.id,
        -change.amount,
        change.reason,
        change.at,
      ]);
      outcome = rows[0]?.recorded === 1 ? "done" : "duplicate";
    } catch (error) {
      if (!isCheckViolation(error)) throw error;
      // the statement is undone whole: no entry, no change; a repeat of a recorded id is still a duplicate
      outcome = (await this.#recorded(playerId, change.id)) ? "duplicate" : "insufficient";
    }
    return { outcome, balance: await this.balance(playerId) };
  }

  async claimed(playerId: string, day: string): Promise<ClaimedDay | undefined> {
    return this.#day("day = $2", playerId, day);
  }

  async latestBefore(playerId: string, day: string): Promise<ClaimedDay | undefined> {
    return this.#day("day < $2", playerId, day);
  }

  async claim(claim: CheckInClaim): Promise<boolean> {
    const { rows } = await this.pool.query<{ claimed: number }>(CLAIM, [
      claim.playerId,
      claim.day,
      claim.streak,
      claim.total,
      JSON.stringify(claim.items.map((stack) => ({ item: stack.item, count: stack.count }))),
      claim.at,
      claim.points,
    ]);
    return rows[0]?.claimed === 1;
  }

  async #recorded(playerId: string, entryId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      "SELECT 1 FROM system_points_entry WHERE player_id = $1 AND entry_id = $2",
      [playerId, entryId],
    );
    return (rowCount ?? 0) > 0;
  }

  async #day(condition: string, playerId: string, day: string): Promise<ClaimedDay | undefined> {
    const { rows } = await this.pool.query<{
      day: string;
      streak: number;
      total: number;
      items: { item: string; count: number }[];
    }>(
      `SELECT day, streak, total, items FROM system_check_in
       WHERE player_id = $1 AND ${condition} ORDER BY day DESC LIMIT 1`,
      [playerId, day],
    );
    const row = rows[0];
    return row === undefined
      ? undefined
      : { day: row.day, streak: row.streak, total: row.total, items: row.items };
  }
}
