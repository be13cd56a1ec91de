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
  "did",
  "now",
  "currently",
  "都",
  "目前",
  "现在",
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
  // "where" said short: 我在哪 / 去哪 / 哪来的 read as the samples' 哪里
  [/(在|去|到)哪(?![里儿个些种样])/g, "$1哪里"],
  [/哪来/g, "哪里来"],
  // players call the server 服: 这服, 本服, 服主, 服规, 服里 (衣服, 舒服, 服务 are other words)
  [/(这|本|该|此|咱|那个|我们|你们)服(?![务装饰从气])/g, "$1服务器"],
  [/(?<![衣舒克说信佩制])服(主|规|里|内)/g, "服务器$1"],
  [/干(嘛|啥|什么)/g, "做什么"],
  [/都有/g, "有"],
  // 包里 is the player's 背包 (not 钱包, 红包, 书包)
  [/(?<![背钱红书礼])包(里|中)/g, "背包$1"],
  [/(看|查)下(?![面雨])/g, "$1一下"],
];
/** Ways of asking to be shown something, read as the samples' `show` / 查看. */
const SHOW_PHRASES: readonly (readonly [RegExp, string])[] = [
  [/\b(?:pull|bring|call|open) up\b|\blet me see\b|\bdisplay\b/g, "show"],
  [/调出来|调出|列出来|列出|显示|瞧瞧|看一下|看看|查看|查查|查一下/g, "查看"],
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
  for (const [pattern, standard] of [...ZH_SYNONYMS, ...SHOW_PHRASES])
    marked = marked.replace(pattern, standard);
  return marked
    .replace(/[a-z]+/g, (word) => EN_SYNONYMS.get(word) ?? word)
    .replace(ID, " <id> ")
    .replace(NUMBER, " <num> ")
    .replace(/[^\p{L}\p{N}_'<>\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
};

/** `what's` → `what`, `server's` → `server`, `torches` → `torche`, `items` → `item`; `this`, `does`, `us` stay. */
const stem = (word: string): string => {
  const bare = word.replace(/'s?$/, "");
  return bare.length > 3 && bare.endsWith("s") && !/(ss|us|is)$/.test(bare) ? bare.slice(0, -1) : bare;
};

/**
 * Words that carry no topic of their own: question words, pronouns, prepositions, auxiliaries (both languages, as
 * the analyser writes them: stemmed, filler words already gone). A text that shares only these with a workflow's
 * samples is not about what the workflow answers (see the semantic router).
 */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  [
    // `where`, `when` and `who` are left out: they ask for a place, a time, a person (`where am I right now`)
    "what which whom whose why how i my mine myself you your yours we our us he she they them their his her its",
    "in on at by with from into about and or but if so than then can could should would will shall may might",
    "must have has had be been was were that these those any some much many here up out need want there",
    "我 我的 你 你的 他 她 它 什么 怎么 怎样 如何 哪 哪里 哪儿 哪个 在 有 能 可以 会 要 想 这 那 这个 那个 几 个 谁",
    "和 跟 给 用 去 还 也 就 为什么",
  ]
    .flatMap((line) => line.split(" "))
    .map(stem),
);

/** Whether a word (as the analyser writes it) carries no topic of its own; slot tokens always carry one. */
export const isFunctionWord = (word: string): boolean => FUNCTION_WORDS.has(word);

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

  /** A text as the analyser reads it before tokenising (`normalizeText` with this analyser's slots). */
  normalize(text: string): string {
    return normalizeText(text, this.slots);
  }
  readonly #lexicon = new Set<string>([...FILLER].filter((word) => CJK.test(word)));

  /** Analyses a sample with the segmenter and learns its Chinese words. */
  learn(text: string): AnalyzedText {
    const words: string[] = [];
    const features: string[] = [];
    for (const run of normalizeText(text, this.slots).match(RUNS) ?? []) {
      if (!CJK.test(run)) {
        // filler words are known by their written form (`this`, `does`), before stemming
        if (!FILLER.has(run)) this.#word(stem(run), words, features);
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

  /**
   * Analyses a query: lexicon words by forward maximum matching; a run of characters no sample has is one unknown
   * word (当前, 苦力怕: one word the samples lack, not two or three).
   */
  analyze(text: string): AnalyzedText {
    const words: string[] = [];
    const features: string[] = [];
    for (const run of normalizeText(text, this.slots).match(RUNS) ?? []) {
      if (!CJK.test(run)) {
        // filler words are known by their written form (`this`, `does`), before stemming
        if (!FILLER.has(run)) this.#word(stem(run), words, features);
        continue;
      }
      let start = 0;
      let unknown = "";
      while (start < run.length) {
        let size = Math.min(MAX_WORD, run.length - start);
        while (size > 1 && !this.#lexicon.has(run.slice(start, start + size))) size--;
        const word = run.slice(start, start + size);
        start += size;
        if (size === 1 && !this.#lexicon.has(word) && !FILLER.has(word)) {
          unknown += word;
          continue;
        }
        if (unknown !== "") this.#word(unknown, words, features);
        unknown = "";
        this.#word(word, words, features);
      }
      if (unknown !== "") this.#word(unknown, words, features);
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
