import type { Migration } from "./postgres-migrations.js";

/**
 * The network state a player sees follow them from server to server: points, check-in days and model quotas
 * (every change is one statement whose unique key is its idempotency key: an entry id, a player and day), and
 * each player's private record and chat cache (a row each, changed under the row's lock, the record versioned).
 */
export const NETWORK_STATE_MIGRATIONS: readonly Migration[] = [
  {
    name: "000-points",
    statements: [
      `CREATE TABLE system_points_balance (
         player_id text PRIMARY KEY,
         balance bigint NOT NULL CONSTRAINT system_points_not_negative CHECK (balance >= 0)
       )`,
      `CREATE TABLE system_points_entry (
         player_id text NOT NULL,
         entry_id text NOT NULL,
         seq bigserial NOT NULL,
         amount bigint NOT NULL,
         reason text NOT NULL,
         at bigint NOT NULL,
         PRIMARY KEY (player_id, entry_id)
       )`,
      "CREATE INDEX system_points_entry_recent ON system_points_entry (player_id, seq DESC)",
    ],
  },
  {
    name: "001-check-in",
    statements: [
      `CREATE TABLE system_check_in (
         player_id text NOT NULL,
         day text NOT NULL CHECK (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
         streak integer NOT NULL CHECK (streak >= 1),
         total integer NOT NULL CHECK (total >= 1),
         items jsonb NOT NULL,
         at bigint NOT NULL,
         PRIMARY KEY (player_id, day)
       )`,
    ],
  },
  {
    name: "002-model-usage",
    statements: [
      `CREATE TABLE system_model_quota (
         player_id text NOT NULL,
         day text NOT NULL,
         calls integer NOT NULL DEFAULT 0 CHECK (calls >= 0),
         tokens bigint NOT NULL DEFAULT 0,
         PRIMARY KEY (player_id, day)
       )`,
      `CREATE TABLE system_model_usage (
         player_id text NOT NULL,
         day text NOT NULL,
         workflow text NOT NULL,
         calls integer NOT NULL,
         failures integer NOT NULL,
         input_tokens bigint NOT NULL,
         output_tokens bigint NOT NULL,
         latency_millis bigint NOT NULL,
         PRIMARY KEY (player_id, day, workflow)
       )`,
    ],
  },
  {
    // json, not jsonb: jsonb reorders object keys, and module data is kept exactly as its codec wrote it
    name: "003-player-records",
    statements: [
      `CREATE TABLE system_player_record (
         player_id text PRIMARY KEY,
         format smallint NOT NULL,
         record json NOT NULL,
         version bigint NOT NULL DEFAULT 0,
         updated_at bigint NOT NULL
       )`,
      `CREATE TABLE system_player_chat (
         player_id text PRIMARY KEY,
         format smallint NOT NULL,
         chat json NOT NULL,
         updated_at bigint NOT NULL
       )`,
      `CREATE TABLE system_player_record_kept (
         player_id text NOT NULL,
         kept_at bigint NOT NULL,
         reason text NOT NULL,
         record json
       )`,
      "CREATE INDEX system_player_record_kept_player ON system_player_record_kept (player_id)",
    ],
  },
];
