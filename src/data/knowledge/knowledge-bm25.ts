import type { KnowledgeRow } from "./knowledge-schema.js";

/** BM25 parameters, the same as SQLite FTS5's bm25(). */
const K1 = 1.2;
const B = 0.75;

/** Corpus statistics for BM25: entries, mean length in characters, and the id range (for frequency estimates). */
export interface Corpus {
  readonly rows: number;
  readonly averageLength: number;
  readonly firstId: number;
  readonly lastId: number;
}

/** FTS5's idf: ln((N − n + 0.5) / (n + 0.5)), floored at a small positive value as bm25() does. */
export const idf = (rows: number, frequency: number): number =>
  Math.max(1e-6, Math.log((rows - frequency + 0.5) / (frequency + 0.5)));

const LATIN_SHORT = /^[\p{L}\p{N}]{1,2}$/u;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Counts a term's occurrences in lower-cased text the way its index matches it: a short non-CJK word as a whole
 * word (the short-term index holds words), anything else as a substring (trigram windows, CJK character pairs).
 */
const termCounter = (term: string): ((text: string) => number) => {
  if (LATIN_SHORT.test(term) && !HAS_CJK.test(term)) {
    const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const word = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "gu");
    return (text) => text.match(word)?.length ?? 0;
  }
  return (text) => {
    let count = 0;
    for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + 1)) count++;
    return count;
  };
};

/**
 * The BM25 score of a row for these terms, each with its weight (its idf), higher is better: the same formula as
 * FTS5's bm25(), over title, body and tags as one text.
 */
export const bm25Scorer = (
  terms: readonly string[],
  weights: readonly number[],
  averageLength: number,
): ((row: KnowledgeRow) => number) => {
  const counters = terms.map(termCounter);
  return (row) => {
    const text = `${row.title}\n${row.body}\n${row.tags}`.toLowerCase();
    // UTF-16 units: the same as characters outside rare astral ones, without splitting the text.
    const length = text.length - 2;
    const norm = K1 * (1 - B + (B * length) / averageLength);
    let score = 0;
    counters.forEach((count, index) => {
      const frequency = count(text);
      if (frequency > 0) score += ((weights[index] as number) * frequency * (K1 + 1)) / (frequency + norm);
    });
    return score;
  };
};

/** The `limit` best rows by score; ties go to the newer entry. */
export const best = (
  rows: readonly KnowledgeRow[],
  scorer: (row: KnowledgeRow) => number,
  limit: number,
): KnowledgeRow[] =>
  rows
    .map((row) => ({ row, score: scorer(row) }))
    .sort((left, right) => right.score - left.score || right.row.id - left.row.id)
    .slice(0, limit)
    .map((entry) => entry.row);

/** How many of the terms a row holds anywhere in title, body or tags (as substrings). */
export const countTerms = (row: KnowledgeRow, terms: readonly string[]): number => {
  const text = `${row.title}\n${row.body}\n${row.tags}`.toLowerCase();
  return terms.filter((term) => text.includes(term)).length;
};
