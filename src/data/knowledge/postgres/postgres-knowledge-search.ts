import type pg from "pg";
import { best, bm25Scorer, type Corpus, countTerms, idf } from "../knowledge-bm25.js";
import { gramToken } from "../knowledge-grams.js";
import { type Lookup, lookup } from "../knowledge-lookup.js";
import type { KnowledgeRow } from "../knowledge-schema.js";
import { CANDIDATES } from "../knowledge-search.js";
import { charLength, queryTerms } from "../knowledge-terms.js";
import { KNOWLEDGE_TABLE, KNOWLEDGE_TOKENS, KNOWLEDGE_TOTALS } from "./knowledge-migrations.js";
import type { KnowledgeTokenizer } from "./knowledge-tokens.js";
import { SqlBuilder } from "./sql-builder.js";

/** As the embedded search: candidates of the partial-match fallback, and the sample that estimates frequencies. */
const FALLBACK_CANDIDATES = 100;
const FREQUENCY_SAMPLE = 50;

/** BM25 as SQLite FTS5's bm25() computes it (same constants, same order of operations, so equal scores tie). */
const K1 = 1.2;
const B = 0.75;

/** A row with its length in the short-term index (bm25's document length). */
export type RankedRow = KnowledgeRow & { readonly gram_length: number };

/** The columns read for a row; `created` as a double, since pg returns bigint as text. */
export const ROW_COLUMNS =
  "k.id, k.owner, k.title, k.body, k.source, k.tags, k.ref, k.created::float8 AS created, k.gram_length";

/** The short-term index lookups of one term: its phrases (each a list of index tokens), all required. */
type Phrases = readonly (readonly string[])[];

/**
 * The embedded KnowledgeSearch over the PostgreSQL tables, step for step: the same terms and lookups, the same
 * candidate bounds (the newest matches), the same BM25 (FTS5's for the short-term index, computed here from the
 * stored token counts and the totals FTS5 would hold; the substring BM25 of knowledge-bm25.ts otherwise), so a
 * query finds the same entries in the same order. Substring checks run on a lower-cased copy of the text.
 */
