import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { gzipSync } from "node:zlib";
import nbt from "prismarine-nbt";
import { AgentException } from "../../agent/agent-exception.js";
import { AgentFailure } from "../../agent/agent-failure.js";
import { writeFileAtomic } from "../../util/atomic-file.js";
import type { Logger } from "../../util/logger.js";
import { invalid, type Validation, valid } from "../../util/validation.js";
import { moveAside } from "./aside-file.js";

/** The root compound's fields of a gzip NBT file. */
export type NbtFields = nbt.Compound["value"];

/** A file written by a build that knows a newer (or no known) format version; it is never overwritten. */
export class UnsupportedVersionError extends Error {
  override readonly name = "UnsupportedVersionError";
}

const missing = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === "ENOENT";

/** Options of a versioned gzip NBT file kind (player file, chat cache). */
export interface NbtFileKind {
  /** What the file is, for log lines ("player file", "chat cache"). */
  readonly label: string;
  readonly version: number;
  /** The largest gzip size accepted on write. */
  readonly maxBytes: number;
}

/**
 * Parses the bytes of a gzip NBT file of a kind, touching no file: its fields, or why they cannot be read (not
 * NBT, no version tag, another version).
 */
export const parseNbtFile = async (bytes: Buffer, kind: NbtFileKind): Promise<Validation<NbtFields>> => {
  let fields: NbtFields;
  try {
    fields = (await nbt.parse(bytes, "big")).parsed.value;
  } catch (error) {
    return invalid(error instanceof Error ? error.message : String(error));
  }
  const version = fields.version;
  if (version === undefined || version.type !== "int") return invalid("no format version tag");
  if (version.value !== kind.version) return invalid(`format version ${version.value}, not ${kind.version}`);
  return valid(fields);
};

/**
 * Reads a gzip NBT file. Missing: undefined. Unparsable: moved aside to `<file>.corrupt-<timestamp>` with an
 * error log line, then undefined (the next write starts fresh, nothing is overwritten). A version other than
 * the supported one throws {@link UnsupportedVersionError}, loudly and without touching the file.
 */
export const readNbtFile = async (
  path: string,
  kind: NbtFileKind,
  logger: Logger,
  now: () => number = Date.now,
  onQuarantined?: (aside: string, reason: string) => void,
): Promise<NbtFields | undefined> => {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (missing(error)) return undefined;
    throw error;
  }
  let fields: NbtFields;
  try {
    const { parsed } = await nbt.parse(bytes, "big");
    fields = parsed.value;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const aside = await quarantine(path, kind, logger, now, reason);
    onQuarantined?.(aside, reason);
    return undefined;
  }
  const version = fields.version;
  if (version === undefined || version.type !== "int") {
    const aside = await quarantine(path, kind, logger, now, "no format version tag");
    onQuarantined?.(aside, "no format version tag");
    return undefined;
  }
  if (version.value !== kind.version) {
    const message = `${kind.label} ${path} has format version ${version.value}; this build reads only ${kind.version}. Refusing to read or overwrite it.`;
    logger.error(message);
    throw new UnsupportedVersionError(message);
  }
  return fields;
};

/**
 * Moves a damaged file aside to `<file>.corrupt-<time>` (durably, under a name no other kept file has) with a clear
 * log line, before anything can be written in its place; never deletes or overwrites it.
 */
export const quarantine = async (
  path: string,
  kind: NbtFileKind,
  logger: Logger,
  now: () => number,
  reason: string,
): Promise<string> => {
  const aside = await moveAside(path, "corrupt", now());
  logger.error(`${kind.label} ${path} is unreadable (${reason}); moved aside to ${aside}, starting empty`);
  return aside;
};

/** Encodes fields (a version tag is added) as gzip NBT; refuses with STORAGE_FULL above the kind's limit. */
export const encodeNbtFile = (fields: NbtFields, kind: NbtFileKind): Buffer => {
  const root: nbt.NBT = {
    type: nbt.TagType.Compound,
    name: "",
    value: { ...fields, version: nbt.int(kind.version) },
  };
  const bytes = gzipSync(nbt.writeUncompressed(root, "big"));
  if (bytes.length > kind.maxBytes)
    throw new AgentException(
      AgentFailure.STORAGE_FULL.with(kind.label, String(bytes.length), String(kind.maxBytes)),
    );
  return bytes;
};

/** Atomically replaces a gzip NBT file (temp file, fsync, rename, folder fsync). */
export const writeNbtFile = async (path: string, fields: NbtFields, kind: NbtFileKind): Promise<void> => {
  const bytes = encodeNbtFile(fields, kind);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, bytes);
};
