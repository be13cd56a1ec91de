import type Database from "better-sqlite3";
import { best, bm25Scorer, type Corpus, countTerms, idf } from "./knowledge-bm25.js";
import { gramToken } from "./knowledge-grams.js";
import { type Lookup, lookup } from "./knowledge-lookup.js";
import { GRAMS, type KnowledgeRow, TABLE } from "./knowledge-schema.js";
import { charLength, ftsPhrase, queryTerms } from "./knowledge-terms.js";

/** The trigram index (terms of 3+ characters). */
const FTS = "knowledge_fts";

/**
 * Matches read per query: the newest this many visible entries matching every term. All of them are ranked, so
 * for a term with fewer matches the ranking is over every match; a term this common is ranked within its newest
 * matches. This bound is what keeps a query's cost flat as the base grows (see bench/knowledge.ts).
 */
export const CANDIDATES = 200;

/** Candidates read for the partial-match fallback (entries matching at least half of the terms), per index. */
const FALLBACK_CANDIDATES = 100;

/** Newest matches read to estimate how many entries contain a term (its document frequency). */
const FREQUENCY_SAMPLE = 50;

const VISIBLE = "(k.owner IS NULL OR k.owner = ?)";
/** A term anywhere in title, body or tags (LIKE: ASCII case-insensitive like the trigram index). */
const CONTAINS = "(k.title LIKE ? ESCAPE '!' OR k.body LIKE ? ESCAPE '!' OR k.tags LIKE ? ESCAPE '!')";

/** The LIKE pattern of a term, three times (title, body, tags), with LIKE's wildcards escaped. */
const patterns = (terms: readonly string[]): string[] =>
  terms.flatMap((term) => {
    const pattern = `%${term.replace(/[!%_]/g, (character) => `!${character}`)}%`;
    return [pattern, pattern, pattern];
  });

/** Entries whose short-term index row matches (a subquery SQLite evaluates once). */
const IN_GRAMS = `k.id IN (SELECT rowid FROM ${GRAMS} WHERE ${GRAMS} MATCH ?)`;

/**
 * The newest `limit` visible matches of an FTS5 table meeting `filter`, newest first. FTS5 walks its posting
 * lists in descending rowid order and SQLite stops after `limit` rows, so a common term costs no more than a
 * rare one; no bm25() here, since bm25 counts every match of every phrase for its idf before the first row.
 */
const newest = (fts: string, filter: string): string =>
  `SELECT k.* FROM ${fts} JOIN ${TABLE} k ON k.id = ${fts}.rowid
    WHERE ${fts} MATCH ? AND ${filter} ORDER BY ${fts}.rowid DESC LIMIT ?`;

/**
 * The best `limit` of the newest `candidates` visible matches of the short-term index meeting `filter`, by
 * bm25. FTS5 walks the posting lists newest first and stops after `candidates` rows; bm25's idf reads one
 * posting list per token, and only the winners' rows are read whole.
 */
const rankedGrams = (filter: string): string =>
  `WITH ranked AS (SELECT k.id AS id, bm25(${GRAMS}) AS score FROM ${GRAMS} JOIN ${TABLE} k ON k.id = ${GRAMS}.rowid
    WHERE ${GRAMS} MATCH ? AND ${filter} ORDER BY ${GRAMS}.rowid DESC LIMIT ?)
  SELECT k.* FROM ranked JOIN ${TABLE} k ON k.id = ranked.id ORDER BY ranked.score, ranked.id DESC LIMIT ?`;

/**
 * The retrieval plan of one query. Every term the short-term index serves (CJK 1–2 character windows, words of
 * other scripts stemmed, longer CJK terms by their character pairs) is intersected there by FTS5, and the
 * newest CANDIDATES visible matches are ranked by bm25 inside SQLite. When that finds fewer than asked and a
 * word was among the terms, entries holding the words inside longer words (`stone` in `redstone`) follow, from
 * the trigram index. A query with a term of 3+ characters no word lookup serves (punctuation inside, mixed
 * scripts) uses the trigram index; its newest CANDIDATES matches are ranked by BM25 here (bm25() there would
 * first count every match of every trigram phrase). A short term neither index serves is checked with LIKE,
 * and a query of such terms only is a newest-first scan. When no entry has every term, entries with at least
 * half of them are returned, most terms first.
 */
export class KnowledgeSearch {
  readonly #statements = new Map<string, Database.Statement>();

  constructor(private readonly database: Database.Database) {}

