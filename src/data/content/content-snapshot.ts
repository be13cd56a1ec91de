import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { deserialize, serialize } from "node:v8";
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
 * from, the payload's length and SHA-1), then the payload (`v8.serialize` of `Payload`). A file of another
 * version or other sources is stale (silently rebuilt); one that fails any check is corrupt.
 *
 * Deserializing objects is what costs (V8 builds them a property at a time): the payload keeps few of them.
 * Items are columns of strings, made into objects at load; recipes, drops and tag items are JSON text per key,
 * parsed when first asked for.
 */
const MAGIC = Buffer.from("SYSCONT\n", "latin1");
/** Bump when `CatalogState` changes shape: a snapshot of another version is rebuilt, never misread. */
const SNAPSHOT_VERSION = 1;

interface Header {
  readonly version: number;
  readonly sources: string;
  readonly length: number;
  readonly sha1: string;
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

const sha1 = (bytes: Uint8Array): string => createHash("sha1").update(bytes).digest("hex");

/** Writes the snapshot atomically (a temporary file renamed over the old one). */
export const writeSnapshot = (path: string, sources: string, state: CatalogState): void => {
  const payload = serialize(encode(state));
  const header = Buffer.from(
    JSON.stringify({
      version: SNAPSHOT_VERSION,
      sources,
      length: payload.length,
      sha1: sha1(payload),
    } satisfies Header),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp`;
  const file = openSync(temporary, "w");
  try {
    for (const part of [MAGIC, size, header, payload]) writeSync(file, part);
  } finally {
    closeSync(file);
  }
  renameSync(temporary, path);
};

/** The snapshot's payload: the merged state with items as columns and the big tables as JSON per key. */
interface Payload {
  readonly itemIds: string[];
  /** locale → each item's name in it (null: none), in `itemIds` order. */
  readonly itemNames: Map<string, (string | null)[]>;
  readonly recipesByOutput: Map<string, string>;
  readonly dropsByItem: Map<string, string>;
  readonly tagItems: Map<string, string>;
  readonly lang: Map<string, Map<string, string>>;
  readonly rest: Pick<
    CatalogState,
    "mods" | "modNames" | "recipeTypes" | "counts" | "skippedRecipes" | "issues" | "sources"
  >;
}

const jsonEntries = (table: ReadonlyMap<string, unknown>): Map<string, string> => {
  const texts = new Map<string, string>();
  for (const [key, value] of table) texts.set(key, JSON.stringify(value));
  return texts;
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

const encode = (state: CatalogState): Payload => {
  const itemIds = [...state.items.keys()];
  const itemNames = new Map<string, (string | null)[]>();
  for (const locale of state.lang.keys())
    itemNames.set(
      locale,
      itemIds.map((id) => state.items.get(id)?.names[locale] ?? null),
    );
  const { mods, modNames, recipeTypes, counts, skippedRecipes, issues, sources } = state;
  return {
    itemIds,
    itemNames,
    recipesByOutput: jsonEntries(state.recipesByOutput),
    dropsByItem: jsonEntries(state.dropsByItem),
    tagItems: jsonEntries(state.tagItems),
    lang: state.lang,
    rest: { mods, modNames, recipeTypes, counts, skippedRecipes, issues, sources },
  };
};

const decode = (payload: Payload): CatalogTables => {
  const { rest, itemIds } = payload;
  const items = new Map<string, ContentItem>();
  const locales = [...payload.itemNames];
  for (let index = 0; index < itemIds.length; index++) {
    const id = itemIds[index]!;
    const names: Record<string, string> = {};
    for (const [locale, column] of locales) {
      const name = column[index];
      if (name !== null && name !== undefined) names[locale] = name;
    }
    const mod = id.slice(0, id.indexOf(":"));
    items.set(id, { id, mod, modName: modNameOf(rest.modNames, mod), names });
  }
  return {
    ...rest,
    items,
    lang: payload.lang,
    recipesByOutput: new JsonTable(payload.recipesByOutput),
    dropsByItem: new JsonTable(payload.dropsByItem),
    tagItems: new JsonTable(payload.tagItems),
  };
};

const isPayload = (value: unknown): value is Payload => {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  const rest = record.rest as Record<string, unknown> | undefined;
  return (
    Array.isArray(record.itemIds) &&
    ["itemNames", "recipesByOutput", "dropsByItem", "tagItems", "lang"].every(
      (key) => record[key] instanceof Map,
    ) &&
    typeof rest === "object" &&
    rest !== null &&
    ["modNames", "recipeTypes", "skippedRecipes"].every((key) => rest[key] instanceof Map) &&
    ["mods", "issues", "sources"].every((key) => Array.isArray(rest[key])) &&
    typeof rest.counts === "object"
  );
};

/** Why a snapshot file cannot be used, or its state. */
export type SnapshotRead =
  | { readonly tables: CatalogTables }
  | { readonly stale: true }
  | { readonly corrupt: string };

/**
 * Reads the snapshot built from `sources`: the catalog's tables; `stale` when there is none, or it is of another version
 * or other sources; `corrupt` (with the reason) when it is truncated, damaged or not a snapshot.
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
    if (size - headerEnd !== header.length) return { corrupt: "truncated" };
    const payload = readAt(file, header.length, headerEnd);
    if (payload.length < header.length) return { corrupt: "truncated" };
    if (sha1(payload) !== header.sha1) return { corrupt: "checksum mismatch" };
    const value: unknown = deserialize(payload);
    return isPayload(value) ? { tables: decode(value) } : { corrupt: "unexpected contents" };
  } catch (error) {
    return { corrupt: (error as Error).message };
  } finally {
    if (file !== undefined) closeSync(file);
  }
};
