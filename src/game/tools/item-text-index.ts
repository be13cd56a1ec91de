import type { ItemCatalog, ItemInfo } from "../data/item-catalog.js";
import { ItemMentions } from "../data/item-mentions.js";

const CJK_RUNS = /[\u3400-\u9fff]+/g;
/** What a question about getting or making an item says beside the item (English words, Chinese fragments). */
const QUESTION_WORDS = new Set(
  (
    "where how what which do does did can could should i we you me my to the a an some any more get got find " +
    "obtain make craft farm mine buy is are it from for of in on need want recipe recipes " +
    "used use uses usage good with about tell show please this that there way best fast quickly easily"
  ).split(" "),
);
/** Places a question may go to, which start item names too (下界砖, Nether Brick): never a guess. */
const PLACES = /^(?:下界|地狱|末地|主世界|nether|the end|end|overworld|spawn|home|village)$/;
const QUESTION_CHINESE =
  /在哪里|在哪儿|在哪|哪里|哪儿|怎么样|怎么|如何|怎样|能|可以|才能|找到|获得|得到|弄到|获取|合成|制作|做|去|找|刷|挖|买|的|是|吗|呢|啊|我|要|想|有|什么|哪个|配方|有什么用|用途|用来|干什么|干嘛|作用|用/g;

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

  /**
   * The item a question most likely asks about when it names none whole: its longest mention, else the words left
   * once the question's own are taken out, read as a bare partial name ("where do I get steel" → Steel Ingot,
   * "哪里能找到钢" → 钢锭). A guess, for a choice button, never for a direct route.
   */
  guess(text: string): ItemInfo | undefined {
    const found = this.find(text);
    if (found !== undefined) return found;
    const normalized = text.normalize("NFKC").toLowerCase();
    const chinese = normalized.match(CJK_RUNS) ?? [];
    if (chinese.length > 0) {
      const left = chinese.map((run) => run.replace(QUESTION_CHINESE, "")).join("");
      return left === "" || PLACES.test(left) ? undefined : this.#partial(left, 5);
    }
    const words = normalized.match(/[a-z']+/g) ?? [];
    const left = words
      .filter((word) => !QUESTION_WORDS.has(word))
      .map((word) =>
        word.length > 4 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word,
      )
      .join(" ");
    return left === "" || PLACES.test(left) ? undefined : this.#partial(left, 5);
  }

  /**
   * The top search result for a bare partial name: whole English words, or Chinese characters starting a name;
   * the first of the top `among` results whose name starts so.
   */
  #partial(text: string, among = 1): ItemInfo | undefined {
    const chinese = /^[\u3400-\u9fff]{1,8}$/.test(text);
    if (!chinese && !/^[a-z][a-z ]{2,31}$/.test(text)) return undefined;
    if (!this.#starts.has(text)) return undefined;
    return this.catalog
      .search(text, among)
      .find((item) =>
        [item.names.en_us.toLowerCase(), item.names.zh_cn ?? ""].some((name) =>
          name.startsWith(chinese ? text : `${text} `),
        ),
      );
  }
}
