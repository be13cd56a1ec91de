import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { gunzip } from "node:zlib";
import nbt from "prismarine-nbt";
import type { Logger } from "../../../util/logger.js";
import { ITEM_REGISTRY, type ItemIds } from "./loader-syncs.js";
import { namespaced } from "./wire-reader.js";

/** Largest saved file read (gzip), and the most it may inflate to. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_INFLATED_BYTES = 128 * 1024 * 1024;

/** The server's saved item numbering and the file it came from. */
export interface SavedItemIds {
  readonly ids: ItemIds;
  readonly file: string;
}

const inflate = (bytes: Buffer): Promise<Buffer> =>
  bytes[0] === 0x1f && bytes[1] === 0x8b
    ? new Promise((resolve, reject) =>
        gunzip(bytes, { maxOutputLength: MAX_INFLATED_BYTES }, (error, out) =>
          error === null ? resolve(out) : reject(error),
        ),
      )
    : Promise.resolve(bytes);

/** The simplified root compound of a gzip NBT file; undefined when there is none. */
const readNbt = async (file: string): Promise<Record<string, unknown> | undefined> => {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || !info.isFile()) return undefined;
  if (info.size > MAX_FILE_BYTES) throw new Error(`it is over ${MAX_FILE_BYTES} bytes`);
  const parsed = await nbt.parse(await inflate(await readFile(file)), "big");
  return nbt.simplify(parsed.parsed) as Record<string, unknown>;
};

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

const put = (ids: Map<number, string>, id: unknown, name: unknown): void => {
  if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || typeof name !== "string")
    throw new Error("an entry is not an id and a number");
  if (ids.has(id)) throw new Error(`item number ${id} is given twice`);
  ids.set(id, namespaced(name));
};

/** Forge 1.20.1's `level.dat` → `fml` → `Registries` → `minecraft:item` → `ids: [{K, V}]`. */
const forgeIds = (root: Record<string, unknown>): ItemIds | undefined => {
  const fml = record(root.fml) ?? record(record(root.Data)?.fml);
  const item = record(record(fml?.Registries)?.[ITEM_REGISTRY]);
  if (item === undefined) return undefined;
  if (!Array.isArray(item.ids)) throw new Error("its item registry has no ids list");
  const ids = new Map<number, string>();
  for (const entry of item.ids) put(ids, record(entry)?.V, record(entry)?.K);
  return ids;
};

/** Fabric 1.20.1's `data/fabricRegistry.dat` → `registries` → `minecraft:item` → `{id: number}`. */
const fabricIds = (root: Record<string, unknown>): ItemIds | undefined => {
  const item = record(record(root.registries)?.[ITEM_REGISTRY]);
  if (item === undefined) return undefined;
  const ids = new Map<number, string>();
  for (const [name, id] of Object.entries(item)) put(ids, id, name);
  return ids;
};

/** The world folder's name from server.properties (`level-name`), `world` when unset. */
const worldName = async (serverDir: string): Promise<string> => {
  const properties = await readFile(join(serverDir, "server.properties"), "utf8").catch(() => "");
  const line = /^level-name=(.*)$/mu.exec(properties)?.[1]?.trim();
  return line === undefined || line === "" ? "world" : line;
};

/**
 * The item numbering the server saved with its world, used for a connection whose loader sync the gateway did not
 * see: Forge's `level.dat` (`fml.Registries`), else Fabric's `data/fabricRegistry.dat`. Undefined when the world
 * has neither (a vanilla server, or NeoForge and Fabric 1.21, which keep no copy); a file that cannot be read is
 * one warning line and no numbering from it.
 */
export const readSavedItemIds = async (
  serverDir: string,
  logger: Logger,
): Promise<SavedItemIds | undefined> => {
  const world = join(serverDir, await worldName(serverDir));
  for (const [file, idsOf] of [
    [join(world, "level.dat"), forgeIds],
    [join(world, "data", "fabricRegistry.dat"), fabricIds],
  ] as const) {
    try {
      const root = await readNbt(file);
      const ids = root === undefined ? undefined : idsOf(root);
      if (ids !== undefined) return { ids, file };
    } catch (error) {
      logger.warn(
        `the item numbers saved in ${file} could not be read (${error instanceof Error ? error.message : String(error)}): not used`,
      );
    }
  }
  return undefined;
};
