import type { ItemCatalog, ItemInfo } from "./item-catalog.js";

/** One mod of the server with the items it adds (sorted by English name). */
export interface ModSummary {
  readonly id: string;
  readonly name: string;
  /** The version its metadata gives; "" for a namespace with items but no mod metadata (a KubeJS item). */
  readonly version: string;
  /** `forge`, `neoforge`, `fabric`, or "" when unknown. */
  readonly loader: string;
  readonly items: readonly ItemInfo[];
}

const normalize = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s_'’-]+/g, " ")
    .trim();

/**
 * The server's mods as players ask about them: every mod its content lists (library mods without items too) and
 * every other namespace that adds items (KubeJS's own), with their items. Rebuilt when the catalog's content
 * changes (`/system reload`); empty on a server whose content System has not read.
 */
export class ServerMods {
  #built: { readonly generation: number; readonly mods: readonly ModSummary[] } | undefined;

  constructor(private readonly catalog: ItemCatalog) {}

  /** Every mod, by name. */
  list(): readonly ModSummary[] {
    const generation = this.catalog.generation;
    if (this.#built?.generation !== generation) this.#built = { generation, mods: this.#build() };
    return this.#built.mods;
  }

  /** The mod a player names: its id, or its name, exactly, else the one mod whose id or name starts so. */
  find(query: string): ModSummary | undefined {
    const text = normalize(query);
    if (text === "") return undefined;
    const mods = this.list();
    const exact = mods.find((mod) => normalize(mod.id) === text || normalize(mod.name) === text);
    if (exact !== undefined) return exact;
    const starting = mods.filter(
      (mod) => normalize(mod.id).startsWith(text) || normalize(mod.name).startsWith(text),
    );
    return starting.length === 1 ? starting[0] : undefined;
  }

  /** Mods whose id or name contains the query (at most `limit`), for a "did you mean". */
  search(query: string, limit: number): readonly ModSummary[] {
    const text = normalize(query);
    if (text === "") return [];
    return this.list()
      .filter((mod) => normalize(mod.id).includes(text) || normalize(mod.name).includes(text))
      .slice(0, limit);
  }

  #build(): readonly ModSummary[] {
    const content = this.catalog.content;
    if (content === undefined) return [];
    const items = new Map<string, { name: string; items: ItemInfo[] }>();
    for (const info of this.catalog.all()) {
      if (info.mod === undefined) continue;
      const entry = items.get(info.mod.id) ?? { name: info.mod.name, items: [] };
      entry.items.push(info);
      items.set(info.mod.id, entry);
    }
    const mods: ModSummary[] = [];
    const listed = new Set<string>();
    for (const mod of content.mods()) {
      if (listed.has(mod.id)) continue;
      listed.add(mod.id);
      mods.push({ ...pick(mod), items: sorted(items.get(mod.id)?.items ?? []) });
    }
    for (const [id, entry] of items)
      if (!listed.has(id))
        mods.push({ id, name: entry.name, version: "", loader: "", items: sorted(entry.items) });
    return mods.sort(
      (left, right) => left.name.localeCompare(right.name, "en") || left.id.localeCompare(right.id),
    );
  }
}

const pick = (mod: { id: string; name: string; version: string; loader: string }) => ({
  id: mod.id,
  name: mod.name,
  version: mod.version,
  loader: mod.loader,
});

const sorted = (items: readonly ItemInfo[]): ItemInfo[] =>
  [...items].sort((left, right) => left.names.en_us.localeCompare(right.names.en_us, "en"));
