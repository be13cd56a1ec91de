import { CommandArguments } from "../../agent/command/command-arguments.js";
import type { ItemCatalog, ItemInfo } from "../data/item-catalog.js";

interface NameEntry {
  readonly name: string;
  readonly item: ItemInfo;
  /** English names must stand as whole words ("stone" is not in "redstone"); Chinese names have no spaces. */
  readonly pattern: RegExp | undefined;
}

const escapePattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Finds the item a sentence is about ("钻石怎么获得", "how do I get an iron ingot"): a written id first, else the
 * longest known en_us or zh_cn name in the text. Two different items with the longest name: nothing (no guess).
 * A text that is only the start of names (`iron`, `铁`) names the base item the catalog ranks first.
 */
export class ItemTextIndex {
  readonly #names: NameEntry[] = [];

  constructor(private readonly catalog: ItemCatalog) {
    for (const item of catalog.all()) {
      const english = item.names.en_us.toLowerCase();
      if (english.length >= 3)
        this.#names.push({
          name: english,
          item,
          pattern: new RegExp(`(?:^|[^a-z0-9])${escapePattern(english)}s?(?:$|[^a-z0-9])`),
        });
      const chinese = item.names.zh_cn;
      if (chinese !== undefined && chinese.length >= 1)
        this.#names.push({ name: chinese, item, pattern: undefined });
    }
    this.#names.sort((left, right) => right.name.length - left.name.length);
  }

  /** The one item the text names; undefined when it names none, or several equally well. */
  find(text: string): ItemInfo | undefined {
    const normalized = text.normalize("NFKC").toLowerCase();
    const ids = CommandArguments.identifiers(normalized);
    if (ids.length === 1) return this.catalog.lookup(ids[0]?.toString() ?? "");
    if (ids.length > 1) return undefined;
    let best: NameEntry | undefined;
    for (const entry of this.#names) {
      if (best !== undefined && entry.name.length < best.name.length) break;
      const hit =
        entry.pattern === undefined ? normalized.includes(entry.name) : entry.pattern.test(normalized);
      if (!hit) continue;
      if (best !== undefined && best.item.id !== entry.item.id) return undefined;
      best = entry;
    }
    return best?.item ?? this.#partial(normalized.trim());
  }

  /** The top search result for a bare partial name: whole English words, or Chinese characters starting a name. */
  #partial(text: string): ItemInfo | undefined {
    const chinese = /^[\u3400-\u9fff]{1,8}$/.test(text);
    if (!chinese && !/^[a-z][a-z ]{2,31}$/.test(text)) return undefined;
    const [first] = this.catalog.search(text, 1);
    if (first === undefined) return undefined;
    const names = [first.names.en_us.toLowerCase(), first.names.zh_cn ?? ""];
    return names.some((name) => name.startsWith(chinese ? text : `${text} `)) ? first : undefined;
  }
}
