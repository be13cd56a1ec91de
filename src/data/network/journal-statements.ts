import type { Pool, QueryResultRow } from "pg";
import type { EventTask, StepReceipt } from "../../agent/storage/agent-journal.js";
import { isState } from "../../agent/storage/state.js";
import type { Json } from "../../util/codec.js";
import { LeaseLostError, type LeaseToken } from "./postgres-leases.js";
import { inTransaction } from "./postgres-transaction.js";

/** One write of the PostgreSQL journal; a fenced write applies only while its lease still has that epoch. */
export type JournalOp =
  | { readonly kind: "append-step"; readonly receipt: StepReceipt; readonly fence?: LeaseToken }
  | { readonly kind: "put-step"; readonly receipt: StepReceipt; readonly fence?: LeaseToken }
  | { readonly kind: "insert-event"; readonly task: EventTask }
  | { readonly kind: "put-event"; readonly task: EventTask; readonly fence?: LeaseToken };

/** Created, or the row that already held the key (insert-if-absent); puts resolve `created: true`. */
export interface JournalOpResult {
  readonly created: boolean;
  readonly row?: StepReceipt | EventTask;
}

/** The fence of a row of an `unnest`: no lease, or the lease row still at the epoch (locked until commit). */
const FENCE = "(t.fence_key IS NULL OR system_lease_holds(t.fence_key, t.fence_epoch))";

const STEP_COLUMNS = "key, tool, state, result, failure, created_at, updated_at";
const STEP_INPUT = `unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::jsonb[], $6::bigint[],
    $7::bigint[], $8::text[], $9::bigint[])
  AS t(key, tool, state, result, failure, created_at, updated_at, fence_key, fence_epoch)`;
/** The same row as STEP_INPUT for a group of one write (no arrays to build and unnest: a lone writer's case). */
const ONE_STEP_INPUT = `(SELECT $1::text, $2::text, $3::text, $4::jsonb, $5::jsonb, $6::bigint, $7::bigint, $8::text,
    $9::bigint) AS t(key, tool, state, result, failure, created_at, updated_at, fence_key, fence_epoch)`;
const EVENT_INPUT = `unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::bigint[], $6::text[],
    $7::bigint[]) AS t(id, player_id, state, task, updated_at, fence_key, fence_epoch)`;

const json = (value: Json | object | undefined): string | null =>
  value === undefined ? null : JSON.stringify(value);

const stepValues = (ops: readonly { receipt: StepReceipt; fence?: LeaseToken }[]): unknown[] => [
  ops.map((op) => op.receipt.key),
  ops.map((op) => op.receipt.tool),
  ops.map((op) => op.receipt.state),
  ops.map((op) => json(op.receipt.result)),
  ops.map((op) => json(op.receipt.failure)),
  ops.map((op) => op.receipt.createdAt),
  ops.map((op) => op.receipt.updatedAt),
  ops.map((op) => op.fence?.key ?? null),
  ops.map((op) => op.fence?.epoch ?? null),
];

/** The statement name, row source and values of a step write: arrays for a group, plain values for one. */
const stepRows = (
  name: string,
  ops: readonly { receipt: StepReceipt; fence?: LeaseToken }[],
): { name: string; input: string; values: unknown[] } =>
  ops.length === 1
    ? {
        name: `${name}-one`,
        input: ONE_STEP_INPUT,
        values: stepValues(ops).map((column) => (column as unknown[])[0]),
      }
    : { name, input: STEP_INPUT, values: stepValues(ops) };

const eventValues = (ops: readonly { task: EventTask; fence?: LeaseToken }[]): unknown[] => [
  ops.map((op) => op.task.id),
  ops.map((op) => op.task.playerId),
  ops.map((op) => op.task.state),
  ops.map((op) => json(op.task)),
  ops.map((op) => op.task.updatedAt),
  ops.map((op) => op.fence?.key ?? null),
  ops.map((op) => op.fence?.epoch ?? null),
];

