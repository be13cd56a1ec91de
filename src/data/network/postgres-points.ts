import type { Pool } from "pg";
import type { CheckInClaims, CheckInRequest, ClaimedDay } from "../player-state/check-in-claims.js";
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
 * A whole check-in in one statement: the latest earlier day gives the streak and total, the streak gives the
 * reward (`$4`, plus `$5` on every `$6`-th day); the claim, its points entry and its reward's outbox effect are
 * written together, each keyed so that a repeat does nothing. Returns the claimed day, or the day as claimed before (none when a concurrent claim committed after this statement began: read it then).
 */
const CHECK_IN = `
  WITH previous AS (
    SELECT day, streak, total FROM system_check_in
    WHERE player_id = $1 AND day < $2 ORDER BY day DESC LIMIT 1
  ), made AS (
    SELECT CASE WHEN p.day = $3 THEN p.streak + 1 ELSE 1 END AS streak, COALESCE(p.total, 0) + 1 AS total
    FROM (VALUES (1)) AS one (x) LEFT JOIN previous p ON true
  ), claim AS (
    INSERT INTO system_check_in (player_id, day, streak, total, items, at)
    SELECT $1, $2, m.streak, m.total,
      CASE WHEN $6::int > 0 AND m.streak % $6::int = 0 THEN $4::jsonb || $5::jsonb ELSE $4::jsonb END, $7
    FROM made m
    ON CONFLICT (player_id, day) DO NOTHING
    RETURNING streak, total, items
  ), entry AS (
    INSERT INTO system_points_entry (player_id, entry_id, amount, reason, at)
    SELECT $1, 'check_in:' || $2, $8::bigint, 'check_in', $7 FROM claim WHERE $8::bigint > 0
    ON CONFLICT (player_id, entry_id) DO NOTHING
    RETURNING amount
  ), credited AS (
    INSERT INTO system_points_balance AS b (player_id, balance) SELECT $1, amount FROM entry
    ON CONFLICT (player_id) DO UPDATE SET balance = b.balance + EXCLUDED.balance
    RETURNING balance
  ), effect AS (
    INSERT INTO system_outbox (idem_key, player_id, payload)
    SELECT ${checkInEffectKey("$1", "$2")}, $1,
      jsonb_build_object('kind', 'give_items', 'items', c.items, 'reason', 'check_in:' || $2)
    FROM claim c WHERE jsonb_array_length(c.items) > 0
    ON CONFLICT (idem_key) DO NOTHING
    RETURNING id
  )
  SELECT true AS claimed, streak, total, items FROM claim
  UNION ALL
  SELECT false, streak, total, items FROM system_check_in WHERE player_id = $1 AND day = $2`;

/** Reward stacks as a claim stores them. */
const stacks = (items: readonly { item: string; count: number }[]): string =>
  JSON.stringify(items.map((stack) => ({ item: stack.item, count: stack.count })));

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
    const { rows } = await this.pool.query<{
      streak: number;
      total: number;
      items: { item: string; count: number }[];
    }>("SELECT streak, total, items FROM system_check_in WHERE player_id = $1 AND day = $2", [playerId, day]);
    const row = rows[0];
    return row === undefined ? undefined : { day, streak: row.streak, total: row.total, items: row.items };
  }

  async checkIn(request: CheckInRequest): Promise<{ claimed: boolean; day: ClaimedDay }> {
    const { rows } = await this.pool.query<{
      claimed: boolean;
      streak: number;
      total: number;
      items: { item: string; count: number }[];
    }>({
      // named: each connection parses and plans it once
      name: "system-check-in",
      text: CHECK_IN,
      values: [
        request.playerId,
        request.day,
        request.yesterday,
        stacks(request.rewards.items),
        stacks(request.rewards.bonus?.items ?? []),
        request.rewards.bonus?.every ?? 0,
        request.at,
        request.points,
      ],
    });
    const row = rows[0];
    if (row !== undefined)
      return {
        claimed: row.claimed,
        day: { day: request.day, streak: row.streak, total: row.total, items: row.items },
      };
    // another server's claim committed after this statement began: it holds the day
    const before = await this.claimed(request.playerId, request.day);
    if (before === undefined) throw new Error(`check-in of ${request.playerId} for ${request.day} not found`);
    return { claimed: false, day: before };
  }

  async #recorded(playerId: string, entryId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      "SELECT 1 FROM system_points_entry WHERE player_id = $1 AND entry_id = $2",
      [playerId, entryId],
    );
    return (rowCount ?? 0) > 0;
  }
}
