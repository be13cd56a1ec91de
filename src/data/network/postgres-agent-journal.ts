import type { Pool } from "pg";
import { AgentException } from "../../agent/agent-exception.js";
import { AgentFailure } from "../../agent/agent-failure.js";
import type {
  AgentJournal,
  AppendStepResult,
  EventTask,
  EventTaskChange,
  PutEventResult,
  StepReceipt,
  StoredFailure,
  UnreadableEntry,
} from "../../agent/storage/agent-journal.js";
import { isUnfinished, State } from "../../agent/storage/state.js";
import type { Json } from "../../util/codec.js";
import { type Logger, silentLogger } from "../../util/logger.js";
import { GroupCommit } from "./group-commit.js";
import {
  commitJournalOps,
  eventFromRow,
  type JournalOp,
  type JournalOpResult,
  stepFromRow,
} from "./journal-statements.js";
import type { LeaseToken } from "./postgres-leases.js";

/** Options of {@link PostgresAgentJournal.open}. */
export interface PostgresAgentJournalOptions {
  /** A pool of a database migrated with COORDINATION_MIGRATIONS; the caller closes it. */
  readonly pool: Pool;
  readonly logger?: Logger;
  readonly now?: () => number;
  /** Group commits running at once, each on a connection of the pool (default 4). */
  readonly concurrentCommits?: number;
  /** Finished entries kept (newest first) when the journal is opened or pruned; as the file journal's limits. */
  readonly keep?: { readonly steps: number; readonly events: number };
}

/** As the file journal's default entry limits. */
const DEFAULT_KEEP = { steps: 20_000, events: 10_000 };

const clone = <T>(value: T): T => structuredClone(value);

/**
 * The journal on PostgreSQL, shared by the servers of a network. Reads come from this server's copy (loaded at
 * open, refreshed by `reloadSteps`/`reloadEvents` after taking a lease on work another server may have done);
 * writes resolve once committed, grouped so that concurrent writers share commits. A step key is unique in the
 * database: of two servers appending the same step, one creates it and the other gets that first record.
 * `fenced(lease)` gives a view whose step and event-change writes apply only while the lease is held.
 */
export class PostgresAgentJournal implements AgentJournal {
  readonly #steps = new Map<string, StepReceipt>();
  readonly #events = new Map<string, EventTask>();
  readonly #unreadable = new Map<string, UnreadableEntry>();
  readonly #appending = new Map<string, Promise<unknown>>();
  readonly #writer: GroupCommit<JournalOp, JournalOpResult>;
  #closed = false;

