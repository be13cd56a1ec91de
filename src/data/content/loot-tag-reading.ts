import type { LootDrop, TagFile } from "./content-model.js";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const namespaced = (id: string): string => (id.includes(":") ? id : `minecraft:${id}`);

/** `blocks/osmium_ore` in `mekanism` → a block drop of `mekanism:osmium_ore`; entities and chests likewise. */
const sourceOf = (tableId: string): Pick<LootDrop, "kind" | "source"> => {
  const [namespace, path = ""] = tableId.split(":", 2) as [string, string?];
  const slash = path.indexOf("/");
  const folder = slash < 0 ? "" : path.slice(0, slash);
  const rest = path.slice(slash + 1);
  if (folder === "blocks") return { kind: "block", source: `${namespace}:${rest}` };
  if (folder === "entities") return { kind: "entity", source: `${namespace}:${rest}` };
  if (folder === "chests") return { kind: "chest", source: tableId };
  return { kind: "other", source: tableId };
};

/** Whether an entry (or the pool around it) asks for Silk Touch, in any spelling (1.20 match_tool, 1.21 predicates). */
const asksSilkTouch = (value: unknown): boolean => JSON.stringify(value ?? null).includes("silk_touch");

/** The product of the `random_chance` conditions of a list (pool or entry); 1 without any. */
const chanceOf = (conditions: unknown): number => {
  if (!Array.isArray(conditions)) return 1;
  let chance = 1;
  for (const condition of conditions)
    if (
      isObject(condition) &&
      String(condition.condition).endsWith("random_chance") &&
      typeof condition.chance === "number"
    )
      chance *= condition.chance;
  return chance;
};

/**
 * The items a loot table can drop: every `minecraft:item` entry, recursing into `children` of alternatives,
 * groups and sequences; Silk Touch noted when the entry or its pool's conditions ask for it.
 */
export const readLootTable = (tableId: string, json: unknown): LootDrop[] => {
  if (!isObject(json) || !Array.isArray(json.pools)) return [];
  const where = sourceOf(tableId);
  const drops: LootDrop[] = [];
  const seen = new Set<string>();
  const visit = (entry: unknown, silk: boolean, poolChance: number): void => {
    if (!isObject(entry)) return;
    const inner = silk || asksSilkTouch(entry.conditions) || asksSilkTouch(entry.condition);
    const chance = poolChance * chanceOf(entry.conditions);
    if (Array.isArray(entry.children)) for (const child of entry.children) visit(child, inner, chance);
    const type = typeof entry.type === "string" ? namespaced(entry.type) : "";
    if (type === "minecraft:item" && typeof entry.name === "string") {
      const item = namespaced(entry.name);
      const key = `${item}|${inner}`;
      if (seen.has(key)) return;
      seen.add(key);
      drops.push({ item, ...where, silkTouch: inner, chance });
    }
  };
  for (const pool of json.pools)
    if (isObject(pool) && Array.isArray(pool.entries))
      for (const entry of pool.entries)
        visit(entry, asksSilkTouch(pool.conditions), chanceOf(pool.conditions));
  return drops;
};

/** A tag file: `values` of strings or `{id, required}`; undefined when it is not one. */
export const readTagFile = (json: unknown): TagFile | undefined => {
  if (!isObject(json) || !Array.isArray(json.values)) return undefined;
  const values: { id: string; required: boolean }[] = [];
  for (const value of json.values) {
    if (typeof value === "string") values.push({ id: value, required: true });
    else if (isObject(value) && typeof value.id === "string")
      values.push({ id: value.id, required: value.required !== false });
  }
  return { replace: json.replace === true, values };
};

/**
 * Resolves tags to their items, following `#` references; a missing optional entry is skipped, a cycle is cut
 * and reported once per tag (`onCycle`), never looped.
 */
export class TagResolver {
  readonly #resolved = new Map<string, readonly string[]>();

  constructor(
    private readonly tags: ReadonlyMap<string, TagFile>,
    private readonly onCycle: (tag: string) => void = () => {},
    /** Whether an optional entry's item exists (its mod is installed); a missing one is skipped. */
    private readonly exists: (id: string) => boolean = () => true,
  ) {}

  /** The item ids a tag stands for (`c:ingots/steel` or `#c:ingots/steel`), in file order, without duplicates. */
  items(tag: string): readonly string[] {
    return this.#items(tag.replace(/^#/, ""), new Set());
  }

  #items(tag: string, visiting: Set<string>): readonly string[] {
    const known = this.#resolved.get(tag);
    if (known !== undefined) return known;
    if (visiting.has(tag)) {
      this.onCycle(tag);
      return [];
    }
    const file = this.tags.get(tag);
    if (file === undefined) return [];
    visiting.add(tag);
    const items = new Set<string>();
    for (const value of file.values) {
      if (value.id.startsWith("#"))
        for (const item of this.#items(value.id.slice(1), visiting)) items.add(item);
      else if (value.required || this.exists(namespaced(value.id))) items.add(namespaced(value.id));
    }
    visiting.delete(tag);
    const result = [...items];
    this.#resolved.set(tag, result);
    return result;
  }
}