  /** The terms and the matching rows, best first. */
  run(query: string, playerId: string | undefined, limit: number): { terms: string[]; rows: KnowledgeRow[] } {
    const terms = queryTerms(query);
    if (terms.length === 0 || limit <= 0) return { terms, rows: [] };
    const lookups = terms.map(lookup);
    const owner = playerId ?? null;
    let rows: KnowledgeRow[];
    if (lookups.some((entry) => entry.kind === "trigram")) {
      rows = best(this.#substrings(terms, "AND", owner, CANDIDATES), this.#scorer(terms), limit);
    } else if (lookups.some((entry) => entry.kind === "grams")) {
      rows = this.#grams(terms, lookups, owner, limit);
      if (rows.length < limit && lookups.some((entry) => entry.kind === "grams" && entry.word === true)) {
        const found = new Set(rows.map((row) => row.id));
        const inside = this.#substrings(terms, "AND", owner, CANDIDATES).filter((row) => !found.has(row.id));
        rows = [...rows, ...best(inside, this.#scorer(terms), limit - rows.length)];
      }
    } else {
      rows = this.#scan(terms, "AND", owner, limit);
    }
    if (rows.length > 0 || terms.length === 1) return { terms, rows };
    return { terms, rows: this.#partial(terms, lookups, owner, limit) };
  }

  /** The AND query in the short-term index, ranked by bm25 (every lookup is "grams" or "scan"). */
  #grams(
    terms: readonly string[],
    lookups: readonly Lookup[],
    owner: string | null,
    limit: number,
  ): KnowledgeRow[] {
    const expressions: string[] = [];
    const checked: string[] = [];
    lookups.forEach((entry, index) => {
      if (entry.kind === "grams") expressions.push(entry.expression);
      if (entry.kind === "scan") checked.push(terms[index] as string);
      if (entry.kind === "grams" && entry.check !== undefined) checked.push(entry.check);
    });
    const sql = rankedGrams(`${VISIBLE}${checked.map(() => ` AND ${CONTAINS}`).join("")}`);
    return this.#statement(sql).all(
      expressions.join(" AND "),
      owner,
      ...patterns(checked),
      CANDIDATES,
      limit,
    ) as KnowledgeRow[];
  }

  /**
   * Entries with at least half of the terms, most first, then by BM25: candidates are the newest matches of any
   * term in the short-term index, the trigram index and LIKE (each lookup where it is served), read whole.
   */
  #partial(
    terms: readonly string[],
    lookups: readonly Lookup[],
    owner: string | null,
    limit: number,
  ): KnowledgeRow[] {
    const needed = Math.ceil(terms.length / 2);
    const candidates = new Map<number, KnowledgeRow>();
    const add = (rows: readonly KnowledgeRow[]): void => {
      for (const row of rows) candidates.set(row.id, row);
    };
    const grams = lookups.flatMap((entry) => (entry.kind === "grams" ? [entry.expression] : []));
    if (grams.length > 0)
      add(
        this.#statement(newest(GRAMS, VISIBLE)).all(
          grams.join(" OR "),
          owner,
          FALLBACK_CANDIDATES,
        ) as KnowledgeRow[],
      );
    const trigram = terms.filter((_, index) => lookups[index]?.kind === "trigram");
    if (trigram.length > 0) add(this.#substrings(trigram, "OR", owner, FALLBACK_CANDIDATES));
    const scanned = terms.filter((_, index) => lookups[index]?.kind === "scan");
    if (scanned.length > 0) add(this.#scan(scanned, "OR", owner, FALLBACK_CANDIDATES));
    const rank = (): KnowledgeRow[] => {
      const scorer = this.#scorer(terms);
      return [...candidates.values()]
        .map((row) => ({ row, matched: countTerms(row, terms), score: scorer(row) }))
        .filter((entry) => entry.matched >= needed)
        .sort(
          (left, right) =>
            right.matched - left.matched || right.score - left.score || right.row.id - left.row.id,
        )
        .slice(0, limit)
        .map((entry) => entry.row);
    };
    let rows = rank();
    const words = terms.filter((term, index) => {
      const entry = lookups[index];
      return entry?.kind === "grams" && entry.word === true && charLength(term) >= 3;
    });
    if (rows.length < limit && words.length > 0) {
      // Words inside longer words (`stone` in `redstone`), which the word lookups above do not see.
      add(this.#substrings(words, "OR", owner, FALLBACK_CANDIDATES));
      rows = rank();
    }
    return rows;
  }

  /**
   * The newest `limit` visible entries holding the terms as substrings (the lookups before word indexing):
   * 3+ character terms in the trigram index, shorter ones in the short-term index, or with LIKE.
   */
  #substrings(
    terms: readonly string[],
    mode: "AND" | "OR",
    owner: string | null,
    limit: number,
  ): KnowledgeRow[] {
    const long = terms.filter((term) => charLength(term) >= 3);
    const short = terms.filter((term) => charLength(term) < 3);
    if (long.length === 0) return this.#scan(short, mode, owner, limit);
    const tokens = short.map(gramToken).filter((token) => token !== undefined);
    const scanned = short.filter((term) => gramToken(term) === undefined);
    const gramCheck = tokens.length > 0 ? ` AND ${IN_GRAMS}` : "";
    const scanCheck = scanned.map(() => ` AND ${CONTAINS}`).join("");
    const sql = newest(FTS, `${VISIBLE}${gramCheck}${scanCheck}`);
    const match = long.map(ftsPhrase).join(` ${mode} `);
    const gramArguments = tokens.length > 0 ? [tokens.map(ftsPhrase).join(` ${mode} `)] : [];
    return this.#statement(sql).all(
      match,
      owner,
      ...gramArguments,
      ...patterns(scanned),
      limit,
    ) as KnowledgeRow[];
  }

  /** The newest `limit` visible entries holding the terms (all, or any), by LIKE. */
  #scan(terms: readonly string[], mode: "AND" | "OR", owner: string | null, limit: number): KnowledgeRow[] {
    if (terms.length === 0) return [];
    const checks = terms.map(() => CONTAINS).join(` ${mode} `);
    const sql = `SELECT k.* FROM ${TABLE} k WHERE ${VISIBLE} AND (${checks}) ORDER BY k.id DESC LIMIT ?`;
    return this.#statement(sql).all(owner, ...patterns(terms), limit) as KnowledgeRow[];
  }

