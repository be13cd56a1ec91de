import { createRequire } from "node:module";
import type { IndexedData } from "minecraft-data";
import { type GameNameKind, GameNameTable } from "./game-names.js";
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

/** The numeric item id of a minecraft-data recipe entry (a number, `[id, metadata]` or `{ id }`). */
const recipeItemId = (entry: unknown): number | undefined => {
  const id = Array.isArray(entry)
    ? entry[0]
    : typeof entry === "object" && entry !== null
      ? (entry as { id?: unknown }).id
      : entry;
  return typeof id === "number" ? id : undefined;
};

/** How a name matches a query: 0 equal, 1 starts with, 2 contains; `extra` words (or CJK characters) beyond it. */
interface NameMatch {
  readonly rank: number;
  readonly extra: number;
  readonly length: number;
}

const matchName = (key: string, needle: string): NameMatch | undefined => {
  const rank = key === needle ? 0 : key.startsWith(needle) ? 1 : key.includes(needle) ? 2 : 3;
  if (rank === 3) return undefined;
  const extra = /[\u3400-\u9fff]/.test(key)
    ? key.length - needle.length
    : key.split(" ").length - needle.split(" ").length;
  return { rank, extra, length: key.length };
};

const compareMatches = (left: NameMatch, right: NameMatch): number =>
  left.rank - right.rank || left.extra - right.extra || left.length - right.length;

const normalize = (text: string): string => text.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * Item lookup by id (`minecraft:diamond`, `diamond`) or by exact English or Chinese name (`Diamond`, `钻石`),
 * with a prefix/substring search for suggestions. English names come from minecraft-data, Chinese from our table.
 */
export class ItemCatalog {
  readonly #byId = new Map<string, ItemInfo>();
  readonly #byNumericId = new Map<number, ItemInfo>();
  readonly #byName = new Map<string, ItemInfo>();
  /** How many different recipe results use each item: base materials (Iron Ingot, 铁锭) rank first in searches. */
  readonly #uses = new Map<string, number>();
  #names: GameNameTable | undefined;

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
    this.#countUses();
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

  /**
   * Items whose id or a name equals, starts with, then contains the query. Within each group names with fewer
   * words (characters in Chinese) beyond the query come first, then the base material used by the most recipes
   * (`iron` → Iron Ingot, `铁` → 铁锭, `金` → 金锭), then shorter names.
   */
  search(query: string, limit = 10): ItemInfo[] {
    const needle = normalize(query)
      .replace(/^minecraft:/, "")
      .replace(/_/g, " ");
    if (needle === "") return [];
    const ranked: { info: ItemInfo; match: NameMatch }[] = [];
    for (const info of this.#byId.values()) {
      const keys = [info.id.slice("minecraft:".length).replace(/_/g, " "), normalize(info.names.en_us)];
      if (info.names.zh_cn !== undefined) keys.push(info.names.zh_cn);
      let best: NameMatch | undefined;
      for (const key of keys) {
        const match = matchName(key, needle);
        if (match !== undefined && (best === undefined || compareMatches(match, best) < 0)) best = match;
      }
      if (best !== undefined) ranked.push({ info, match: best });
    }
    ranked.sort(
      (left, right) =>
        left.match.rank - right.match.rank ||
        left.match.extra - right.match.extra ||
        this.uses(right.info.id) - this.uses(left.info.id) ||
        left.match.length - right.match.length ||
        left.info.id.localeCompare(right.info.id),
    );
    return ranked.slice(0, limit).map((entry) => entry.info);
  }

  /** The name of an item, block or entity in a locale, for card lines such as mob drops (falls back to en_us). */
  nameOf(kind: GameNameKind, id: string, locale: string): string {
    this.#names ??= new GameNameTable(this.data);
    return this.#names.name(kind, id, locale);
  }

  /** The number of different items whose recipes use this item as an ingredient. */
  uses(id: string): number {
    return this.#uses.get(id) ?? 0;
  }

  all(): ItemInfo[] {
    return [...this.#byId.values()];
  }

  #countUses(): void {
    const users = new Map<number, Set<number>>();
    for (const [result, recipes] of Object.entries(this.data.recipes ?? {}))
      for (const recipe of recipes) {
        const shaped = "inShape" in recipe ? recipe.inShape.flat() : [];
        const shapeless = "ingredients" in recipe ? recipe.ingredients : [];
        for (const ingredient of [...shaped, ...shapeless]) {
          const id = recipeItemId(ingredient);
          if (id === undefined) continue;
          const set = users.get(id) ?? new Set<number>();
          set.add(Number(result));
          users.set(id, set);
        }
      }
    for (const [id, set] of users) {
      const info = this.#byNumericId.get(id);
      if (info !== undefined) this.#uses.set(info.id, set.size);
    }
  }

  #addName(name: string, info: ItemInfo): void {
    const key = normalize(name);
    if (!this.#byName.has(key)) this.#byName.set(key, info);
  }
}
