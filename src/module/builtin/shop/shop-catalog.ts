import { createHash } from "node:crypto";
import { z } from "zod";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import { codec } from "../../../util/codec.js";
import { ConfigInstance } from "../../../util/config-instance.js";
import type { Logger } from "../../../util/logger.js";

const ENTRY_ID = z.string().regex(/^[a-z0-9_.-]{1,32}$/, "entry ids are lower case, digits, _ . -");

const entryFields = z.object({
  item: z.string().regex(/^[a-z0-9_.-]+:[a-z0-9_./-]+$/, "namespaced item id"),
  count: z.number().int().min(1).max(6400),
  price: z.number().int().min(0).max(1_000_000),
  /** Items of this entry one player may buy per local day. */
  daily_limit: z.number().int().min(1).max(100_000).optional(),
  /** Items of this entry the whole server may still sell (absent: unlimited). */
  stock: z.number().int().min(0).max(10_000_000).optional(),
});

/** One thing the shop sells: `count` of `item` for `price` points (a pack of `count`). */
export type ShopEntry = z.infer<typeof entryFields> & { readonly id: string };

/** The `server` part of a `system:shop` data-pack entry: its catalog. */
export const SHOP_CONFIG = codec(
  z
    .object({
      entries: z
        .array(entryFields.extend({ id: ENTRY_ID }))
        .max(200)
        .default([]),
    })
    .strict(),
);
export type ShopConfig = z.infer<typeof SHOP_CONFIG.schema>;

const adminSchema = z
  .object({
    /** Entries the admin added or changed (they win over the data pack's). */
    entries: z.record(ENTRY_ID, entryFields).default({}),
    /** Data-pack entries the admin removed. */
    removed: z.array(ENTRY_ID).default([]),
  })
  .strict();
export type ShopAdminFile = z.infer<typeof adminSchema>;

/**
 * The catalog: the data pack's entries merged with `config/system/shop.json`, the admin's changes (a ConfigInstance
 * that is refused when invalid: the admin's file is never replaced by defaults). `version` changes whenever the
 * merged catalog does, so a quote made before a change cannot be paid after it.
 */
export class ShopCatalog {
  readonly #file: ConfigInstance<ShopAdminFile>;
  #entries: readonly ShopEntry[] = [];
  #version = "";

  constructor(
    private readonly options: {
      readonly pack: readonly ShopEntry[];
      /** `config/system/shop.json`; undefined keeps admin changes in memory. */
      readonly path: string | undefined;
      readonly logger: Logger;
      readonly items: ItemCatalog | undefined;
    },
  ) {
    this.#file = new ConfigInstance({
      path: options.path,
      codec: codec(adminSchema as unknown as z.ZodType<ShopAdminFile>),
      defaults: { entries: {}, removed: [] },
      logger: options.logger,
      name: "shop",
      onInvalid: "refuse",
    });
    this.#file.onChange(() => this.#merge());
    this.#merge();
  }

  /** Reads shop.json; an invalid file is logged and the data pack's entries stay (admin changes are refused). */
  async load(): Promise<void> {
    try {
      await this.#file.reload();
    } catch (error) {
      this.options.logger.error(`shop: ${(error as Error).message}`);
    }
    this.#merge();
  }

  get version(): string {
    return this.#version;
  }

  entries(): readonly ShopEntry[] {
    return this.#entries;
  }

  entry(id: string): ShopEntry | undefined {
    return this.#entries.find((entry) => entry.id === id);
  }

  /**
   * The entry a player means: its id, its item id (`minecraft:bread` or `bread`), or its item's name in English or
   * Chinese ("bread", "面包"), case-insensitive; a plural "s" is tolerated. Undefined when none or several match.
   */
  find(text: string): ShopEntry | undefined {
    const wanted = text.trim().toLowerCase();
    if (wanted === "") return undefined;
    const exact =
      this.entry(wanted) ??
      this.#entries.find((entry) => entry.item === wanted || entry.item === `minecraft:${wanted}`);
    if (exact !== undefined) return exact;
    const singular = wanted.endsWith("s") ? wanted.slice(0, -1) : wanted;
    const named = this.#entries.filter((entry) => {
      const names = this.options.items?.lookup(entry.item)?.names;
      const candidates = [
        names?.en_us,
        names?.zh_cn,
        entry.item.replace(/^minecraft:/, "").replaceAll("_", " "),
      ]
        .filter((name): name is string => name !== undefined)
        .map((name) => name.toLowerCase());
      return candidates.some((name) => name === wanted || name === singular || `${name}es` === wanted);
    });
    return named.length === 1 ? named[0] : undefined;
  }

  /** Adds or replaces an entry in shop.json (rejects while the file is invalid). */
  async put(entry: ShopEntry): Promise<void> {
    const { id, ...fields } = entry;
    await this.#file.modify((file) => ({
      entries: { ...file.entries, [id]: fields },
      removed: file.removed.filter((removed) => removed !== id),
    }));
  }

  /** Removes an entry (the admin's, and hides the data pack's); false when there is none. */
  async remove(id: string): Promise<boolean> {
    if (this.entry(id) === undefined) return false;
    const packed = this.options.pack.some((entry) => entry.id === id);
    await this.#file.modify((file) => {
      const entries = { ...file.entries };
      delete entries[id];
      return { entries, removed: packed ? [...new Set([...file.removed, id])] : file.removed };
    });
    return true;
  }

  #merge(): void {
    const file = this.#file.get();
    const merged = new Map<string, ShopEntry>();
    for (const entry of this.options.pack) if (!file.removed.includes(entry.id)) merged.set(entry.id, entry);
    for (const [id, fields] of Object.entries(file.entries)) merged.set(id, { id, ...fields });
    this.#entries = [...merged.values()].sort((left, right) => left.id.localeCompare(right.id));
    this.#version = createHash("sha256").update(JSON.stringify(this.#entries)).digest("hex").slice(0, 16);
  }
}