export class PostgresKnowledgeSearch {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tokenizer: KnowledgeTokenizer,
  ) {}

  async run(
    query: string,
    playerId: string | undefined,
    limit: number,
  ): Promise<{ terms: string[]; rows: KnowledgeRow[] }> {
    const terms = queryTerms(query);
    if (terms.length === 0 || limit <= 0) return { terms, rows: [] };
    const lookups = terms.map(lookup);
    const owner = playerId ?? null;
    let rows: KnowledgeRow[];
    if (lookups.some((entry) => entry.kind === "trigram")) {
      rows = best(await this.#substrings(terms, "AND", owner, CANDIDATES), await this.#scorer(terms), limit);
    } else if (lookups.some((entry) => entry.kind === "grams")) {
      rows = await this.#grams(terms, lookups, owner, limit);
      if (rows.length < limit && lookups.some((entry) => entry.kind === "grams" && entry.word === true)) {
        const found = new Set(rows.map((row) => row.id));
        const inside = (await this.#substrings(terms, "AND", owner, CANDIDATES)).filter(
          (row) => !found.has(row.id),
        );
        rows = [...rows, ...best(inside, await this.#scorer(terms), limit - rows.length)];
      }
    } else {
      rows = await this.#scan(terms, "AND", owner, limit);
    }
    if (rows.length > 0 || terms.length === 1) return { terms, rows };
    return { terms, rows: await this.#partial(terms, lookups, owner, limit) };
  }

  /** The phrases of a term the short-term index serves, as FTS5 would parse its lookup expression. */
  #phrases(term: string, entry: Lookup): Phrases {
    if (entry.kind !== "grams") return [];
    if (entry.check === undefined)
      return [this.tokenizer.tokens(gramToken(term) ?? term.normalize("NFKC").toLowerCase())];
    const characters = [...term];
    const pairs = characters.slice(1).map((character, index) => `${characters[index]}${character}`);
    return [...new Set(pairs)].map((pair) => this.tokenizer.tokens(pair));
  }

  /** The AND query in the short-term index: the newest CANDIDATES visible matches, ranked by FTS5's bm25. */
  async #grams(
    terms: readonly string[],
    lookups: readonly Lookup[],
    owner: string | null,
    limit: number,
  ): Promise<KnowledgeRow[]> {
    const phrases: (readonly string[])[] = [];
    const checked: string[] = [];
    lookups.forEach((entry, index) => {
      const term = terms[index] as string;
      phrases.push(...this.#phrases(term, entry));
      if (entry.kind === "scan") checked.push(term);
      if (entry.kind === "grams" && entry.check !== undefined) checked.push(entry.check);
    });
    if (phrases.some((phrase) => phrase.length === 0)) return [];
    const tokens = [...new Set(phrases.flat())];
    const frequencies = await this.#documentFrequencies(tokens);
    // the posting list walked is the rarest one; the others are probed per entry
    const [driver, ...others] = [...tokens].sort(
      (left, right) => (frequencies.get(left) ?? 0) - (frequencies.get(right) ?? 0),
    );
    const sql = new SqlBuilder();
    const where = [
      `t0.token = ${sql.value(driver)}`,
      `(k.owner IS NULL OR k.owner = ${sql.value(owner)})`,
      ...others.map((token) => hasToken(sql, token, "t0.entry")),
      ...checked.map((term) => `k.haystack LIKE ${sql.value(likePattern(term))}`),
    ];
    const { rows } = await this.pool.query<RankedRow>(
      `SELECT ${ROW_COLUMNS} FROM ${KNOWLEDGE_TOKENS} t0 JOIN ${KNOWLEDGE_TABLE} k ON k.id = t0.entry
        WHERE ${where.join(" AND ")} ORDER BY t0.entry DESC LIMIT ${sql.value(CANDIDATES)}`,
      sql.values,
    );
    if (rows.length === 0) return [];
    const hits = await this.#hits(
      rows.map((row) => row.id),
      tokens,
    );
    const totals = await this.#gramTotals();
    const avgdl = totals.tokens / totals.rows;
    const weights = phrases.map((phrase) => {
      const hit = frequencies.get(phrase[0] as string) ?? 0;
      const value = Math.log((totals.rows - hit + 0.5) / (hit + 0.5));
      return value <= 0 ? 1e-6 : value;
    });
    const scored = rows.map((row) => {
      const counts = hits.get(row.id);
      const D = row.gram_length;
      let score = 0;
      phrases.forEach((phrase, index) => {
        const f = Math.min(...phrase.map((token) => counts?.get(token) ?? 0));
        score += (weights[index] as number) * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / avgdl)));
      });
      return { row, score: -1.0 * score };
    });
    return scored
      .sort((left, right) => left.score - right.score || right.row.id - left.row.id)
      .slice(0, limit)
      .map((entry) => entry.row);
  }

  /** How many entries hold each token (FTS5 reads a phrase's whole posting list for its idf too). */
  async #documentFrequencies(tokens: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ token: string; n: number }>(
      `SELECT token, count(*)::int AS n FROM ${KNOWLEDGE_TOKENS} WHERE token = ANY($1::text[]) GROUP BY token`,
      [tokens],
    );
    return new Map(rows.map((row) => [row.token, row.n]));
  }

  async #hits(ids: readonly number[], tokens: readonly string[]): Promise<Map<number, Map<string, number>>> {
    const { rows } = await this.pool.query<{ entry: number; token: string; hits: number }>(
      `SELECT entry, token, hits FROM ${KNOWLEDGE_TOKENS} WHERE entry = ANY($1::int[]) AND token = ANY($2::text[])`,
      [ids, tokens],
    );
    const byEntry = new Map<number, Map<string, number>>();
    for (const row of rows) {
      const counts = byEntry.get(row.entry) ?? new Map<string, number>();
      counts.set(row.token, row.hits);
      byEntry.set(row.entry, counts);
    }
    return byEntry;
  }

  async #gramTotals(): Promise<{ rows: number; tokens: number }> {
    const { rows } = await this.pool.query<{ rows: number; tokens: number }>(
      `SELECT gram_rows::float8 AS rows, gram_tokens::float8 AS tokens FROM ${KNOWLEDGE_TOTALS}`,
    );
    return rows[0] ?? { rows: 0, tokens: 0 };
  }

  /** Entries with at least half of the terms, most first, then by BM25 (as the embedded fallback). */
  async #partial(
    terms: readonly string[],
    lookups: readonly Lookup[],
    owner: string | null,
    limit: number,
  ): Promise<KnowledgeRow[]> {
    const needed = Math.ceil(terms.length / 2);
    const candidates = new Map<number, KnowledgeRow>();
    const add = (rows: readonly KnowledgeRow[]): void => {
      for (const row of rows) candidates.set(row.id, row);
    };
    const groups = lookups.flatMap((entry, index) =>
      entry.kind === "grams" ? [this.#phrases(terms[index] as string, entry).flat()] : [],
    );
    if (groups.length > 0) {
      const sql = new SqlBuilder();
      const any = groups
        .filter((group) => group.length > 0)
        .map((group) => `(${group.map((token) => hasToken(sql, token, "k.id")).join(" AND ")})`);
      if (any.length > 0)
        add(
          (
            await this.pool.query<RankedRow>(
              `SELECT ${ROW_COLUMNS} FROM ${KNOWLEDGE_TABLE} k WHERE (k.owner IS NULL OR k.owner = ${sql.value(owner)})
                AND (${any.join(" OR ")}) ORDER BY k.id DESC LIMIT ${sql.value(FALLBACK_CANDIDATES)}`,
              sql.values,
            )
          ).rows,
        );
    }
    const trigram = terms.filter((_, index) => lookups[index]?.kind === "trigram");
    if (trigram.length > 0) add(await this.#substrings(trigram, "OR", owner, FALLBACK_CANDIDATES));
    const scanned = terms.filter((_, index) => lookups[index]?.kind === "scan");
    if (scanned.length > 0) add(await this.#scan(scanned, "OR", owner, FALLBACK_CANDIDATES));
    const rank = async (): Promise<KnowledgeRow[]> => {
      const scorer = await this.#scorer(terms);
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
    let rows = await rank();
    const words = terms.filter((term, index) => {
      const entry = lookups[index];
      return entry?.kind === "grams" && entry.word === true && charLength(term) >= 3;
    });
    if (rows.length < limit && words.length > 0) {
      add(await this.#substrings(words, "OR", owner, FALLBACK_CANDIDATES));
      rows = await rank();
    }
    return rows;
  }

  /**
   * The newest `limit` visible entries holding the terms as substrings: 3+ character terms and unindexed short
   * ones on the text, short indexed ones in the short-term index (as the embedded trigram lookup).
   */
  async #substrings(
    terms: readonly string[],
    mode: "AND" | "OR",
    owner: string | null,
    limit: number,
  ): Promise<KnowledgeRow[]> {
    const long = terms.filter((term) => charLength(term) >= 3);
    const short = terms.filter((term) => charLength(term) < 3);
    if (long.length === 0) return this.#scan(short, mode, owner, limit);
    const tokens = short.flatMap((term) => {
      const token = gramToken(term);
      return token === undefined ? [] : this.tokenizer.tokens(token);
    });
    const scanned = short.filter((term) => gramToken(term) === undefined);
    const sql = new SqlBuilder();
    const where = [
      `(k.owner IS NULL OR k.owner = ${sql.value(owner)})`,
      `(${long.map((term) => `k.haystack LIKE ${sql.value(likePattern(term))}`).join(` ${mode} `)})`,
      ...(tokens.length > 0
        ? [`(${tokens.map((token) => hasToken(sql, token, "k.id")).join(` ${mode} `)})`]
        : []),
      ...scanned.map((term) => `k.haystack LIKE ${sql.value(likePattern(term))}`),
    ];
    const { rows } = await this.pool.query<RankedRow>(
      `SELECT ${ROW_COLUMNS} FROM ${KNOWLEDGE_TABLE} k WHERE ${where.join(" AND ")}
        ORDER BY k.id DESC LIMIT ${sql.value(limit)}`,
      sql.values,
    );
    return rows;
  }

  /** The newest `limit` visible entries holding the terms (all, or any) as substrings. */
  async #scan(
    terms: readonly string[],
    mode: "AND" | "OR",
    owner: string | null,
    limit: number,
  ): Promise<KnowledgeRow[]> {
    if (terms.length === 0) return [];
    const sql = new SqlBuilder();
    const checks = terms.map((term) => `k.haystack LIKE ${sql.value(likePattern(term))}`).join(` ${mode} `);
    const { rows } = await this.pool.query<RankedRow>(
      `SELECT ${ROW_COLUMNS} FROM ${KNOWLEDGE_TABLE} k WHERE (k.owner IS NULL OR k.owner = ${sql.value(owner)})
        AND (${checks}) ORDER BY k.id DESC LIMIT ${sql.value(limit)}`,
      sql.values,
    );
    return rows;
  }

  /** The substring BM25 of a row for these terms, weighted as the embedded search weighs them. */
  async #scorer(terms: readonly string[]): Promise<(row: KnowledgeRow) => number> {
    const corpus = await this.#corpus();
    const weights: number[] = [];
    for (const term of terms)
      weights.push(terms.length === 1 ? 1 : idf(corpus.rows, await this.#frequency(term, corpus)));
    return bm25Scorer(terms, weights, corpus.averageLength);
  }

  /** The totals the embedded trigram index keeps (rows, characters less two per column), and the id range. */
  async #corpus(): Promise<Corpus> {
    const { rows } = await this.pool.query<{
      rows: number;
      tokens: number;
      first: number | null;
      last: number | null;
    }>(
      `SELECT trigram_rows::float8 AS rows, trigram_tokens::float8 AS tokens,
              (SELECT min(id) FROM ${KNOWLEDGE_TABLE}) AS first, (SELECT max(id) FROM ${KNOWLEDGE_TABLE}) AS last
         FROM ${KNOWLEDGE_TOTALS}`,
    );
    const totals = rows[0] ?? { rows: 0, tokens: 0, first: null, last: null };
    const averageLength = totals.rows > 0 ? totals.tokens / totals.rows + 6 : 0;
    return {
      rows: Math.max(totals.rows, 1),
      averageLength: averageLength > 0 ? averageLength : 1,
      firstId: totals.first ?? 0,
      lastId: totals.last ?? 0,
    };
  }

  /** Entries containing a term, from its newest FREQUENCY_SAMPLE matches (as the embedded estimate). */
  async #frequency(term: string, corpus: Corpus): Promise<number> {
    const served = lookup(term);
    if (served.kind === "scan") return corpus.rows / 2;
    const sql = new SqlBuilder();
    let text: string;
    if (served.kind === "grams") {
      const tokens = [...new Set(this.#phrases(term, served).flat())];
      if (tokens.length === 0) return 0;
      const [first, ...others] = tokens;
      text = `SELECT t0.entry AS id FROM ${KNOWLEDGE_TOKENS} t0 WHERE t0.token = ${sql.value(first)}
        ${others.map((token) => `AND ${hasToken(sql, token, "t0.entry")}`).join(" ")}
        ORDER BY t0.entry DESC LIMIT ${FREQUENCY_SAMPLE}`;
    } else {
      text = `SELECT k.id FROM ${KNOWLEDGE_TABLE} k WHERE k.haystack LIKE ${sql.value(likePattern(term))}
        ORDER BY k.id DESC LIMIT ${FREQUENCY_SAMPLE}`;
    }
    const ids = (await this.pool.query<{ id: number }>(text, sql.values)).rows.map((row) => row.id);
    const oldest = ids.at(-1);
    if (ids.length < FREQUENCY_SAMPLE || oldest === undefined) return ids.length;
    const spanned = (corpus.lastId - oldest + 1) / Math.max(1, corpus.lastId - corpus.firstId + 1);
    return Math.min(corpus.rows, ids.length / Math.max(spanned, 1e-9));
  }
}

/** An entry (`column`) holds the token: one probe of the token table's primary key. */
const hasToken = (sql: SqlBuilder, token: string, column: string): string =>
  `EXISTS (SELECT 1 FROM ${KNOWLEDGE_TOKENS} t WHERE t.token = ${sql.value(token)} AND t.entry = ${column})`;

/** A LIKE pattern matching the term anywhere, its wildcards escaped (backslash is LIKE's default escape). */
export const likePattern = (term: string): string =>
  `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