  private constructor(private readonly options: PostgresAgentJournalOptions) {
    this.#writer = new GroupCommit((ops) => commitJournalOps(options.pool, ops), {
      key: (op) => ("receipt" in op ? `s:${op.receipt.key}` : `e:${op.task.id}`),
      concurrency: options.concurrentCommits ?? 4,
    });
  }

  /** Loads every step and event of the database (events in insertion order). */
  static async open(options: PostgresAgentJournalOptions): Promise<PostgresAgentJournal> {
    const journal = new PostgresAgentJournal(options);
    await journal.prune();
    await journal.reloadSteps("");
    await journal.reloadEvents();
    const unreadable = journal.#unreadable.size;
    if (unreadable > 0)
      (options.logger ?? silentLogger).warn(`journal: ${unreadable} entries have an unknown state`);
    return journal;
  }

  /** Reads again the steps whose key starts with `prefix` (a run's steps, after taking over its lease). */
  async reloadSteps(prefix: string): Promise<void> {
    const pattern = `${prefix.replace(/[\\%_]/g, "\\$&")}%`;
    const { rows } = await this.options.pool.query(
      "SELECT * FROM system_journal_step WHERE key LIKE $1 ORDER BY created_at, key",
      [pattern],
    );
    for (const row of rows) {
      const receipt = stepFromRow(row);
      if (receipt === undefined) this.#markUnreadable("steps", row.key, row.state);
      else this.#steps.set(receipt.key, receipt);
    }
  }

  /** Reads again every event task (all of them, or the given ids). */
  async reloadEvents(ids?: readonly string[]): Promise<void> {
    const { rows } = await this.options.pool.query(
      `SELECT * FROM system_journal_event ${ids === undefined ? "" : "WHERE id = ANY($1)"} ORDER BY seq`,
      ids === undefined ? [] : [ids],
    );
    for (const row of rows) {
      const task = eventFromRow(row);
      if (task === undefined) this.#markUnreadable("events", row.id, row.state);
      else this.#events.set(task.id, task);
    }
  }

  /** Reads again the event tasks of one player (they joined here; another server may have queued some). */
  async refreshPlayer(playerId: string): Promise<void> {
    const { rows } = await this.options.pool.query(
      "SELECT id FROM system_journal_event WHERE player_id = $1",
      [playerId],
    );
    if (rows.length > 0) await this.reloadEvents(rows.map((row) => row.id as string));
  }

  /**
   * Deletes the oldest finished entries over the limits: terminal event tasks, and DONE/FAILED receipts except
   * those of an unfinished event's steps (`event:<id>/…`, still needed to resume it). RUNNING receipts and
   * unfinished or UNCONFIRMED tasks are never deleted. Returns how many went.
   */
  async prune(): Promise<number> {
    const keep = this.options.keep ?? DEFAULT_KEEP;
    const steps = await this.options.pool.query(
      `DELETE FROM system_journal_step WHERE key IN (
         SELECT s.key FROM system_journal_step s
         WHERE s.state IN ('DONE', 'FAILED') AND NOT EXISTS (
           SELECT 1 FROM system_journal_event e
           WHERE e.state IN ('QUEUED', 'RUNNING', 'WAITING') AND starts_with(s.key, 'event:' || e.id || '/'))
         ORDER BY s.updated_at DESC, s.key DESC OFFSET $1)
       RETURNING key`,
      [keep.steps],
    );
    const events = await this.options.pool.query(
      `DELETE FROM system_journal_event WHERE id IN (
         SELECT id FROM system_journal_event WHERE state IN ('SUCCEEDED', 'FAILED', 'PARTIALLY_SUCCEEDED')
         ORDER BY updated_at DESC, seq DESC OFFSET $1)
       RETURNING id`,
      [keep.events],
    );
    for (const row of steps.rows) this.#steps.delete(row.key);
    for (const row of events.rows) this.#events.delete(row.id);
    return steps.rows.length + events.rows.length;
  }

  /** A view of this journal whose step writes and event changes apply only while `lease` is held. */
  fenced(lease: LeaseToken): AgentJournal {
    return new FencedJournal(this, lease);
  }

  step(key: string): StepReceipt | undefined {
    const receipt = this.#steps.get(key);
    return receipt === undefined ? undefined : clone(receipt);
  }

  appendStep(key: string, tool: string, fence?: LeaseToken): Promise<AppendStepResult> {
    this.#checkOpen();
    const known = this.#steps.get(key);
    if (known !== undefined) return Promise.resolve({ created: false, receipt: clone(known) });
    const running = this.#appending.get(`s:${key}`);
    if (running !== undefined) return running.then(() => this.appendStep(key, tool, fence));
    const now = this.#now();
    const receipt: StepReceipt = { key, tool, state: State.RUNNING, createdAt: now, updatedAt: now };
    const write = this.#writer
      .submit({ kind: "append-step", receipt, ...(fence === undefined ? {} : { fence }) })
      .then((result): AppendStepResult => {
        const stored = (result.row ?? receipt) as StepReceipt;
        this.#steps.set(key, stored);
        return result.created
          ? { created: true, receipt: clone(stored) }
          : { created: false, receipt: clone(stored) };
      })
      .finally(() => this.#appending.delete(`s:${key}`));
    this.#appending.set(`s:${key}`, write);
    return write;
  }

  beginStep(key: string, tool: string, fence?: LeaseToken): Promise<void> {
    const previous = this.#steps.get(key);
    const now = this.#now();
    return this.#putStep(
      { key, tool, state: State.RUNNING, createdAt: previous?.createdAt ?? now, updatedAt: now },
      fence,
    );
  }

  completeStep(key: string, result: Json, fence?: LeaseToken): Promise<void> {
    return this.#finishStep(key, { state: State.DONE, result: clone(result) }, fence);
  }

  failStep(key: string, failure: StoredFailure, fence?: LeaseToken): Promise<void> {
    return this.#finishStep(
      key,
      { state: State.FAILED, failure: { ...failure, args: [...failure.args] } },
      fence,
    );
  }

  async putEvent(task: Omit<EventTask, "createdAt" | "updatedAt">): Promise<PutEventResult> {
    this.#checkOpen();
    const known = this.#events.get(task.id);
    if (known !== undefined) return { created: false, existing: clone(known) };
    if (this.#unreadable.has(`events:${task.id}`)) return { created: false, existing: undefined };
    const running = this.#appending.get(`e:${task.id}`);
    if (running !== undefined) {
      await running.catch(() => undefined);
      return this.putEvent(task);
    }
    const now = this.#now();
    const stored: EventTask = { ...clone(task), createdAt: now, updatedAt: now };
    const write = this.#writer.submit({ kind: "insert-event", task: stored });
    this.#appending.set(`e:${task.id}`, write);
    try {
      const result = await write;
      const row = result.row as EventTask | undefined;
      if (row !== undefined) this.#events.set(row.id, row);
      return result.created
        ? { created: true, task: clone(stored) }
        : { created: false, existing: clone(row) };
    } finally {
      this.#appending.delete(`e:${task.id}`);
    }
  }

  event(id: string): EventTask | undefined {
    const task = this.#events.get(id);
    return task === undefined ? undefined : clone(task);
  }

  async updateEvent(id: string, change: EventTaskChange, fence?: LeaseToken): Promise<EventTask> {
    this.#checkOpen();
    const previous = this.#events.get(id);
    if (previous === undefined) throw new AgentException(AgentFailure.NOT_FOUND.with(id));
    const next: EventTask = {
      ...previous,
      ...(change.state === undefined ? {} : { state: change.state }),
      ...(change.attempts === undefined ? {} : { attempts: change.attempts }),
      ...(change.result === undefined ? {} : { result: clone(change.result) }),
      updatedAt: this.#now(),
    };
    // In this server's copy at once, as the file journal does, so that changes made together compose.
    this.#events.set(id, next);
    try {
      await this.#writer.submit({ kind: "put-event", task: next, ...(fence === undefined ? {} : { fence }) });
    } catch (error) {
      await this.reloadEvents([id]).catch(() => undefined);
      throw error;
    }
    return clone(next);
  }

  unfinishedEvents(): EventTask[] {
    return [...this.#events.values()].filter((task) => isUnfinished(task.state)).map(clone);
  }

  unconfirmedEvents(): EventTask[] {
    return [...this.#events.values()].filter((task) => task.state === State.UNCONFIRMED).map(clone);
  }

  recentEvents(limit: number, playerId?: string): EventTask[] {
    return [...this.#events.values()]
      .filter((task) => playerId === undefined || task.playerId === playerId)
      .sort((left, right) => right.updatedAt - left.updatedAt)
      .slice(0, Math.max(0, limit))
      .map(clone);
  }

  unreadable(): readonly UnreadableEntry[] {
    return [...this.#unreadable.values()];
  }

  /** Waits for pending writes; the pool stays open (its owner closes it). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#writer.drain();
  }

  #finishStep(
    key: string,
    change: Pick<StepReceipt, "state" | "result" | "failure">,
    fence: LeaseToken | undefined,
  ): Promise<void> {
    const previous = this.#steps.get(key);
    const now = this.#now();
    const receipt = {
      key,
      tool: previous?.tool ?? "",
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
      ...Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)),
    } as StepReceipt;
    return this.#putStep(receipt, fence);
  }

  async #putStep(receipt: StepReceipt, fence: LeaseToken | undefined): Promise<void> {
    this.#checkOpen();
    this.#steps.set(receipt.key, receipt);
    this.#unreadable.delete(`steps:${receipt.key}`);
    try {
      await this.#writer.submit({ kind: "put-step", receipt, ...(fence === undefined ? {} : { fence }) });
    } catch (error) {
      // Not written: this server's copy goes back to what the database holds.
      this.#steps.delete(receipt.key);
      await this.reloadSteps(receipt.key).catch(() => undefined);
      throw error;
    }
  }

  #markUnreadable(table: "steps" | "events", key: string, state: unknown): void {
    this.#unreadable.set(`${table}:${key}`, { table, key, reason: `unknown state ${String(state)}` });
    if (table === "steps") this.#steps.delete(key);
    else this.#events.delete(key);
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error("journal is closed");
  }

  #now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** The journal seen by the holder of a lease: its step writes and event changes carry the lease's fence. */
class FencedJournal implements AgentJournal {
  constructor(
    private readonly journal: PostgresAgentJournal,
    private readonly lease: LeaseToken,
  ) {}
  step = (key: string) => this.journal.step(key);
  appendStep = (key: string, tool: string) => this.journal.appendStep(key, tool, this.lease);
  beginStep = (key: string, tool: string) => this.journal.beginStep(key, tool, this.lease);
  completeStep = (key: string, result: Json) => this.journal.completeStep(key, result, this.lease);
  failStep = (key: string, failure: StoredFailure) => this.journal.failStep(key, failure, this.lease);
  putEvent = (task: Omit<EventTask, "createdAt" | "updatedAt">) => this.journal.putEvent(task);
  event = (id: string) => this.journal.event(id);
  updateEvent = (id: string, change: EventTaskChange) => this.journal.updateEvent(id, change, this.lease);
  unfinishedEvents = () => this.journal.unfinishedEvents();
  unconfirmedEvents = () => this.journal.unconfirmedEvents();
  recentEvents = (limit: number, playerId?: string) => this.journal.recentEvents(limit, playerId);
  unreadable = () => this.journal.unreadable();
  close = () => Promise.resolve();
}
