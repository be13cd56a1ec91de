import { fileURLToPath } from "node:url";
import type { IndexedData } from "minecraft-data";
import { gameData } from "./item-catalog.js";
import { loadItemNames, ZH_CN_ITEM_NAMES_PATH } from "./zh-item-names.js";

/** What a name belongs to: items and blocks share ids and names, entities have their own (`tnt` is Primed TNT). */
export type GameNameKind = "item" | "block" | "entity";

/** The names of one item, block or entity; zh_cn is absent where our tables have no name yet. */
export interface GameNames {
  readonly en_us: string;
  readonly zh_cn?: string;
}

/** Our zh_cn entity name table, keyed by namespaced entity id. */
export const ZH_CN_ENTITY_NAMES_PATH = fileURLToPath(
  new URL("../../../resources/data/system/lang-items/zh_cn.entities.json", import.meta.url),
);

const namespaced = (id: string): string => (id.includes(":") ? id : `minecraft:${id}`);

/**
 * Player-facing names of items, blocks and entities in en_us (minecraft-data `displayName`) and zh_cn (our
 * tables). Cards call `name` with the reader's locale; it never answers a raw id unless the id is unknown.
 */
export class GameNameTable {
  constructor(
    readonly data: IndexedData,
    private readonly zhItems: ReadonlyMap<string, string> = loadItemNames(ZH_CN_ITEM_NAMES_PATH),
    private readonly zhEntities: ReadonlyMap<string, string> = loadItemNames(ZH_CN_ENTITY_NAMES_PATH),
  ) {}

  /** The table of a version with our bundled zh_cn names. */
  static forVersion(version = "1.21.4"): GameNameTable {
    return new GameNameTable(gameData(version));
  }

  /** Both names of an id (`minecraft:zombie` or `zombie`); undefined when the version has no such id. */
  names(kind: GameNameKind, id: string): GameNames | undefined {
    const key = namespaced(id);
    const path = key.slice(key.indexOf(":") + 1);
    const english =
      kind === "entity"
        ? this.data.entitiesByName[path]?.displayName
        : kind === "block"
          ? (this.data.blocksByName[path]?.displayName ?? this.data.itemsByName[path]?.displayName)
          : (this.data.itemsByName[path]?.displayName ?? this.data.blocksByName[path]?.displayName);
    if (english === undefined) return undefined;
    const chinese = (kind === "entity" ? this.zhEntities : this.zhItems).get(key);
    return chinese === undefined ? { en_us: english } : { en_us: english, zh_cn: chinese };
  }

  /** The name in a locale (`zh_cn`, `zh-CN`, `en_us`): Chinese falls back to English, an unknown id to its path. */
  name(kind: GameNameKind, id: string, locale: string): string {
    const names = this.names(kind, id);
    if (names === undefined) return namespaced(id).replace(/^minecraft:/, "");
    return locale.toLowerCase().startsWith("zh") ? (names.zh_cn ?? names.en_us) : names.en_us;
  }
}
