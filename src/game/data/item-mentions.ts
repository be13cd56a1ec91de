import type { SlotRecognizer } from "../../agent/routing/text-analyzer.js";
import type { ItemCatalog, ItemInfo } from "./item-catalog.js";
import { loadItemAliases } from "./zh-item-names.js";

/** The slot token an item mention becomes for routing. */
export const ITEM_SLOT = "<item>";

/** Names too common as ordinary words to count as an item mention (`light level`, `分钟`, `在线`, `画画`). */
const NOT_MENTIONS = new Set(["air", "light", "lead", "钟", "线", "画"]);
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;
const WORDS = /[a-z0-9']+/g;
const ID = /\b[a-z0-9_.-]+:[a-z0-9_./-]+\b/g;
const MAX_ENGLISH_WORDS = 5;

/**
 * Words that make a longer name of a name before them (`diamond dust`, `andesite alloy`, `tomato sauce`, an `iron
 * farm`) or after them (`refined obsidian`), and Chinese ones (钻石粉, 安山合金, 番茄酱, 铁农场, 精炼黑曜石): when
 * the whole is no item the catalog knows (an item of a mod this server lacks, a dish, a build), the name inside it
 * is no mention. A whole the catalog knows (`redstone dust`, `blaze rod`, `pumpkin pie`, 红石粉) is found first,
 * being longer. Equipment words are no parts: the material's card answers "diamond gear" or "diamond armor".
 */
const PART_AFTER = new Set(
  (
    "dust alloy plate ingot nugget casing sheet coil cable powder rod gem " +
    "sauce soup stew pie salad juice sandwich farm"
  ).split(" "),
);
const PART_BEFORE = new Set("refined enriched compressed reinforced hardened crushed infused".split(" "));
const CHINESE_PART_AFTER = /^(?:粉(?!碎)|合金|齿轮|板|锭|粒|外壳|线圈|导线|酱|汤|汁|派|沙拉|农场|刷怪塔)/;
const CHINESE_PART_BEFORE = /(?:精炼|富集|压缩)$/;

/** A name several items share (every music disc is 音乐唱片) names no single item. */
const AMBIGUOUS = null;
type NameTarget = ItemInfo | typeof AMBIGUOUS;

/** A mention found in a text: where it is and which item it names (null: a name several items share). */
interface Mention {
  readonly start: number;
  readonly end: number;
  readonly item: NameTarget;
  /** Written as an id (`minecraft:stick`), not a name. */
  readonly id?: true;
}

/** The forms a last word may take: as written, `torches` → `torch`, `diamonds` → `diamond`. */
const singulars = (word: string): string[] => {
  const forms = [word];
  if (word.endsWith("es") && word.length > 4) forms.push(word.slice(0, -2));
  if (word.endsWith("s") && !word.endsWith("ss") && word.length > 3) forms.push(word.slice(0, -1));
  return forms;
};

const englishKey = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9' ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * Item mentions in free text, in both languages: item ids the catalog knows, en_us names and id paths as whole
 * words (plural allowed, `slime balls` for `slimeball`), zh_cn names leftmost-longest. Routing marks them as
 * the `<item>` slot (so `铁锭怎么来的` matches a sample written with 钻石) and the item query reads its argument
 * from them. Every lookup is a hash probe per position: microseconds whatever the size of the catalog.
 */
export class ItemMentions implements SlotRecognizer {
  readonly #english = new Map<string, NameTarget>();
  readonly #chinese = new Map<string, NameTarget>();
  /** First words (English) and first characters (Chinese) of names: most positions start no name at all. */
  readonly #firstWords = new Set<string>();
  readonly #firstChars = new Set<string>();
  #longestChinese = 1;

  /** The catalog generation the tables were built for: content reloads rebuild them before the next scan. */
  #generation = -1;

  constructor(
    private readonly catalog: ItemCatalog,
    private readonly aliases: ReadonlyMap<string, string> = loadItemAliases(),
  ) {
    this.#build();
  }

  #build(): void {
    if (this.#generation === this.catalog.generation) return;
    this.#generation = this.catalog.generation;
    for (const table of [this.#english, this.#chinese, this.#firstWords, this.#firstChars]) table.clear();
    this.#longestChinese = 1;
    const catalog = this.catalog;
    const aliases = this.aliases;
    const add = (names: Map<string, NameTarget>, name: string, item: ItemInfo): void => {
      const known = names.get(name);
      // a vanilla name stays vanilla's when a mod reuses it; two mods sharing a name name neither
      const keep =
        known !== undefined && known !== AMBIGUOUS && known.mod === undefined && item.mod !== undefined;
      names.set(name, known === undefined || known?.id === item.id ? item : keep ? known : AMBIGUOUS);
    };
    for (const item of catalog.all()) {
      const path = englishKey(item.id.slice(item.id.indexOf(":") + 1).replace(/_/g, " "));
      for (const name of new Set([englishKey(item.names.en_us), path]))
        if (name.length >= 3 && !NOT_MENTIONS.has(name)) add(this.#english, name, item);
      const chinese = item.names.zh_cn;
      if (chinese !== undefined && !NOT_MENTIONS.has(chinese)) {
        add(this.#chinese, chinese, item);
        this.#longestChinese = Math.max(this.#longestChinese, chinese.length);
      }
    }
    // An alias never shadows an official name.
    for (const [name, id] of aliases) {
      const item = catalog.lookup(id);
      if (item === undefined) continue;
      if (CJK.test(name)) {
        if (!this.#chinese.has(name)) this.#chinese.set(name, item);
        this.#longestChinese = Math.max(this.#longestChinese, name.length);
      } else if (!this.#english.has(englishKey(name))) this.#english.set(englishKey(name), item);
    }
    this.#index();
  }

  #index(): void {
    for (const name of this.#english.keys()) {
      const first = name.split(" ")[0]!;
      this.#firstWords.add(first);
      // `slime balls` for `slimeball`: any word that starts the name may start the mention
      for (let end = 3; end < first.length; end++) this.#firstWords.add(first.slice(0, end));
    }
    for (const name of this.#chinese.keys()) this.#firstChars.add(name[0]!);
  }

  /** The text with every mention replaced by ` <item> ` (input: NFKC, lower case). */
  mark(text: string): string {
    this.#build();
    let out = "";
    let last = 0;
    for (const mention of this.#scan(text)) {
      out += `${text.slice(last, mention.start)} ${ITEM_SLOT} `;
      last = mention.end;
    }
    return out + text.slice(last);
  }

  /**
   * The item a text is about: its longest mention (`钻石镐需要几个钻石` → 钻石镐). Undefined when it mentions
   * none, two different ids, two different items tying for the longest, or a name several items share.
   */
  find(text: string): ItemInfo | undefined {
    this.#build();
    const mentions = this.#scan(text.normalize("NFKC").toLowerCase());
    // Two different ids written out (`compare minecraft:stick and minecraft:diamond`) name no single item.
    const ids = new Set(mentions.filter((mention) => mention.id).map((mention) => mention.item?.id));
    if (ids.size > 1) return undefined;
    let best: Mention | undefined;
    let tied = false;
    for (const mention of mentions) {
      const length = mention.end - mention.start;
      const bestLength = best === undefined ? -1 : best.end - best.start;
      if (length > bestLength) {
        best = mention;
        tied = false;
      } else if (length === bestLength && mention.item?.id !== best?.item?.id) tied = true;
    }
    return best === undefined || tied || best.item === AMBIGUOUS ? undefined : best.item;
  }

  #scan(text: string): Mention[] {
    const mentions: Mention[] = [];
    // an id of another namespace the catalog lacks (an item of a mod this server does not have) stands for itself
    // alone: the names inside it (`andesite` in `create:andesite_alloy`) are no mentions
    const unknownIds: { readonly start: number; readonly end: number }[] = [];
    for (const match of text.matchAll(ID)) {
      const item = this.catalog.lookup(match[0]);
      const span = { start: match.index, end: match.index + match[0].length };
      if (item !== undefined) mentions.push({ ...span, item, id: true });
      else if (this.#foreignId(match[0])) unknownIds.push(span);
    }
    const apart = (start: number, end: number, span: { start: number; end: number }): boolean =>
      end <= span.start || start >= span.end;
    const outside = (start: number, end: number): boolean =>
      mentions.every((mention) => apart(start, end, mention)) &&
      unknownIds.every((span) => apart(start, end, span));
    for (const match of text.matchAll(CJK_RUN)) this.#scanChinese(match[0], match.index, mentions, outside);
    this.#scanEnglish(text, mentions, outside);
    return mentions.sort((left, right) => left.start - right.start);
  }

  /**
   * Whether an unknown `a:b` is an id of a namespace the server lacks. Not when it is vanilla's namespace
   * (`minecraft:diamonds`, `mc:diamond`: a plural or a short form), a count (`torch:64`, `diamond_sword:2`) or an
   * item's name before a colon.
   */
  #foreignId(id: string): boolean {
    const colon = id.indexOf(":");
    const namespace = id.slice(0, colon);
    const path = id.slice(colon + 1);
    if (namespace === "minecraft" || namespace === "mc" || /^\d+$/.test(path)) return false;
    return !this.#english.has(englishKey(namespace.replace(/_/g, " ")));
  }

  #scanChinese(
    run: string,
    offset: number,
    into: Mention[],
    outside: (start: number, end: number) => boolean,
  ): void {
    let start = 0;
    while (start < run.length) {
      if (!this.#firstChars.has(run[start]!)) {
        start++;
        continue;
      }
      let size = Math.min(this.#longestChinese, run.length - start);
      let item: NameTarget | undefined;
      for (; size > 0; size--) {
        item = this.#chinese.get(run.slice(start, start + size));
        if (item !== undefined) break;
      }
      if (item === undefined || size === 0) {
        start++;
        continue;
      }
      const partOf =
        CHINESE_PART_AFTER.test(run.slice(start + size)) || CHINESE_PART_BEFORE.test(run.slice(0, start));
      if (!partOf && outside(offset + start, offset + start + size))
        into.push({ start: offset + start, end: offset + start + size, item });
      start += size;
    }
  }

  #scanEnglish(text: string, into: Mention[], outside: (start: number, end: number) => boolean): void {
    const words = [...text.matchAll(WORDS)];
    for (let index = 0; index < words.length; ) {
      if (!singulars(words[index]![0]).some((form) => this.#firstWords.has(form))) {
        index++;
        continue;
      }
      let found: { size: number; item: NameTarget } | undefined;
      for (let size = Math.min(MAX_ENGLISH_WORDS, words.length - index); size > 0 && !found; size--) {
        const phrase = words.slice(index, index + size).map((word) => word[0]);
        const head = phrase.slice(0, -1);
        for (const tail of singulars(phrase[phrase.length - 1]!)) {
          const item =
            this.#english.get([...head, tail].join(" ")) ?? this.#english.get([...head, tail].join(""));
          if (item !== undefined) {
            found = { size, item };
            break;
          }
        }
      }
      if (found === undefined) {
        index++;
        continue;
      }
      const first = words[index]!;
      const last = words[index + found.size - 1]!;
      const end = last.index + last[0].length;
      const next = words[index + found.size]?.[0];
      const previous = words[index - 1]?.[0];
      const partOf =
        (next !== undefined && singulars(next).some((form) => PART_AFTER.has(form))) ||
        (previous !== undefined && PART_BEFORE.has(previous));
      if (!partOf && outside(first.index, end)) into.push({ start: first.index, end, item: found.item });
      index += found.size;
    }
  }
}