  /** The BM25 score of a row for these terms (higher is better). */
  #scorer(terms: readonly string[]): (row: KnowledgeRow) => number {
    const corpus = this.#corpus();
    // With one term the idf only scales every score alike; with several it weighs the rare term above the common.
    const weights = terms.map((term) =>
      terms.length === 1 ? 1 : idf(corpus.rows, this.#frequency(term, corpus)),
    );
    return bm25Scorer(terms, weights, corpus.averageLength);
  }

  /**
   * Entries, mean length and id range. The counts come from the trigram index's totals record (FTS5 keeps the row
   * count and each column's token count there; a trigram column of n characters has n − 2 tokens), one row read
   * instead of a scan.
   */
  #corpus(): Corpus {
    // Two subqueries: SQLite reads min() and max() of the rowid from the ends of the tree only when each is alone.
    const range = this.#statement(
      `SELECT (SELECT min(id) FROM ${TABLE}) AS first, (SELECT max(id) FROM ${TABLE}) AS last`,
    ).get() as {
      first: number | null;
      last: number | null;
    };
    const block = this.#statement(`SELECT block FROM ${FTS}_data WHERE id = 1`).pluck().get();
    const totals = block instanceof Uint8Array ? readVarints(block) : [];
    const rows = totals[0] ?? 0;
    const tokens = totals.slice(1).reduce((sum, value) => sum + value, 0);
    // Each of the three columns lost two characters to trigram windows; add them back.
    const averageLength = rows > 0 ? tokens / rows + 6 : 0;
    return {
      rows: Math.max(rows, 1),
      averageLength: averageLength > 0 ? averageLength : 1,
      firstId: range.first ?? 0,
      lastId: range.last ?? 0,
    };
  }

  /**
   * How many entries contain a term: exact when its newest FREQUENCY_SAMPLE matches are all of them, otherwise
   * extrapolated from the share of the id range they span. A term no index serves counts as half the corpus.
   */
  #frequency(term: string, corpus: Corpus): number {
    const served = lookup(term);
    if (served.kind === "scan") return corpus.rows / 2;
    // The short-term index where it serves the term (one posting list per token); else the trigram phrase.
    const [table, expression] = served.kind === "grams" ? [GRAMS, served.expression] : [FTS, ftsPhrase(term)];
    const ids = this.#statement(
      `SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ${FREQUENCY_SAMPLE}`,
    )
      .pluck()
      .all(expression) as number[];
    const oldest = ids.at(-1);
    if (ids.length < FREQUENCY_SAMPLE || oldest === undefined) return ids.length;
    const spanned = (corpus.lastId - oldest + 1) / Math.max(1, corpus.lastId - corpus.firstId + 1);
    return Math.min(corpus.rows, ids.length / Math.max(spanned, 1e-9));
  }

  #statement(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.database.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** SQLite varints (big-endian, 7 bits a byte, a 9th byte of 8 bits), as FTS5 writes its totals record. */
const readVarints = (bytes: Uint8Array): number[] => {
  const values: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    let value = 0;
    for (let index = 0; at < bytes.length; index++) {
      const byte = bytes[at++] as number;
      if (index === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    values.push(value);
  }
  return values;
};
