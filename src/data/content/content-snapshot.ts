import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { deserialize, serialize } from "node:v8";
import { writeFileAtomic } from "../../util/atomic-file.js";
import {
  type CatalogState,
  type CatalogTables,
  type ContentItem,
  modNameOf,
  type Table,
} from "./content-merge.js";

/**
 * The merged catalog kept whole between starts, beside the per-file cache: when no source changed (same files,
 * same sizes and times) a start deserializes it instead of parsing every layer and merging them again.
 *
 * The file: `SYSCONT\n`, a 4-byte length, a JSON header (format version, the key of the sources it was built
 * from), frames (a 4-byte length, then `v8.serialize` of one part), and the SHA-1 of the frames. A file of another
 * version or other sources is stale (silently rebuilt, only its header read); one that fails any check is
 * corrupt.
 *
 * Deserializing objects is what costs (V8 builds them a property at a time), so the frames hold few of them: the
 * first one the items as columns of strings (made into objects at load), the lang tables and the small parts;
 * the others the big tables (recipes, drops, tag items) as JSON text per key, a few thousand keys a frame (the
 * writer never holds them all as text at once), parsed when a key is first asked for.
 */
const MAGIC = Buffer.from("SYSCONT\n", "latin1");
/**
 * Bump when `CatalogState`, the frames or the merge's rules change: a snapshot of another version is rebuilt,
 * never misread. (A new per-file cache version makes every snapshot stale by itself: it is part of the key.)
 */
const SNAPSHOT_VERSION = 3;
/** Keys of a big table per frame. */
const KEYS_PER_FRAME = 4096;
const DIGEST_BYTES = 20;

interface Header {
  readonly version: number;
  readonly sources: string;
}

/** Where the snapshot of a per-file cache lives: `content-cache.json` → `content-cache.snapshot`. */
export const snapshotPath = (cacheFile: string): string => `${cacheFile.replace(/\.json$/, "")}.snapshot`;

/** The key of a set of sources: each one's path (relative to the server folder) and fingerprint, in order. */
export const sourcesKey = (sources: readonly (readonly [path: string, fingerprint: string])[]): string =>
  createHash("sha1").update(JSON.stringify(sources)).digest("hex");

/** Reads `length` bytes at `position` (fewer only at the end of the file). */
const readAt = (file: number, length: number, position: number): Buffer => {
  const bytes = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const read = readSync(file, bytes, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return bytes.subarray(0, done);
};

/** The first frame: items as columns, the lang tables, the small parts of the state. */
interface Head {
  readonly itemIds: string[];
  /** locale → each item's name in it (null: none), in `itemIds` order. */
  readonly itemNames: Map<string, (string | null)[]>;
  readonly lang: Map<string, Map<string, string>>;
  readonly rest: Pick<
    CatalogState,
    "mods" | "modNames" | "recipeTypes" | "inputUses" | "counts" | "skippedRecipes" | "issues" | "sources"
  >;
}

const TABLES = ["recipesByOutput", "dropsByItem", "tagItems", "usedBy"] as const;
type TableName = (typeof TABLES)[number];

/** A frame of a big table: keys and their values as JSON text, side by side. */
interface TableFrame {
  readonly table: TableName;
  readonly keys: string[];
  readonly texts: string[];
}

const head = (state: CatalogState): Head => {
  const itemIds = [...state.items.keys()];
  const itemNames = new Map<string, (string | null)[]>();
  for (const locale of state.lang.keys())
    itemNames.set(
      locale,
      itemIds.map((id) => state.items.get(id)?.names[locale] ?? null),
    );
  const { mods, modNames, recipeTypes, inputUses, counts, skippedRecipes, issues, sources } = state;
  return {
    itemIds,
    itemNames,
    lang: state.lang,
    rest: { mods, modNames, recipeTypes, inputUses, counts, skippedRecipes, issues, sources },
  };
};

function* frames(state: CatalogState): Generator<unknown> {
  yield head(state);
  for (const table of TABLES) {
    let frame: TableFrame = { table, keys: [], texts: [] };
    for (const [key, value] of state[table]) {
      frame.keys.push(key);
      frame.texts.push(JSON.stringify(value));
      if (frame.keys.length === KEYS_PER_FRAME) {
        yield frame;
        frame = { table, keys: [], texts: [] };
      }
    }
    if (frame.keys.length > 0) yield frame;
  }
}

const uint32 = (value: number): Buffer => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};

function* snapshotChunks(sources: string, state: CatalogState): Generator<Uint8Array> {
  const header = Buffer.from(JSON.stringify({ version: SNAPSHOT_VERSION, sources } satisfies Header));
  yield MAGIC;
  yield uint32(header.length);
  yield header;
  const digest = createHash("sha1");
  for (const frame of frames(state)) {
    const bytes = serialize(frame);
    const length = uint32(bytes.length);
    digest.update(length).update(bytes);
    yield length;
    yield bytes;
  }
  yield digest.digest();
}

/** Writes the snapshot atomically (a temporary file renamed over the old one), a frame at a time. */
export const writeSnapshot = async (path: string, sources: string, state: CatalogState): Promise<void> => {
  mkdirSync(dirname(path), { recursive: true });
  await writeFileAtomic(path, snapshotChunks(sources, state));
};

