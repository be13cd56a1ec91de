/** Scripts written without spaces, whose 1–2 character words the trigram index cannot match. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CJK_ONLY = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{1,2}$/u;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A word of another script (letters and digits), as the unicode61 tokenizer splits it. */
const WORD = /[\p{L}\p{N}]+/gu;
const SHORT_WORD = /^[\p{L}\p{N}]{1,2}$/u;
const WHOLE_WORD = /^[\p{L}\p{N}]+$/u;

/**
 * The text fed to the short-term index (`knowledge_grams`, unicode61) for one field: every character and every
 * pair of adjacent characters of each CJK run, plus the words of other scripts, space-separated. (Schema 2 held
 * only the 1–2 character words; schema 3 holds every word, so a word query is one posting list instead of a
 * trigram phrase.)
 */
export const gramText = (text: string): string => {
  const normalized = text.normalize("NFKC").toLowerCase();
  // Repeats are kept: bm25 ranks by how often a term occurs.
  const grams: string[] = [];
  for (const [run] of normalized.matchAll(CJK)) {
    const characters = [...run];
    for (let index = 0; index < characters.length; index++) {
      grams.push(characters[index] as string);
      if (index + 1 < characters.length) grams.push(`${characters[index]}${characters[index + 1]}`);
    }
  }
  for (const [word] of normalized.replace(CJK, " ").matchAll(WORD)) grams.push(word);
  return grams.join(" ");
};

/**
 * The token a short query term is looked up by in the short-term index, or undefined when the index cannot
 * serve it (punctuation inside, mixed scripts): such a term falls back to a LIKE check. A CJK term matches as a
 * substring (the index holds every 1–2 character window); a Latin term of 1–2 characters matches whole words.
 */
export const gramToken = (term: string): string | undefined => {
  const normalized = term.normalize("NFKC").toLowerCase();
  if (CJK_ONLY.test(normalized)) return normalized;
  if (SHORT_WORD.test(normalized) && !HAS_CJK.test(normalized)) return normalized;
  return undefined;
};

/**
 * The token a word of a non-CJK script is looked up by in the short-term index (whose tokenizer stems it:
 * `diamond` finds `diamonds`), or undefined for anything else (punctuation inside, CJK).
 */
export const wordToken = (term: string): string | undefined => {
  const normalized = term.normalize("NFKC").toLowerCase();
  return WHOLE_WORD.test(normalized) && !HAS_CJK.test(normalized) ? normalized : undefined;
};
