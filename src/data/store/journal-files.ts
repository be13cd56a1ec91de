import { readFile } from "node:fs/promises";
import type { EventTask, StepReceipt, UnreadableEntry } from "../../agent/storage/agent-journal.js";
import { CorruptFileError } from "../../util/corrupt-file-error.js";
import type { Logger } from "../../util/logger.js";
import { moveAside } from "./aside-file.js";
import type { BoundedTable } from "./bounded-table.js";
import {
  decodeRecord,
  eventPayload,
  headerPayload,
  JOURNAL_VERSION,
  type JournalRecord,
  RECORD_MARKER,
  stepPayload,
} from "./journal-records.js";
import { decodeFrames, encodeFrame, findFrame } from "./record-frame.js";

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

type Header = Extract<JournalRecord, { kind: "header" }>;

/** The file's header record, or what makes it unreadable. */
const readHeader = (payloads: readonly Buffer[], format: string): Header | string => {
  const first = payloads[0];
  if (first === undefined) return "its first frame fails its length or checksum check";
  const record = decodeRecord(first);
  if (record.kind !== "header") return "its first record is not a journal header";
  if (record.format !== format) return `it is a ${record.format} file, not a ${format} file`;
  return record;
};

/** What a journal file read needs: the file, and the clock that names a damaged file kept aside. */
export interface JournalFileOptions {
  readonly path: string;
  readonly tables: JournalTables;
  readonly now: () => number;
}

/**
 * A file whose header cannot be read is not the journal's to replace: it is moved aside (never deleted or
 * overwritten) and the journal refuses to open, naming both paths.
 */
const refuseUnreadableHeader = async (
  options: JournalFileOptions,
  kind: "snapshot" | "log",
  problem: string,
): Promise<never> => {
  const aside = await moveAside(options.path, "corrupt", options.now());
  throw new CorruptFileError(
    options.path,
    `journal ${kind} ${options.path} has an unreadable header (${problem}). It was moved to ${aside} and the ` +
      "journal refuses to open: its records are not loaded. Recover them from that file, or start again to " +
      `continue without them`,
  );
};

/** A readable header of another format version is refused and left in place (a newer build may read it). */
const checkVersion = (path: string, header: Header): void => {
  if (header.version !== JOURNAL_VERSION)
    throw new CorruptFileError(
      path,
      `journal file ${path} has format version ${header.version}; this build reads only ${JOURNAL_VERSION}. ` +
        "It was left untouched",
    );
};

/**
 * Loads the snapshot into the tables and returns its generation (0 without a snapshot). The snapshot is
 * replaced atomically, so any damage is real damage: it is refused loudly rather than half-read.
 */
export const readSnapshot = async (options: JournalFileOptions): Promise<number> => {
  const { path } = options;
  const buffer = await readOptional(path);
  if (buffer === undefined) return 0;
  const { payloads, validBytes, tornBytes } = decodeFrames(buffer);
  const header = readHeader(payloads, SNAPSHOT_FORMAT);
  if (typeof header === "string") return refuseUnreadableHeader(options, "snapshot", header);
  checkVersion(path, header);
  if (tornBytes > 0)
    throw new CorruptFileError(
      path,
      `journal snapshot ${path} is damaged (${tornBytes} bytes unreadable from byte ${validBytes}); refusing ` +
        "to open the journal. The file was left untouched",
    );
  for (const payload of payloads.slice(1)) options.tables.apply(decodeRecord(payload));
  return header.generation;
};

/**
 * True for what a crash while creating a log leaves: nothing, part of the expected header, or zeros. Such a
 * file holds no record and is recreated; any other file without a sound header is damaged.
 */
const unfinishedHeader = (buffer: Buffer, generation: number): boolean => {
  const expected = encodeFrame(headerPayload(LOG_FORMAT, generation));
  if (buffer.length <= expected.length && buffer.every((byte) => byte === 0)) return true;
  return buffer.length < expected.length && expected.subarray(0, buffer.length).equals(buffer);
};

/**
 * Replays a log into the tables. A torn tail (a crash mid-append: nothing sound after the first damaged
 * frame) is logged and reported for truncation; returns undefined when the log does not exist or holds not
 * even its whole header (a crash while creating it). Refuses a log with an unreadable header (moved aside),
 * another version or generation, or damage followed by sound records (those would be lost by truncation).
 */
export const readLog = async (
  options: JournalFileOptions & { readonly generation: number; readonly logger: Logger },
): Promise<{ validBytes: number; tornBytes: number; tail: Buffer } | undefined> => {
  const { path, generation } = options;
  const buffer = await readOptional(path);
  if (buffer === undefined || unfinishedHeader(buffer, generation)) return undefined;
  const { payloads, validBytes, tornBytes } = decodeFrames(buffer);
  const header = readHeader(payloads, LOG_FORMAT);
  if (typeof header === "string") return refuseUnreadableHeader(options, "log", header);
  checkVersion(path, header);
  if (header.generation !== generation)
    throw new CorruptFileError(
      path,
      `journal log ${path} has generation ${header.generation} but the snapshot has ${generation}; refusing to open`,
    );
  const next = tornBytes > 0 ? findFrame(buffer, validBytes, RECORD_MARKER) : undefined;
  if (next !== undefined)
    throw new CorruptFileError(
      path,
      `journal log ${path} is damaged: ${next - validBytes} unreadable bytes at byte ${validBytes} are ` +
        `followed by ${decodeFrames(buffer.subarray(next)).payloads.length} sound records, so this is not a write ` +
        "torn by a crash. The journal refuses to open rather than drop those records; the file was left " +
        "untouched (restore it from a backup, or move it aside to start without its records)",
    );
  for (const payload of payloads.slice(1)) options.tables.apply(decodeRecord(payload));
  if (tornBytes > 0)
    options.logger.warn(
      `journal: ignored a torn tail of ${tornBytes} bytes in ${path} (a write interrupted by a crash)`,
    );
  return { validBytes, tornBytes, tail: buffer.subarray(validBytes) };
};
