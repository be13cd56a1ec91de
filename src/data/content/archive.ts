import { readdirSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { inflateRawSync } from "node:zlib";
import yauzl, { type Entry, type ZipFile } from "yauzl";

/** Hard limits on one archive (a jar, a zipped datapack or resource pack): a stranger's file is never trusted. */
export interface ArchiveLimits {
  /** Most bytes one entry may inflate to (counted while inflating, whatever its header says). */
  readonly maxEntryBytes: number;
  /** Most bytes all the entries read from one archive may inflate to together. */
  readonly maxTotalBytes: number;
  /** Most entries one archive's central directory may list. */
  readonly maxEntries: number;
  /** How deep jars nested in jars are followed. */
  readonly maxDepth: number;
}

/** The defaults: far above any real mod (Create's jar reads ~30 MB of text), far below a zip bomb. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntryBytes: 16 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntries: 200_000,
  maxDepth: 3,
};

/** Why an archive (or one entry) was refused: `zip_bomb` for a limit, `corrupt` for anything unreadable. */
export type ArchiveProblem = "zip_bomb" | "corrupt";

/** An archive or entry System refused to read, with the reason shown to the admin. */
export class ArchiveError extends Error {
  constructor(
    readonly problem: ArchiveProblem,
    message: string,
  ) {
    super(message);
    this.name = "ArchiveError";
  }
}

/** The entries of an archive or folder, read one at a time, in place. */
export interface ArchiveReader {
  /** Entry names with `/` separators (folders left out). */
  readonly names: readonly string[];
  /** The bytes of one entry; rejects with an ArchiveError past a limit or on a damaged entry. */
  read(name: string): Promise<Buffer>;
  close(): void;
}

const bomb = (message: string): ArchiveError => new ArchiveError("zip_bomb", message);

/** Jars up to this size are read whole and their entries inflated in one call each (most mods are a few MB). */
const IN_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * The central directory of a zip that `open` gives, through yauzl: its file entries by name, within the entry
 * limit. The zip stays open for reading entries; it is closed when listing fails.
 */
const listEntries = async (
  open: () => Promise<ZipFile>,
  limits: ArchiveLimits,
): Promise<{ zip: ZipFile; entries: Map<string, Entry> }> => {
  let zip: ZipFile;
  try {
    zip = await open();
  } catch (error) {
    throw new ArchiveError("corrupt", `not a readable zip (${(error as Error).message})`);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw bomb(`${zip.entryCount} entries, more than the limit of ${limits.maxEntries}`);
  }
  const entries = new Map<string, Entry>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("entry", (entry: Entry) => {
        if (!entry.fileName.endsWith("/")) entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on("end", () => resolve());
      zip.on("error", reject);
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw new ArchiveError("corrupt", `damaged central directory (${(error as Error).message})`);
  }
  return { zip, entries };
};

/** The central directory of zip bytes; entries by name (inflated later from the bytes themselves). */
const directory = async (bytes: Buffer, limits: ArchiveLimits): Promise<Map<string, Entry>> => {
  const { zip, entries } = await listEntries(
    () => yauzl.fromBufferPromise(bytes, { lazyEntries: true, strictFileNames: false }),
    limits,
  );
  zip.close();
  return entries;
};

/**
 * Opens a zip file (a path) or zip bytes (a jar nested in a jar) with limits on entries and inflated bytes: the
 * central directory through yauzl, each entry inflated at most to the limit (`maxOutputLength`), whatever its
 * header says. Files above 64 MB are read through streams instead.
 */
export const openZip = async (source: string | Buffer, limits: ArchiveLimits): Promise<ArchiveReader> => {
  if (typeof source === "string" && statSync(source).size > IN_MEMORY_BYTES)
    return openStreamedZip(source, limits);
  const bytes = typeof source === "string" ? await readFile(source) : source;
  const entries = await directory(bytes, limits);
  let total = 0;
  return {
    names: [...entries.keys()],
    read: async (name) => {
      const entry = entries.get(name);
      if (entry === undefined) throw new ArchiveError("corrupt", `no entry ${name}`);
      if (entry.uncompressedSize > limits.maxEntryBytes)
        throw bomb(`${name} inflates to ${entry.uncompressedSize} bytes, more than ${limits.maxEntryBytes}`);
      const offset = entry.relativeOffsetOfLocalHeader;
      if (offset + 30 > bytes.length || bytes.readUInt32LE(offset) !== 0x04034b50)
        throw new ArchiveError("corrupt", `${name}: no local header`);
      const start = offset + 30 + bytes.readUInt16LE(offset + 26) + bytes.readUInt16LE(offset + 28);
      const end = start + entry.compressedSize;
      if (end > bytes.length) throw new ArchiveError("corrupt", `${name}: cut short`);
      const room = Math.min(limits.maxEntryBytes, limits.maxTotalBytes - total);
      let data: Buffer;
      if (entry.compressionMethod === 0) data = bytes.subarray(start, end);
      else if (entry.compressionMethod === 8)
        try {
          // a header can lie: the bytes actually inflated are what count
          data = inflateRawSync(bytes.subarray(start, end), { maxOutputLength: Math.max(1, room + 1) });
        } catch (error) {
          if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError)
            throw bomb(`${name} inflates past the limit`);
          throw new ArchiveError("corrupt", `${name}: ${(error as Error).message}`);
        }
      else throw new ArchiveError("corrupt", `${name}: compression method ${entry.compressionMethod}`);
      if (data.length > room) throw bomb(`${name} inflates past the limit`);
      if (data.length !== entry.uncompressedSize)
        throw new ArchiveError(
          "corrupt",
          `${name}: ${data.length} bytes, the directory says ${entry.uncompressedSize}`,
        );
      total += data.length;
      return data;
    },
    close: () => {},
  };
};

/** Reads a large zip through yauzl's streams (nothing but the entries read is held in memory). */
const openStreamedZip = async (source: string, limits: ArchiveLimits): Promise<ArchiveReader> => {
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false };
  const { zip, entries } = await listEntries(() => yauzl.openPromise(source, options), limits);
  let total = 0;
  return {
    names: [...entries.keys()],
    read: (name) => {
      const entry = entries.get(name);
      if (entry === undefined) return Promise.reject(new ArchiveError("corrupt", `no entry ${name}`));
      if (entry.uncompressedSize > limits.maxEntryBytes)
        return Promise.reject(
          bomb(`${name} inflates to ${entry.uncompressedSize} bytes, more than ${limits.maxEntryBytes}`),
        );
      if (total + entry.uncompressedSize > limits.maxTotalBytes)
        return Promise.reject(bomb(`the archive inflates to more than ${limits.maxTotalBytes} bytes`));
      return new Promise<Buffer>((resolve, reject) => {
        zip.openReadStream(entry, (error, stream) => {
          if (error !== null || stream === undefined) {
            reject(new ArchiveError("corrupt", `${name}: ${error?.message ?? "unreadable"}`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on("data", (chunk: Buffer) => {
            size += chunk.length;
            total += chunk.length;
            // a header can lie: the bytes actually inflated are what count
            if (size > limits.maxEntryBytes || total > limits.maxTotalBytes) {
              stream.destroy(bomb(`${name} inflates past the limit`));
              return;
            }
            chunks.push(chunk);
          });
          stream.on("error", (cause: Error) =>
            reject(
              cause instanceof ArchiveError
                ? cause
                : new ArchiveError("corrupt", `${name}: ${cause.message}`),
            ),
          );
          stream.on("end", () => resolve(Buffer.concat(chunks, size)));
        });
      });
    },
    close: () => zip.close(),
  };
};

/** A folder read as an archive (an unzipped datapack, `kubejs/`): the same limit per file. */
export const openFolder = (root: string, limits: ArchiveLimits): ArchiveReader => {
  const names: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) names.push(relative(root, path).split(sep).join("/"));
      if (names.length > limits.maxEntries) throw bomb(`more than ${limits.maxEntries} files`);
    }
  };
  walk(root);
  return {
    names,
    read: async (name) => {
      const path = join(root, ...name.split("/"));
      if (statSync(path).size > limits.maxEntryBytes)
        throw bomb(`${name} is larger than ${limits.maxEntryBytes}`);
      return readFileSync(path);
    },
    close: () => {},
  };
};
