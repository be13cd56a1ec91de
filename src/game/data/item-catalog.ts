import { createRequire } from "node:module";
import type { IndexedData } from "minecraft-data";
import { type GameNameKind, GameNameTable } from "./game-names.js";
import type { ServerContent } from "./server-content.js";
import { loadItemNames } from "./zh-item-names.js";

/** One item: namespaced id, its names and how many fit in a stack; a modded one names its mod. */
export interface ItemInfo {
  readonly id: string;
  /** minecraft-data's number of a vanilla item; -1 for a modded one (its number is the loader's, per server). */
  readonly numericId: number;
  readonly names: { readonly en_us: string; readonly zh_cn?: string };
  readonly stackSize: number;
  /** The mod a modded item comes from (`create`, `Create`); absent for vanilla items. */
  readonly mod?: { readonly id: string; readonly name: string };
}

/** `andesite_alloy` → `Andesite Alloy`: the name of an item its pack names in no locale. */
const fromPath = (id: string): string =>
  id
    .slice(id.indexOf(":") + 1)
    .split(/[/_]/)
    .filter((word) => word !== "")
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(" ");

/** The modded item of a content entry: en_us falls back to the id's words, zh_cn is left out when absent. */
const moddedInfo = (item: {
  id: string;
  mod: string;
  modName: string;
  names: Readonly<Record<string, string>>;
}): ItemInfo => {
  const en = item.names.en_us ?? fromPath(item.id);
  const zh = item.names.zh_cn;
  return {
    id: item.id,
    numericId: -1,
    names: zh === undefined ? { en_us: en } : { en_us: en, zh_cn: zh },
    stackSize: 64,
    mod: { id: item.mod, name: item.modName },
  };
};

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
 * Item lookup by id (`minecraft:diamond`, `diamond`, `create:andesite_alloy`) or by exact English or Chinese
 * name (`Diamond`, `钻石`, `安山合金`), with a prefix/substring search for suggestions. Vanilla names come from
 * minecraft-data and our zh_cn table; the server's own content (`useContent`) adds its modded items on top.
 */
export class ItemCatalog {
  readonly #vanilla = new Map<string, ItemInfo>();
  #byId = new Map<string, ItemInfo>();
  readonly #byNumericId = new Map<number, ItemInfo>();
  #byName = new Map<string, ItemInfo>();
  /** Modded ids by path (`andesite_alloy`) when only one mod has that path. */
  #byPath = new Map<string, ItemInfo | null>();
  #content: ServerContent | undefined;
  /** Bumped each time the content changes: indexes built from `all()` rebuild when it moves. */
  #generation = 0;
  /** How many different recipe results use each item: base materials (Iron Ingot, 铁锭) rank first in searches. */
  readonly #uses = new Map<string, number>();
  #names: GameNameTable | undefined;
  /** Each item with the keys `search` matches (id path in words, English and Chinese names), normalized once. */
  #searchKeys: { readonly info: ItemInfo; readonly keys: readonly string[] }[] | undefined;

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
      this.#vanilla.set(id, info);
      this.#byNumericId.set(item.id, info);
    }
    this.#countUses();
    this.#index(undefined);
  }

  /**
   * Puts the server's content (modded items) beside the vanilla items, replacing the previous content: at start
   * and on reload, between requests. Vanilla ids and names keep precedence over modded ones.
   */
  useContent(content: ServerContent | undefined): void {
    this.#index(content);
    this.#generation++;
  }

  /** The server's content in use, if any. */
  get content(): ServerContent | undefined {
    return this.#content;
  }

  /** Moves whenever `useContent` replaces the content. */
  get generation(): number {
    return this.#generation;
  }

  #index(content: ServerContent | undefined): void {
    const byId = new Map(this.#vanilla);
    const byPath = new Map<string, ItemInfo | null>();
    if (content !== undefined)
      for (const item of content.items()) {
        if (byId.has(item.id)) continue;
        const info = moddedInfo(item);
        byId.set(item.id, info);
        const path = item.id.slice(item.id.indexOf(":") + 1);
        byPath.set(path, byPath.has(path) ? null : info);
      }
    const byName = new Map<string, ItemInfo>();
    const add = (name: string, info: ItemInfo): void => {
      const key = normalize(name);
      if (!byName.has(key)) byName.set(key, info);
    };
    // ids win over names, English over Chinese, vanilla over modded, first item over later ones with the name
    for (const info of byId.values()) add(info.names.en_us, info);
    for (const info of byId.values()) if (info.names.zh_cn !== undefined) add(info.names.zh_cn, info);
    this.#byId = byId;
    this.#byName = byName;
    this.#byPath = byPath;
    this.#content = content;
    this.#searchKeys = undefined;
  }

  /** The catalog of a version with our bundled zh_cn names. */
  static forVersion(version = "1.21.4"): ItemCatalog {
    return new ItemCatalog(gameData(version));
  }

  /** Resolves an id or an exact name; undefined when nothing matches exactly. */
  lookup(query: string): ItemInfo | undefined {
    // an id as the catalog writes it (what tools and cards pass) is found without normalising it
    const exact = this.#byId.get(query);
    if (exact !== undefined) return exact;
    const text = normalize(query);
    if (text === "") return undefined;
    const id = text.includes(":") ? text : `minecraft:${text.replace(/ /g, "_")}`;
    return (
      this.#byId.get(id) ??
      this.#byName.get(text) ??
      (text.includes(":") ? undefined : (this.#byPath.get(text.replace(/ /g, "_")) ?? undefined))
    );
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
      .replace(/^[a-z0-9_.-]+:/, "")
      .replace(/_/g, " ");
    if (needle === "") return [];
    const ranked: { info: ItemInfo; match: NameMatch }[] = [];
    this.#searchKeys ??= [...this.#byId.values()].map((info) => {
      const keys = [info.id.slice(info.id.indexOf(":") + 1).replace(/_/g, " "), normalize(info.names.en_us)];
      if (info.names.zh_cn !== undefined) keys.push(info.names.zh_cn);
      return { info, keys };
    });
    for (const { info, keys } of this.#searchKeys) {
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
    if (!id.startsWith("minecraft:") && id.includes(":") && this.#content !== undefined) {
      const chinese = locale.toLowerCase().startsWith("zh");
      const named =
        kind === "entity"
          ? undefined
          : ((chinese ? this.#content.name(id, "zh_cn") : undefined) ?? this.#content.name(id, "en_us"));
      return named ?? fromPath(id);
    }
    this.#names ??= new GameNameTable(this.data);
    return this.#names.name(kind, id, locale);
  }

  /** How many different items vanilla's recipes make from this item, plus how many of the content's recipes take it. */
  uses(id: string): number {
    return (this.#uses.get(id) ?? 0) + (this.#content?.uses(id) ?? 0);
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
}
