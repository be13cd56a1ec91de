import { type FileHandle, mkdir, open, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
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
import { syncDirectory, writeFileAtomic } from "../../util/atomic-file.js";
import type { Json } from "../../util/codec.js";
import { CorruptFileError } from "../../util/corrupt-file-error.js";
import { type Logger, silentLogger } from "../../util/logger.js";
import { writeAside } from "./aside-file.js";
import { BoundedTable, type TableLimits } from "./bounded-table.js";
import { GroupCommitLog } from "./group-commit-log.js";
import { JournalTables, LOG_FORMAT, readLog, readSnapshot, SNAPSHOT_FORMAT } from "./journal-files.js";
import { acquireLock } from "./journal-lock.js";
import { eventPayload, headerPayload, stepPayload } from "./journal-records.js";
import { encodeFrame } from "./record-frame.js";

/** Options of {@link FileAgentJournal.open}. */
export interface FileAgentJournalOptions {
  /** The journal folder of one world save, normally `<world>/system/journal`. */
  readonly folder: string;
  readonly steps?: TableLimits;
  readonly events?: TableLimits;
  /** The log is compacted into a new snapshot once it grows past this many bytes. */
  readonly compactBytes?: number;
  readonly logger?: Logger;
  readonly now?: () => number;
}

/** Default limits: generous for receipts, tighter for event tasks. */
export const DEFAULT_STEP_LIMITS: TableLimits = { maxEntries: 20_000, maxBytes: 32 * 1024 * 1024 };
export const DEFAULT_EVENT_LIMITS: TableLimits = { maxEntries: 10_000, maxBytes: 16 * 1024 * 1024 };
const DEFAULT_COMPACT_BYTES = 8 * 1024 * 1024;

/**
 * Steps of an event run under the request id `event:<eventId>` (EventExecutor); while that event is
 * unfinished its DONE receipts are still needed for recovery and are never evicted.
 */
const isUnfinishedEventStep = (key: string, events: BoundedTable<EventTask>): boolean => {
  if (!key.startsWith("event:")) return false;
  const slash = key.indexOf("/");
  const task = slash < 0 ? undefined : events.get(key.slice("event:".length, slash));
  return task !== undefined && isUnfinished(task.state);
};

const logName = (generation: number): string => `journal-${generation}.log`;
const clone = <T>(value: T): T => structuredClone(value);

/**
 * The file journal: a snapshot (`snapshot.bin`, replaced atomically) plus an append-only log of checksummed
 * frames (`journal-<generation>.log`) written with group commit. A write resolves after its fdatasync; a torn
 * tail is detected by length and CRC, kept aside and truncated at open; nothing acknowledged is lost, and
 * damage that is not a torn tail makes open refuse rather than drop records.
 */
export class FileAgentJournal implements AgentJournal {
  readonly #tables: JournalTables;
  readonly #log: GroupCommitLog;
  #handle: FileHandle;
  #generation: number;
  #closed = false;

  private constructor(
    private readonly options: FileAgentJournalOptions,
    tables: JournalTables,
    handle: FileHandle,
    size: number,
    generation: number,
    private readonly unlock: () => Promise<void>,
  ) {
    this.#tables = tables;
    this.#handle = handle;
    this.#generation = generation;
    this.#log = new GroupCommitLog(handle, size, () => this.#compactIfLarge());
  }

  /**
   * Opens (recovering) or creates the journal of a folder. A torn tail from a crash is kept aside and cut off;
   * anything else that would drop records (an unreadable header, another version, damage followed by sound
   * records) throws a CorruptFileError naming the file, and a file with an unreadable header is moved aside.
   */
  static async open(options: FileAgentJournalOptions): Promise<FileAgentJournal> {
    const logger = options.logger ?? silentLogger;
    await mkdir(options.folder, { recursive: true });
    const unlock = await acquireLock(join(options.folder, "journal.lock"));
    try {
      return await FileAgentJournal.#load(options, logger, unlock);
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  static async #load(
    options: FileAgentJournalOptions,
    logger: Logger,
    unlock: () => Promise<void>,
  ): Promise<FileAgentJournal> {
    const events = new BoundedTable<EventTask>("events", options.events ?? DEFAULT_EVENT_LIMITS);
    const steps = new BoundedTable<StepReceipt>("steps", options.steps ?? DEFAULT_STEP_LIMITS, (key) =>
      isUnfinishedEventStep(key, events),
    );
    const tables = new JournalTables(steps, events);
    const now = options.now ?? Date.now;
    const snapshotPath = join(options.folder, "snapshot.bin");
    const generation = await readSnapshot({ path: snapshotPath, tables, now });
    for (const name of await readdir(options.folder)) {
      const match = /^journal-(\d+)\.log$/.exec(name);
      if (match === null) continue;
      const logGeneration = Number(match[1]);
      if (logGeneration > generation)
        throw new CorruptFileError(
          join(options.folder, name),
          `journal log ${join(options.folder, name)} belongs to snapshot generation ${logGeneration}, but ` +
            `${snapshotPath} is ${generation === 0 ? "missing" : `at generation ${generation}`}; refusing to open`,
        );
      // An older log was folded into the snapshot by a compaction that stopped before removing it.
      if (logGeneration < generation) await rm(join(options.folder, name), { force: true });
    }
    const path = join(options.folder, logName(generation));
    const read = await readLog({ path, generation, tables, logger, now });
    let handle: FileHandle;
    let size: number;
    if (read === undefined) {
      handle = await open(path, "w+", 0o644);
      const header = encodeFrame(headerPayload(LOG_FORMAT, generation));
      await handle.write(header, 0, header.length, 0);
      await handle.sync();
      await syncDirectory(options.folder);
      size = header.length;
    } else {
      handle = await open(path, "r+");
      if (read.tornBytes > 0) {
        // Keep the dropped bytes beside the log for inspection; only then cut them off.
        const aside = await writeAside(path, "torn", now(), read.tail);
        logger.warn(`journal: the ${read.tornBytes} ignored bytes were kept in ${aside}`);
        await handle.truncate(read.validBytes);
        await handle.sync();
      }
      size = read.validBytes;
    }
    const evicted = tables.steps.trim().length + tables.events.trim().length;
    if (evicted > 0) logger.info(`journal: evicted ${evicted} old finished entries over the limits`);
    return new FileAgentJournal(options, tables, handle, size, generation, unlock);
  }

  step(key: string): StepReceipt | undefined {
    const receipt = this.#tables.steps.get(key);
    return receipt === undefined ? undefined : clone(receipt);
  }

  async appendStep(key: string, tool: string): Promise<AppendStepResult> {
    const existing = this.#tables.steps.get(key);
    if (existing !== undefined) return { created: false, receipt: clone(existing) };
    // Recorded in memory before the first await: a second append of the key in this process finds it.
    const written = this.beginStep(key, tool);
    const receipt = clone(this.#tables.steps.get(key) as StepReceipt);
    await written;
    return { created: true, receipt };
  }

  async beginStep(key: string, tool: string): Promise<void> {
    const previous = this.#tables.steps.get(key);
    const now = this.#now();
    await this.#writeStep({
      key,
      tool,
      state: State.RUNNING,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    });
  }

  async completeStep(key: string, result: Json): Promise<void> {
    await this.#finishStep(key, { state: State.DONE, result: clone(result) });
  }

  async failStep(key: string, failure: StoredFailure): Promise<void> {
    await this.#finishStep(key, { state: State.FAILED, failure: { ...failure, args: [...failure.args] } });
  }

  async putEvent(task: Omit<EventTask, "createdAt" | "updatedAt">): Promise<PutEventResult> {
    this.#checkOpen();
    const existing = this.#tables.events.get(task.id);
    if (existing !== undefined) return { created: false, existing: clone(existing) };
    if (this.#tables.isUnreadable("events", task.id)) return { created: false, existing: undefined };
    const now = this.#now();
    const stored: EventTask = { ...clone(task), createdAt: now, updatedAt: now };
    await this.#write("events", stored.id, stored, eventPayload(stored), false);
    return { created: true, task: clone(stored) };
  }

  event(id: string): EventTask | undefined {
    const task = this.#tables.events.get(id);
    return task === undefined ? undefined : clone(task);
  }

  async updateEvent(id: string, change: EventTaskChange): Promise<EventTask> {
    this.#checkOpen();
    const previous = this.#tables.events.get(id);
    if (previous === undefined) throw new AgentException(AgentFailure.NOT_FOUND.with(id));
    const next: EventTask = {
      ...previous,
      ...(change.state === undefined ? {} : { state: change.state }),
      ...(change.attempts === undefined ? {} : { attempts: change.attempts }),
      ...(change.result === undefined ? {} : { result: clone(change.result) }),
      updatedAt: this.#now(),
    };
    await this.#write("events", id, next, eventPayload(next), true);
    return clone(next);
  }

  unfinishedEvents(): EventTask[] {
    const tasks: EventTask[] = [];
    for (const [, task] of this.#tables.events.entries())
      if (isUnfinished(task.state)) tasks.push(clone(task));
    return tasks;
  }

  unconfirmedEvents(): EventTask[] {
    const tasks: EventTask[] = [];
    for (const [, task] of this.#tables.events.entries())
      if (task.state === State.UNCONFIRMED) tasks.push(clone(task));
    return tasks;
  }

  recentEvents(limit: number, playerId?: string): EventTask[] {
    const tasks: EventTask[] = [];
    for (const [, task] of this.#tables.events.entries())
      if (playerId === undefined || task.playerId === playerId) tasks.push(task);
    return tasks
      .sort((left, right) => right.updatedAt - left.updatedAt)
      .slice(0, Math.max(0, limit))
      .map(clone);
  }

  unreadable(): readonly UnreadableEntry[] {
    return this.#tables.unreadableEntries();
  }

  /** Entry counts and encoded bytes per table, for diagnostics and tests. */
  stats(): { steps: number; events: number; stepBytes: number; eventBytes: number; logBytes: number } {
    const { steps, events } = this.#tables;
    return {
      steps: steps.size,
      events: events.size,
      stepBytes: steps.bytes,
      eventBytes: events.bytes,
      logBytes: this.#log.size,
    };
  }

  /** Writes a new snapshot and starts an empty log now. */
  compact(): Promise<void> {
    return this.#log.exclusive(() => this.#compact());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#log.exclusive(async () => {
      await this.#handle.close();
    });
    await this.unlock();
  }

  #finishStep(key: string, change: Pick<StepReceipt, "state" | "result" | "failure">): Promise<void> {
    const previous = this.#tables.steps.get(key);
    const now = this.#now();
    const receipt: StepReceipt = {
      key,
      tool: previous?.tool ?? "",
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
      ...Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)),
    } as StepReceipt;
    return this.#writeStep(receipt, true);
  }

  #writeStep(receipt: StepReceipt, force = this.#tables.steps.has(receipt.key)): Promise<void> {
    this.#checkOpen();
    return this.#write("steps", receipt.key, receipt, stepPayload(receipt), force);
  }

  /** Applies to memory first (STORAGE_FULL leaves it untouched), then waits until the frame is durable. */
  #write<V extends StepReceipt | EventTask>(
    table: "steps" | "events",
    key: string,
    value: V,
    payload: Buffer,
    force: boolean,
  ): Promise<void> {
    const broken = this.#log.broken;
    if (broken !== undefined) return Promise.reject(broken);
    const frame = encodeFrame(payload);
    if (table === "steps") this.#tables.steps.set(key, value as StepReceipt, payload.length, force);
    else this.#tables.events.set(key, value as EventTask, payload.length, force);
    this.#tables.clearUnreadable(table, key);
    return this.#log.append(frame);
  }

  async #compactIfLarge(): Promise<void> {
    if (this.#log.size >= (this.options.compactBytes ?? DEFAULT_COMPACT_BYTES)) await this.#compact();
  }

  /** Snapshot first (atomic), then a fresh log; a crash between the two leaves a complete snapshot. */
  async #compact(): Promise<void> {
    const generation = this.#generation + 1;
    const folder = this.options.folder;
    const frames = [encodeFrame(headerPayload(SNAPSHOT_FORMAT, generation)), ...this.#tables.frames()];
    await writeFileAtomic(join(folder, "snapshot.bin"), Buffer.concat(frames));
    const handle = await open(join(folder, logName(generation)), "w+", 0o644);
    const header = encodeFrame(headerPayload(LOG_FORMAT, generation));
    await handle.write(header, 0, header.length, 0);
    await handle.sync();
    await syncDirectory(folder);
    const old = this.#handle;
    this.#handle = handle;
    this.#log.replace(handle, header.length);
    this.#generation = generation;
    await old.close();
    await rm(join(folder, logName(generation - 1)), { force: true });
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error("journal is closed");
  }

  #now(): number {
    return (this.options.now ?? Date.now)();
  }
}
