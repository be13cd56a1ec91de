/** The tokens of one text: word-level tokens (for coverage) and every scoring feature (words plus n-grams). */
export interface AnalyzedText {
  readonly words: readonly string[];
  readonly features: readonly string[];
}

const ID = /[a-z0-9_.-]+:[a-z0-9_./-]+/g;
const NUMBER = /\b\d+(?:\.\d+)?\b/g;
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const RUNS = /[\u3400-\u9fff\uf900-\ufaff]+|<[a-z]+>|[a-z0-9_']+/g;
/** Words that carry no intent; they neither score nor count against coverage. */
const FILLER = new Set([
  "please",
  "the",
  "a",
  "an",
  "me",
  "for",
  "pls",
  "请",
  "帮我",
  "帮",
  "一下",
  "麻烦",
  "吧",
  "呢",
  "啊",
  "的",
  "了",
  "是",
  "吗",
  "呀",
  "哦",
  "嘛",
  "啦",
  "plz",
  "rn",
  "is",
  "are",
  "am",
  "there",
  "this",
  "it",
  "to",
  "of",
  "do",
  "does",
]);
/** Chat spellings read as the word the samples use (`inv` → inventory, `咋` → 怎么); both languages. */
const EN_SYNONYMS: ReadonlyMap<string, string> = new Map([
  ["coords", "coordinates"],
  ["coord", "coordinates"],
  ["inv", "inventory"],
  ["hp", "health"],
  ["whats", "what"],
  ["wats", "what"],
  ["gamemode", "game mode"],
  ["lvl", "level"],
  ["exp", "xp"],
  ["experience", "xp"],
  ["cmds", "commands"],
  ["cmd", "command"],
  ["u", "you"],
  ["ur", "your"],
  ["r", "are"],
  ["howto", "how to"],
  ["info", "information"],
]);
const ZH_SYNONYMS: readonly (readonly [RegExp, string])[] = [
  [/咋/g, "怎么"],
  [/啥/g, "什么"],
  [/哪儿/g, "哪里"],
  [/如何/g, "怎么"],
  [/怎样/g, "怎么"],
  [/多少级/g, "几级"],
];
const MAX_WORD = 6;

/**
 * Finds argument mentions in a text (item names in both languages, item ids) and replaces each with its slot
 * token (`<item>`), so a query matches a sample on the slot rather than on the value: `铁锭怎么来的` and the
 * sample `钻石怎么获得` share `<item>`. It receives NFKC-normalised, lower-case text and must be fast: it runs
 * on every routed line.
 */
export interface SlotRecognizer {
  mark(text: string): string;
}

/**
 * Normalises text for matching: NFKC (full-width → half-width), lower case, resource ids → `<id>` and numbers →
 * `<num>` (arguments are slots, so `minecraft:iron_ingot` matches a sample written with `minecraft:diamond`),
 * punctuation → space.
 */
export const normalizeText = (text: string, slots?: SlotRecognizer): string => {
  const lower = text.normalize("NFKC").toLowerCase();
  let marked = slots === undefined ? lower : slots.mark(lower);
  for (const [pattern, standard] of ZH_SYNONYMS) marked = marked.replace(pattern, standard);
  return marked
    .replace(/[a-z]+/g, (word) => EN_SYNONYMS.get(word) ?? word)
    .replace(ID, " <id> ")
    .replace(NUMBER, " <num> ")
    .replace(/[^\p{L}\p{N}_'<>\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
};

const stem = (word: string): string =>
  word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word.replace(/'s$/, "");

const ngrams = (run: string, into: string[]): void => {
  for (let size = 2; size <= 3; size++)
    for (let start = 0; start + size <= run.length; start++) into.push(`~${run.slice(start, start + size)}`);
};

/**
 * Tokenises samples and queries for the semantic index. Samples are segmented with `Intl.Segmenter`; their
 * Chinese words form the lexicon that segments queries by forward maximum matching (same words, without the
 * segmenter's per-call cost on the request path). Both add character bigrams and trigrams of Chinese runs.
 */
export class TextAnalyzer {
  constructor(private readonly slots?: SlotRecognizer) {}

  readonly #segmenter = new Intl.Segmenter("zh", { granularity: "word" });
  readonly #lexicon = new Set<string>([...FILLER].filter((word) => CJK.test(word)));

  /** Analyses a sample with the segmenter and learns its Chinese words. */
  learn(text: string): AnalyzedText {
    const words: string[] = [];
    const features: string[] = [];
    for (const run of normalizeText(text, this.slots).match(RUNS) ?? []) {
      if (!CJK.test(run)) {
        this.#word(stem(run), words, features);
        continue;
      }
      for (const segment of this.#segmenter.segment(run)) {
        if (!segment.isWordLike) continue;
        if (segment.segment.length <= MAX_WORD) this.#lexicon.add(segment.segment);
        this.#word(segment.segment, words, features);
      }
      ngrams(run, features);
    }
    return { words, features };
  }

  /** Analyses a query: lexicon words by forward maximum matching, unknown characters one by one. */
  analyze(text: string): AnalyzedText {
    const words: string[] = [];
    const features: string[] = [];
    for (const run of normalizeText(text, this.slots).match(RUNS) ?? []) {
      if (!CJK.test(run)) {
        this.#word(stem(run), words, features);
        continue;
      }
      let start = 0;
      while (start < run.length) {
        let size = Math.min(MAX_WORD, run.length - start);
        while (size > 1 && !this.#lexicon.has(run.slice(start, start + size))) size--;
        this.#word(run.slice(start, start + size), words, features);
        start += size;
      }
      ngrams(run, features);
    }
    return { words, features };
  }

  #word(word: string, words: string[], features: string[]): void {
    if (FILLER.has(word)) return;
    words.push(word);
    features.push(word);
  }
}
