import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
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

/** Opens a zip file (a path) or zip bytes (a jar nested in a jar) with limits on entries and inflated bytes. */
export const openZip = async (source: string | Buffer, limits: ArchiveLimits): Promise<ArchiveReader> => {
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false };
  let zip: ZipFile;
  try {
    zip =
      typeof source === "string"
        ? await yauzl.openPromise(source, options)
        : await yauzl.fromBufferPromise(source, options);
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
