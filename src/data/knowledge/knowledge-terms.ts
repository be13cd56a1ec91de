/** Words that carry no topic ("how do I get …", "怎么获得"); dropped from queries so they match nothing by themselves. */
const STOP_WORDS = new Set([
  "的",
  "了",
  "吗",
  "呢",
  "吧",
  "啊",
  "是",
  "在",
  "我",
  "你",
  "他",
  "她",
  "它",
  "们",
  "怎么",
  "怎样",
  "如何",
  "什么",
  "哪里",
  "哪儿",
  "一下",
  "帮",
  "帮我",
  "请",
  "查",
  "查询",
  "查一下",
  "告诉",
  "一个",
  "这个",
  "那个",
  "可以",
  "能",
  "要",
  "a",
  "an",
  "the",
  "is",
  "are",
  "was",
  "of",
  "to",
  "in",
  "on",
  "for",
  "and",
  "or",
  "how",
  "what",
  "where",
  "why",
  "do",
  "does",
  "i",
  "me",
  "my",
  "can",
  "get",
  "please",
  "tell",
  "about",
  "with",
  "it",
]);

/** At most this many terms per query; the rest of a long question adds nothing but scan time. */
export const MAX_TERMS = 8;

const SEGMENTER = new Intl.Segmenter("zh", { granularity: "word" });
const HAN = /^\p{Script=Han}+$/u;

/** Length in code points: the trigram tokenizer counts characters, not UTF-16 units. */
export const charLength = (text: string): number => [...text].length;

/**
 * The search terms of a query: NFKC-normalised, lower-cased words (Chinese segmented by Intl.Segmenter),
 * stop words removed, deduplicated. A query of stop words only is searched as one term.
 */
export const queryTerms = (query: string): string[] => {
  const normalized = query.normalize("NFKC").toLowerCase().trim();
  if (normalized.length === 0) return [];
  const terms: string[] = [];
  // Adjacent Chinese words are joined back (下界|合金 → 下界合金) so the phrase can use the trigram index.
  let joinable = -1;
  for (const segment of SEGMENTER.segment(normalized)) {
    const word = segment.segment.trim();
    if (segment.isWordLike !== true || word.length === 0 || STOP_WORDS.has(word)) {
      joinable = -1;
      continue;
    }
    const han = HAN.test(word);
    const last = terms.length - 1;
    if (han && joinable === segment.index && last >= 0) terms[last] = `${terms[last]}${word}`;
    else if (!terms.includes(word)) terms.push(word);
    joinable = han ? segment.index + segment.segment.length : -1;
    if (terms.length > MAX_TERMS) break;
  }
  terms.splice(MAX_TERMS);
  for (let index = terms.length - 1; index >= 0; index--)
    if (terms.indexOf(terms[index] as string) !== index) terms.splice(index, 1);
  if (terms.length > 0) return terms;
  const whole = normalized.slice(0, 64);
  return /[\p{L}\p{N}]/u.test(whole) ? [whole] : [];
};

/** An FTS5 phrase for one term: quoted, inner quotes doubled, so no query syntax can be injected. */
export const ftsPhrase = (term: string): string => `"${term.replaceAll('"', '""')}"`;

/** A short excerpt of `body` around the first term found in it (or its start), at most `width` characters. */
export const snippetOf = (body: string, terms: readonly string[], width = 200): string => {
  const flat = body.replace(/\s+/g, " ").trim();
  const lower = flat.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const found = lower.indexOf(term);
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  const start = Math.max(0, at < 0 ? 0 : at - Math.floor(width / 3));
  const end = Math.min(flat.length, start + width);
  return `${start > 0 ? "…" : ""}${flat.slice(start, end)}${end < flat.length ? "…" : ""}`;
};