/** A table of JSON texts, each parsed the first time its key is asked for. */
class JsonTable<T> implements Table<T> {
  readonly #parsed = new Map<string, T>();
  constructor(private readonly texts: ReadonlyMap<string, string>) {}

  get(key: string): T | undefined {
    const known = this.#parsed.get(key);
    if (known !== undefined) return known;
    const text = this.texts.get(key);
    if (text === undefined) return undefined;
    const value = JSON.parse(text) as T;
    this.#parsed.set(key, value);
    return value;
  }
}

const isHead = (value: unknown): value is Head => {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  const rest = record.rest as Record<string, unknown> | undefined;
  return (
    Array.isArray(record.itemIds) &&
    record.itemNames instanceof Map &&
    record.lang instanceof Map &&
    typeof rest === "object" &&
    rest !== null &&
    ["modNames", "recipeTypes", "inputUses", "skippedRecipes"].every((key) => rest[key] instanceof Map) &&
    ["mods", "issues", "sources"].every((key) => Array.isArray(rest[key])) &&
    typeof rest.counts === "object"
  );
};

const isTableFrame = (value: unknown): value is TableFrame => {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    TABLES.includes(record.table as TableName) &&
    Array.isArray(record.keys) &&
    Array.isArray(record.texts) &&
    record.keys.length === record.texts.length
  );
};

/** The catalog's tables from the frames of a snapshot; undefined when they are not a snapshot's. */
const decode = (bytes: Buffer): CatalogTables | undefined => {
  const values: unknown[] = [];
  for (let at = 0; at < bytes.length; ) {
    if (at + 4 > bytes.length) return undefined;
    const end = at + 4 + bytes.readUInt32BE(at);
    if (end > bytes.length) return undefined;
    values.push(deserialize(bytes.subarray(at + 4, end)));
    at = end;
  }
  const [first, ...rest] = values;
  if (!isHead(first)) return undefined;
  const texts = new Map<TableName, Map<string, string>>(TABLES.map((table) => [table, new Map()]));
  for (const frame of rest) {
    if (!isTableFrame(frame)) return undefined;
    const table = texts.get(frame.table)!;
    for (let index = 0; index < frame.keys.length; index++)
      table.set(frame.keys[index]!, frame.texts[index]!);
  }
  const { itemIds, rest: parts } = first;
  const items = new Map<string, ContentItem>();
  const locales = [...first.itemNames];
  for (let index = 0; index < itemIds.length; index++) {
    const id = itemIds[index]!;
    const names: Record<string, string> = {};
    for (const [locale, column] of locales) {
      const name = column[index];
      if (name !== null && name !== undefined) names[locale] = name;
    }
    const mod = id.slice(0, id.indexOf(":"));
    items.set(id, { id, mod, modName: modNameOf(parts.modNames, mod), names });
  }
  return {
    ...parts,
    items,
    lang: first.lang,
    recipesByOutput: new JsonTable(texts.get("recipesByOutput")!),
    dropsByItem: new JsonTable(texts.get("dropsByItem")!),
    tagItems: new JsonTable(texts.get("tagItems")!),
    usedBy: new JsonTable(texts.get("usedBy")!),
  };
};

/** What reading a snapshot gave: the catalog's tables, or why they cannot be used. */
export type SnapshotRead =
  | { readonly tables: CatalogTables }
  | { readonly stale: true }
  | { readonly corrupt: string };

/**
 * Reads the snapshot built from `sources`: the catalog's tables; `stale` when there is none, or it is of another
 * version or other sources; `corrupt` (with the reason) when it is truncated, damaged or not a snapshot.
 */
export const readSnapshot = (path: string, sources: string): SnapshotRead => {
  if (!existsSync(path)) return { stale: true };
  let file: number | undefined;
  try {
    file = openSync(path, "r");
    const size = fstatSync(file).size;
    const start = readAt(file, MAGIC.length + 4, 0);
    if (start.length < MAGIC.length + 4 || !start.subarray(0, MAGIC.length).equals(MAGIC))
      return { corrupt: "not a content snapshot" };
    const headerEnd = start.length + start.readUInt32BE(MAGIC.length);
    if (headerEnd > size) return { corrupt: "truncated" };
    let header: Header;
    try {
      header = JSON.parse(readAt(file, headerEnd - start.length, start.length).toString("utf8")) as Header;
    } catch {
      return { corrupt: "damaged header" };
    }
    // another format or other files: rebuilt without reading the rest
    if (header.version !== SNAPSHOT_VERSION || header.sources !== sources) return { stale: true };
    if (size - headerEnd < DIGEST_BYTES) return { corrupt: "truncated" };
    const body = readAt(file, size - headerEnd, headerEnd);
    if (body.length < size - headerEnd) return { corrupt: "truncated" };
    const payload = body.subarray(0, body.length - DIGEST_BYTES);
    const digest = createHash("sha1").update(payload).digest();
    if (!digest.equals(body.subarray(payload.length))) return { corrupt: "checksum mismatch" };
    const tables = decode(payload);
    return tables === undefined ? { corrupt: "unexpected contents" } : { tables };
  } catch (error) {
    return { corrupt: (error as Error).message };
  } finally {
    if (file !== undefined) closeSync(file);
  }
};