/** A step row as read, or undefined when its state is not a known state (kept, reported, never run). */
export const stepFromRow = (row: QueryResultRow): StepReceipt | undefined => {
  if (!isState(row.state)) return undefined;
  return {
    key: row.key as string,
    tool: row.tool as string,
    state: row.state,
    ...(row.result === null ? {} : { result: row.result as Json }),
    ...(row.failure === null ? {} : { failure: row.failure as StepReceipt["failure"] & object }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
};

/** An event row as read, or undefined when its state is not a known state. */
export const eventFromRow = (row: QueryResultRow): EventTask | undefined => {
  const task = row.task as EventTask;
  if (!isState(row.state) || task.state !== row.state) return undefined;
  return task;
};

/** Keeps the last op of each key (its value already holds the earlier ones' changes). */
const lastByKey = <T>(ops: readonly T[], key: (op: T) => string): T[] => [
  ...new Map(ops.map((op) => [key(op), op])).values(),
];

/**
 * Commits a group of journal writes: one statement per kind, in one transaction when there are several kinds.
 * Insert-if-absent writes that lose to an existing row come back with that row (read after the commit).
 */
export const commitJournalOps = async (
  pool: Pool,
  ops: readonly JournalOp[],
): Promise<(JournalOpResult | Error)[]> => {
  const appends = ops.filter((op) => op.kind === "append-step");
  const stepPuts = lastByKey(
    ops.filter((op) => op.kind === "put-step"),
    (op) => op.receipt.key,
  );
  const inserts = ops.filter((op) => op.kind === "insert-event");
  const eventPuts = lastByKey(
    ops.filter((op) => op.kind === "put-event"),
    (op) => op.task.id,
  );
  // Named: each connection parses and plans a statement once, not at every commit.
  const statements: { name: string; text: string; values: unknown[]; written: Set<string> }[] = [];
  const add = (name: string, text: string, values: unknown[]): Set<string> => {
    const written = new Set<string>();
    statements.push({ name, text, values, written });
    return written;
  };
  const appendRows = stepRows("system-journal-append-step", appends);
  const appended =
    appends.length === 0
      ? new Set<string>()
      : add(
          appendRows.name,
          `INSERT INTO system_journal_step (${STEP_COLUMNS}) SELECT ${STEP_COLUMNS} FROM ${appendRows.input}
           WHERE ${FENCE} ON CONFLICT (key) DO NOTHING RETURNING key`,
          appendRows.values,
        );
  const putRows = stepRows("system-journal-put-step", stepPuts);
  const stepsPut =
    stepPuts.length === 0
      ? new Set<string>()
      : add(
          putRows.name,
          `INSERT INTO system_journal_step (${STEP_COLUMNS}) SELECT ${STEP_COLUMNS} FROM ${putRows.input}
           WHERE ${FENCE} ON CONFLICT (key) DO UPDATE SET tool = EXCLUDED.tool, state = EXCLUDED.state,
           result = EXCLUDED.result, failure = EXCLUDED.failure, updated_at = EXCLUDED.updated_at RETURNING key`,
          putRows.values,
        );
  const inserted =
    inserts.length === 0
      ? new Set<string>()
      : add(
          "system-journal-insert-event",
          `INSERT INTO system_journal_event (id, player_id, state, task, updated_at)
           SELECT id, player_id, state, task, updated_at FROM ${EVENT_INPUT}
           ON CONFLICT (id) DO NOTHING RETURNING id AS key`,
          eventValues(inserts),
        );
  const eventsPut =
    eventPuts.length === 0
      ? new Set<string>()
      : add(
          "system-journal-put-event",
          `INSERT INTO system_journal_event (id, player_id, state, task, updated_at)
           SELECT id, player_id, state, task, updated_at FROM ${EVENT_INPUT} WHERE ${FENCE}
           ON CONFLICT (id) DO UPDATE SET player_id = EXCLUDED.player_id, state = EXCLUDED.state,
           task = EXCLUDED.task, updated_at = EXCLUDED.updated_at RETURNING id AS key`,
          eventValues(eventPuts),
        );
  const collect = (rows: QueryResultRow[], into: Set<string>) => {
    for (const row of rows) into.add(row.key as string);
  };
  const only = statements[0];
  if (statements.length === 1 && only !== undefined) {
    collect((await pool.query({ name: only.name, text: only.text, values: only.values })).rows, only.written);
  } else {
    await inTransaction(pool, async (client) => {
      for (const statement of statements)
        collect(
          (await client.query({ name: statement.name, text: statement.text, values: statement.values })).rows,
          statement.written,
        );
    });
  }
  const existingSteps = await readRows(
    pool,
    "SELECT * FROM system_journal_step WHERE key = ANY($1)",
    appends.map((op) => op.receipt.key).filter((key) => !appended.has(key)),
    (row) => stepFromRow(row),
  );
  const existingEvents = await readRows(
    pool,
    "SELECT id AS key, * FROM system_journal_event WHERE id = ANY($1)",
    inserts.map((op) => op.task.id).filter((key) => !inserted.has(key)),
    (row) => eventFromRow(row),
  );
  const firstAppend = new Map<string, JournalOp>();
  const firstInsert = new Map<string, JournalOp>();
  return ops.map((op): JournalOpResult | Error => {
    switch (op.kind) {
      case "append-step": {
        const key = op.receipt.key;
        const first = firstAppend.get(key) ?? op;
        firstAppend.set(key, first);
        if (first === op && appended.has(key)) return { created: true, row: op.receipt };
        if (first !== op && appended.has(key) && first.kind === "append-step")
          return { created: false, row: first.receipt };
        const existing = existingSteps.get(key);
        return existing === undefined ? lost(op.fence, key) : { created: false, row: existing };
      }
      case "put-step":
        return stepsPut.has(op.receipt.key) ? { created: true } : lost(op.fence, op.receipt.key);
      case "insert-event": {
        const first = firstInsert.get(op.task.id) ?? op;
        firstInsert.set(op.task.id, first);
        if (first === op && inserted.has(op.task.id)) return { created: true, row: op.task };
        if (first !== op && inserted.has(op.task.id) && first.kind === "insert-event")
          return { created: false, row: first.task };
        return { created: false, ...rowOf(existingEvents.get(op.task.id)) };
      }
      default:
        return eventsPut.has(op.task.id) ? { created: true } : lost(op.fence, op.task.id);
    }
  });
};

const rowOf = <T>(row: T | undefined): { row?: T } => (row === undefined ? {} : { row });

const lost = (fence: LeaseToken | undefined, key: string): Error =>
  fence === undefined
    ? new Error(`journal: the write of ${key} did not apply (an unreadable row holds the key)`)
    : new LeaseLostError(fence, `journal write of ${key}`);

const readRows = async <T>(
  pool: Pool,
  text: string,
  keys: readonly string[],
  decode: (row: QueryResultRow) => T | undefined,
): Promise<Map<string, T>> => {
  const found = new Map<string, T>();
  if (keys.length === 0) return found;
  for (const row of (await pool.query(text, [keys])).rows) {
    const value = decode(row);
    if (value !== undefined) found.set(row.key as string, value);
  }
  return found;
};
