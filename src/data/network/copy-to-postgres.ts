import type { Pool, PoolClient } from "pg";
import type { ChatRecord } from "../../agent/storage/agent-store.js";
import type { PlayerRecord } from "../../agent/storage/player-data.js";
import type { UsageRecord } from "../../agent/storage/usage-store.js";
import type { PointsEntry } from "../player-state/points-accounts.js";
import { PLAYER_ROW_FORMAT } from "./player-rows.js";
import { inTransaction } from "./postgres-transaction.js";

/** One server's network state read from its files, ready to copy. */
export interface FileState {
  /** Player id → ledger entries (signed, oldest first; a `carried` entry holds what the file folded). */
  readonly points: ReadonlyMap<string, readonly PointsEntry[]>;
  /** Each player's latest check-in day, with the streak and total it made. */
  readonly checkIns: readonly {
    readonly playerId: string;
    readonly day: string;
    readonly streak: number;
    readonly total: number;
    readonly items: readonly { readonly item: string; readonly count: number }[];
  }[];
  readonly usage: readonly UsageRecord[];
  /** Every player file's record (orders, quest progress, preferences, module data). */
  readonly players: readonly PlayerRecord[];
  /** Every chat cache (history and replay). */
  readonly chats: readonly ChatRecord[];
}

/** Rows copied now, per kind, and how many the database already had. */
export interface CopyCounts {
  readonly points: { readonly copied: number; readonly present: number };
  readonly checkIns: { readonly copied: number; readonly present: number };
  readonly usage: { readonly copied: number; readonly present: number };
  readonly players: { readonly copied: number; readonly present: number };
  readonly chats: { readonly copied: number; readonly present: number };
}

/**
 * Copies a server's points, check-in days, model usage, player records and chat caches into the shared tables in
 * one transaction. Every row goes in under its own key (entry id, player and day, player/day/workflow, player) and
 * only rows new to the database change a balance or a quota; a player the network already has a record (or chat)
 * of keeps the network's: a second run copies nothing.
 */
export const copyToPostgres = (pool: Pool, state: FileState): Promise<CopyCounts> =>
  inTransaction(pool, async (client) => {
    let points = 0;
    let entries = 0;
    for (const [playerId, list] of state.points) {
      // the balance changes by the entries new to the database, once per player (a debit alone may be negative)
      let added = 0;
      for (const entry of list) {
        entries++;
        const { rows } = await client.query<{ amount: string }>(
          `INSERT INTO system_points_entry (player_id, entry_id, amount, reason, at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (player_id, entry_id) DO NOTHING RETURNING amount`,
          [playerId, entry.id, entry.amount, entry.reason, entry.at],
        );
        if (rows[0] !== undefined) {
          points++;
          added += Number(rows[0].amount);
        }
      }
      await client.query(
        "INSERT INTO system_points_balance (player_id, balance) VALUES ($1, 0) ON CONFLICT DO NOTHING",
        [playerId],
      );
      await client.query("UPDATE system_points_balance SET balance = balance + $2 WHERE player_id = $1", [
        playerId,
        added,
      ]);
    }
    let checkIns = 0;
    for (const day of state.checkIns) {
      const { rowCount } = await client.query(
        `INSERT INTO system_check_in (player_id, day, streak, total, items, at) VALUES ($1, $2, $3, $4, $5::jsonb, 0)
         ON CONFLICT (player_id, day) DO NOTHING`,
        [day.playerId, day.day, Math.max(1, day.streak), Math.max(1, day.total), JSON.stringify(day.items)],
      );
      checkIns += rowCount ?? 0;
    }
    let usage = 0;
    for (const record of state.usage) {
      const { rowCount } = await client.query(
        `WITH usage AS (
           INSERT INTO system_model_usage
             (player_id, day, workflow, calls, failures, input_tokens, output_tokens, latency_millis)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (player_id, day, workflow) DO NOTHING RETURNING calls, input_tokens + output_tokens AS tokens
         )
         INSERT INTO system_model_quota AS q (player_id, day, calls, tokens) SELECT $1, $2, calls, tokens FROM usage
         ON CONFLICT (player_id, day) DO UPDATE SET calls = q.calls + EXCLUDED.calls, tokens = q.tokens + EXCLUDED.tokens`,
        [
          record.playerId,
          record.day,
          record.workflow,
          record.calls,
          record.failures,
          record.inputTokens,
          record.outputTokens,
          record.latencyMillis,
        ],
      );
      usage += rowCount ?? 0;
    }
    const players = await copyRows(client, "system_player_record", "record", state.players);
    const chats = await copyRows(client, "system_player_chat", "chat", state.chats);
    return {
      players: { copied: players, present: state.players.length - players },
      chats: { copied: chats, present: state.chats.length - chats },
      points: { copied: points, present: entries - points },
      checkIns: { copied: checkIns, present: state.checkIns.length - checkIns },
      usage: { copied: usage, present: state.usage.length - usage },
    };
  });

/** Inserts one row per player unless the database has one; returns how many went in. */
const copyRows = async (
  client: PoolClient,
  table: "system_player_record" | "system_player_chat",
  column: "record" | "chat",
  values: readonly (PlayerRecord | ChatRecord)[],
): Promise<number> => {
  let copied = 0;
  for (const value of values) {
    const { rowCount } = await client.query(
      `INSERT INTO ${table} (player_id, format, ${column}, updated_at) VALUES ($1, $2, $3::json, $4)
       ON CONFLICT (player_id) DO NOTHING`,
      [value.playerId, PLAYER_ROW_FORMAT, JSON.stringify(value), Date.now()],
    );
    copied += rowCount ?? 0;
  }
  return copied;
};
