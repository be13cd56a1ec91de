import { readFile } from "node:fs/promises";
import type { EventTask, StepReceipt, UnreadableEntry } from "../../agent/storage/agent-journal.js";
import type { Logger } from "../../util/logger.js";
import type { BoundedTable } from "./bounded-table.js";
import {
  decodeRecord,
  eventPayload,
  JOURNAL_VERSION,
  type JournalRecord,
  stepPayload,
} from "./journal-records.js";
import { decodeFrames, encodeFrame } from "./record-frame.js";

export const SNAPSHOT_FORMAT = "system-journal-snapshot";
export const LOG_FORMAT = "system-journal-log";

/** The in-memory state of the journal: both tables plus the entries that could not be read (kept verbatim). */
export class JournalTables {
  readonly #unreadable = new Map<string, { entry: UnreadableEntry; payload: Buffer }>();
  #anonymous = 0;

  constructor(
    readonly steps: BoundedTable<StepReceipt>,
    readonly events: BoundedTable<EventTask>,
  ) {}

  /** Applies one record read back from a file (last record of a key wins; loading never refuses for space). */
  apply(record: JournalRecord): void {
    if (record.kind === "step") {
      this.steps.set(record.receipt.key, record.receipt, record.bytes, true);
      this.clearUnreadable("steps", record.receipt.key);
    } else if (record.kind === "event") {
      this.events.set(record.task.id, record.task, record.bytes, true);
      this.clearUnreadable("events", record.task.id);
    } else if (record.kind === "unreadable") {
      const key = record.key === "" ? `?${this.#anonymous++}` : record.key;
      (record.table === "steps" ? this.steps : this.events).delete(key);
      const entry = { table: record.table, key, reason: record.reason };
      this.#unreadable.set(`${record.table}\u0000${key}`, { entry, payload: record.payload });
    }
  }

  isUnreadable(table: "steps" | "events", key: string): boolean {
    return this.#unreadable.has(`${table}\u0000${key}`);
  }

  clearUnreadable(table: "steps" | "events", key: string): void {
    this.#unreadable.delete(`${table}\u0000${key}`);
  }

  unreadableEntries(): UnreadableEntry[] {
    return [...this.#unreadable.values()].map(({ entry }) => ({ ...entry }));
  }

  /** Every entry as a frame, oldest first; unreadable entries are written back unchanged. */
  frames(): Buffer[] {
    const frames: Buffer[] = [];
    for (const [, receipt] of this.steps.entries()) frames.push(encodeFrame(stepPayload(receipt)));
    for (const [, task] of this.events.entries()) frames.push(encodeFrame(eventPayload(task)));
    for (const { payload } of this.#unreadable.values()) frames.push(encodeFrame(payload));
    return frames;
  }
}

const missing = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === "ENOENT";

const readOptional = async (path: string): Promise<Buffer | undefined> => {
  try {
    return await readFile(path);
  } catch (error) {
    if (missing(error)) return undefined;
    throw error;
  }
};

const checkHeader = (path: string, record: JournalRecord | undefined, format: string): number => {
  if (record === undefined || record.kind !== "header" || record.format !== format)
    throw new Error(`${path} is not a ${format} file; refusing to open the journal`);
  if (record.version !== JOURNAL_VERSION)
    throw new Error(`${path} has format version ${record.version}; this build reads only ${JOURNAL_VERSION}`);
  return record.generation;
};

/**
 * Loads the snapshot into the tables and returns its generation (0 without a snapshot). The snapshot is
 * replaced atomically, so any damage is real damage: it is refused loudly rather than half-read.
 */
export const readSnapshot = async (path: string, tables: JournalTables): Promise<number> => {
  const buffer = await readOptional(path);
  if (buffer === undefined) return 0;
  const { payloads, tornBytes } = decodeFrames(buffer);
  if (tornBytes > 0)
    throw new Error(`journal snapshot ${path} is damaged (${tornBytes} bytes unreadable); refusing to open`);
  const records = payloads.map(decodeRecord);
  const generation = checkHeader(path, records[0], SNAPSHOT_FORMAT);
  for (const record of records.slice(1)) tables.apply(record);
  return generation;
};

/**
 * Replays a log into the tables. A torn tail (a crash mid-append) is logged and reported for truncation;
 * returns undefined when the log does not exist or holds not even its header (a crash while creating it).
 */
export const readLog = async (
  path: string,
  generation: number,
  tables: JournalTables,
  logger: Logger,
): Promise<{ validBytes: number; tornBytes: number; tail: Buffer } | undefined> => {
  const buffer = await readOptional(path);
  if (buffer === undefined) return undefined;
  const { payloads, validBytes, tornBytes } = decodeFrames(buffer);
  if (payloads.length === 0) return undefined;
  const records = payloads.map(decodeRecord);
  if (checkHeader(path, records[0], LOG_FORMAT) !== generation)
    throw new Error(`${path} does not belong to snapshot generation ${generation}; refusing to open`);
  for (const record of records.slice(1)) tables.apply(record);
  if (tornBytes > 0)
    logger.warn(
      `journal: ignored a torn tail of ${tornBytes} bytes in ${path} (a write interrupted by a crash)`,
    );
  return { validBytes, tornBytes, tail: buffer.subarray(validBytes) };
};
