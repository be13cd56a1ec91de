import { createRequire } from "node:module";
import type { IndexedData } from "minecraft-data";
import { loadItemNames } from "./zh-item-names.js";

/** One vanilla item: namespaced id, its names and how many fit in a stack. */
export interface ItemInfo {
  readonly id: string;
  readonly numericId: number;
  readonly names: { readonly en_us: string; readonly zh_cn?: string };
  readonly stackSize: number;
}

/** The minecraft-data tables of one game version (loaded once per version). */
export const gameData = (version: string): IndexedData =>
  (createRequire(import.meta.url)("minecraft-data") as (version: string) => IndexedData)(version);

const normalize = (text: string): string => text.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * Item lookup by id (`minecraft:diamond`, `diamond`) or by exact English or Chinese name (`Diamond`, `钻石`),
 * with a prefix/substring search for suggestions. English names come from minecraft-data, Chinese from our table.
 */
export class ItemCatalog {
  readonly #byId = new Map<string, ItemInfo>();
  readonly #byNumericId = new Map<number, ItemInfo>();
  readonly #byName = new Map<string, ItemInfo>();

  constructor(
    readonly data: IndexedData,
    zhNames: ReadonlyMap<string, string> = loadItemNames(),
  ) {
    for (const item of data.itemsArray) {
      const id = `minecraft:${item.name}`;
      const zh = zhNames.get(id);
      const info: ItemInfo = {
        id,
        numericId: item.id,
        names: zh === undefined ? { en_us: item.displayName } : { en_us: item.displayName, zh_cn: zh },
        stackSize: item.stackSize,
      };
      this.#byId.set(id, info);
      this.#byNumericId.set(item.id, info);
    }
    // ids win over names, English over Chinese, first item over later ones with the same name
    for (const info of this.#byId.values()) this.#addName(info.names.en_us, info);
    for (const info of this.#byId.values())
      if (info.names.zh_cn !== undefined) this.#addName(info.names.zh_cn, info);
  }

  /** The catalog of a version with our bundled zh_cn names. */
  static forVersion(version = "1.21.4"): ItemCatalog {
    return new ItemCatalog(gameData(version));
  }

  /** Resolves an id or an exact name; undefined when nothing matches exactly. */
  lookup(query: string): ItemInfo | undefined {
    const text = normalize(query);
    if (text === "") return undefined;
    const id = text.includes(":") ? text : `minecraft:${text.replace(/ /g, "_")}`;
    return this.#byId.get(id) ?? this.#byName.get(text);
  }

  byNumericId(id: number): ItemInfo | undefined {
    return this.#byNumericId.get(id);
  }

  /** Items whose id or a name equals, starts with, then contains the query (shorter names first). */
  search(query: string, limit = 10): ItemInfo[] {
    const needle = normalize(query)
      .replace(/^minecraft:/, "")
      .replace(/_/g, " ");
    if (needle === "") return [];
    const ranked: { info: ItemInfo; rank: number; length: number }[] = [];
    for (const info of this.#byId.values()) {
      const keys = [info.id.slice("minecraft:".length).replace(/_/g, " "), normalize(info.names.en_us)];
      if (info.names.zh_cn !== undefined) keys.push(info.names.zh_cn);
      let best: { rank: number; length: number } | undefined;
      for (const key of keys) {
        const rank = key === needle ? 0 : key.startsWith(needle) ? 1 : key.includes(needle) ? 2 : 3;
        if (
          rank < 3 &&
          (best === undefined || rank < best.rank || (rank === best.rank && key.length < best.length))
        ) {
          best = { rank, length: key.length };
        }
      }
      if (best !== undefined) ranked.push({ info, ...best });
    }
    ranked.sort(
      (left, right) =>
        left.rank - right.rank || left.length - right.length || left.info.id.localeCompare(right.info.id),
    );
    return ranked.slice(0, limit).map((entry) => entry.info);
  }

  all(): ItemInfo[] {
    return [...this.#byId.values()];
  }

  #addName(name: string, info: ItemInfo): void {
    const key = normalize(name);
    if (!this.#byName.has(key)) this.#byName.set(key, info);
  }
}
