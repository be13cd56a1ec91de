import type { Migration } from "./postgres-migrations.js";

/**
 * The schema of coordination between the servers of a network (names 200–299): the shared journal of write
 * steps and event tasks, leases with fencing epochs, player presence with join epochs, and the outbox of
 * in-game effects.
 */
export const COORDINATION_MIGRATIONS: readonly Migration[] = [
  {
    name: "200-journal",
    statements: [
      // One row per write step; the key (`<run>/<step>`) is unique, so a second append of a step is a no-op.
      `CREATE TABLE system_journal_step (
         key text PRIMARY KEY,
         tool text NOT NULL,
         state text NOT NULL,
         result jsonb,
         failure jsonb,
         created_at bigint NOT NULL,
         updated_at bigint NOT NULL
       )`,
      `CREATE TABLE system_journal_event (
         id text PRIMARY KEY,
         seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
         player_id text NOT NULL,
         state text NOT NULL,
         task jsonb NOT NULL,
         updated_at bigint NOT NULL
       )`,
      "CREATE INDEX system_journal_event_state ON system_journal_event (state, seq)",
    ],
  },
  {
    name: "201-leases",
    statements: [
      // A lease per piece of long work. `epoch` only grows: each takeover bumps it, and every write the lease
      // protects checks it in the same statement (fencing), so a paused holder cannot write after a takeover.
      `CREATE TABLE system_lease (
         key text PRIMARY KEY,
         owner text NOT NULL,
         epoch bigint NOT NULL,
         expires_at timestamptz NOT NULL
       )`,
      // The fence of a protected write: true while the lease is still at the epoch, and the lease row stays
      // locked until the write commits, so a takeover waits for it (or the write sees the new epoch).
      `CREATE FUNCTION system_lease_holds(lease_key text, lease_epoch bigint) RETURNS boolean
         LANGUAGE sql VOLATILE AS $$
           SELECT EXISTS (SELECT 1 FROM system_lease WHERE key = lease_key AND epoch = lease_epoch FOR SHARE)
         $$`,
    ],
  },
  {
    name: "202-presence",
    statements: [
      // Join epochs come from one sequence: a later join always has a larger epoch, whatever the arrival order
      // of the old server's quit.
      "CREATE SEQUENCE system_presence_epoch",
      `CREATE TABLE system_presence (
         player_id text PRIMARY KEY,
         server text NOT NULL,
         epoch bigint NOT NULL,
         joined_at timestamptz NOT NULL DEFAULT now()
       )`,
    ],
  },
  {
    name: "203-outbox",
    statements: [
      // An in-game effect, written in the same transaction as the ledger change that causes it. Only the server
      // hosting the player claims it: pending → applying (before the effect) → done (after); a claim left
      // `applying` by a crash becomes `unconfirmed` unless a reconcile decides from the world.
      `CREATE TABLE system_outbox (
         id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
         idem_key text NOT NULL UNIQUE,
         player_id text NOT NULL,
         payload jsonb NOT NULL,
         status text NOT NULL DEFAULT 'pending'
           CHECK (status IN ('pending', 'applying', 'done', 'unconfirmed', 'failed')),
         server text,
         presence_epoch bigint,
         attempts integer NOT NULL DEFAULT 0,
         note text,
         created_at timestamptz NOT NULL DEFAULT now(),
         updated_at timestamptz NOT NULL DEFAULT now()
       )`,
      "CREATE INDEX system_outbox_open ON system_outbox (player_id, id) WHERE status IN ('pending', 'applying')",
    ],
  },
];
