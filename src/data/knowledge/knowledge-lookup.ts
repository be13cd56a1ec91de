import { gramToken, wordToken } from "./knowledge-grams.js";
import { charLength, ftsPhrase } from "./knowledge-terms.js";

/** How one term is looked up. */
export type Lookup =
  /** In the short-term index: a CJK window or short word (exact), a longer word (stemmed by the index's
   * tokenizer), or a long CJK term (all its character pairs, then `check`ed as written). */
  | { readonly kind: "grams"; readonly expression: string; readonly word?: true; readonly check?: string }
  /** In the trigram index, as a substring. */
  | { readonly kind: "trigram" }
  /** With LIKE only (a short term with punctuation inside). */
  | { readonly kind: "scan" };

/**
 * Where one query term is looked up: a CJK window, short word or stemmed word in the short-term index, a longer
 * CJK term by its character pairs there, another term of 3+ characters in the trigram index, else with LIKE.
 */
export const lookup = (term: string): Lookup => {
  const token = gramToken(term);
  if (token !== undefined) return { kind: "grams", expression: ftsPhrase(token) };
  const word = wordToken(term);
  if (word !== undefined) return { kind: "grams", expression: ftsPhrase(word), word: true };
  if (CJK_TERM.test(term)) return { kind: "grams", expression: pairQuery(term), check: term };
  return charLength(term) >= 3 ? { kind: "trigram" } : { kind: "scan" };
};

/** A term of CJK characters only. */
const CJK_TERM = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;

/**
 * A long CJK term in the short-term index: every pair of adjacent characters, all required (the rarest pair
 * keeps FTS5's intersection short). The pairs may stand apart in an entry, so the term itself is checked on the
 * rows.
 */
const pairQuery = (term: string): string => {
  const characters = [...term];
  const pairs = characters.slice(1).map((character, index) => `${characters[index]}${character}`);
  return `(${[...new Set(pairs)].map(ftsPhrase).join(" AND ")})`;
};
