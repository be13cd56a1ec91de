import type { ItemCatalog, ItemInfo } from "../data/item-catalog.js";
import { ItemMentions } from "../data/item-mentions.js";

/**
 * Finds the item a sentence is about ("钻石怎么获得", "how do I get iron ingots", "minecraft:ender_pearl 在哪"):
 * its longest item mention (ids, en_us names and id paths with plurals, zh_cn names). A text that is only the
 * start of names (`iron`, `铁`) names the base item the catalog ranks first.
 */
export class ItemTextIndex {
  readonly #mentions: ItemMentions;

  /** Every start of a name a bare partial may be (`铁`, `铁锭`…, `iron`, `iron ingot`…): others skip the search. */
  readonly #starts = new Set<string>();
  #generation = -1;

  constructor(private readonly catalog: ItemCatalog) {
    this.#mentions = new ItemMentions(catalog);
    this.#build();
  }

  /** (Re)builds the name starts for the catalog's current content. */
  #build(): void {
    if (this.#generation === this.catalog.generation) return;
    this.#generation = this.catalog.generation;
    this.#starts.clear();
    for (const item of this.catalog.all()) {
      const words = item.names.en_us.toLowerCase().split(" ");
      for (let size = 1; size < words.length; size++) this.#starts.add(words.slice(0, size).join(" "));
      const chinese = item.names.zh_cn ?? "";
      for (let size = 1; size <= chinese.length; size++) this.#starts.add(chinese.slice(0, size));
    }
  }

  /** The one item the text names; undefined when it names none, or several equally well. */
  find(text: string): ItemInfo | undefined {
    this.#build();
    return this.#mentions.find(text) ?? this.#partial(text.normalize("NFKC").toLowerCase().trim());
  }

  /** The top search result for a bare partial name: whole English words, or Chinese characters starting a name. */
  #partial(text: string): ItemInfo | undefined {
    const chinese = /^[\u3400-\u9fff]{1,8}$/.test(text);
    if (!chinese && !/^[a-z][a-z ]{2,31}$/.test(text)) return undefined;
    if (!this.#starts.has(text)) return undefined;
    const [first] = this.catalog.search(text, 1);
    if (first === undefined) return undefined;
    const names = [first.names.en_us.toLowerCase(), first.names.zh_cn ?? ""];
    return names.some((name) => name.startsWith(chinese ? text : `${text} `)) ? first : undefined;
  }
}
