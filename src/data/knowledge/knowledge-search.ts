import type Database from "better-sqlite3";
import { gramToken } from "./knowledge-grams.js";
import { GRAMS, TABLE } from "./knowledge-schema.js";
import { charLength, ftsPhrase, queryTerms } from "./knowledge-terms.js";

/** A stored row as SQLite returns it. */
export interface KnowledgeRow {
  id: number;
  owner: string | null;
  title: string;
  body: string;
  source: string;
  tags: string;
  ref: string | null;
  created: number;
}

/** Candidates read for the partial-match fallback (entries matching at least half of the terms). */
const FALLBACK_CANDIDATES = 200;

const VISIBLE = "(k.owner IS NULL OR k.owner = ?)";
/** A short term anywhere in title, body or tags (LIKE: ASCII case-insensitive like the trigram index). */
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
 * The best `limit` matches of an FTS5 table, by bm25, whose rows meet `filter`. Only ids and scores are sorted,
 * so a common term does not copy every matching body through the sorter; the rows are read for the winners.
 */
const ranked = (fts: string, filter: string): string =>
  `WITH ranked AS (SELECT k.id AS id, bm25(${fts}) AS score FROM ${fts} JOIN ${TABLE} k ON k.id = ${fts}.rowid
    WHERE ${fts} MATCH ? AND ${filter} ORDER BY score LIMIT ?)
  SELECT k.* FROM ranked JOIN ${TABLE} k ON k.id = ranked.id ORDER BY ranked.score`;

/**
 * The retrieval plan of one query. Terms of 3+ characters go to the FTS5 trigram index and shorter ones (which
 * trigram cannot match, e.g. `钻石`) to the short-term index (CJK windows, short words); both rank by bm25.
 * A short term neither index can serve (punctuation inside) is checked with LIKE, and a query of such terms
 * only is a newest-first scan. When no entry has every term, entries with at least half of them are returned.
 */
export class KnowledgeSearch {
  readonly #statements = new Map<string, Database.Statement>();

  constructor(private readonly database: Database.Database) {}

  /** The terms and the matching rows, best first. */
  run(query: string, playerId: string | undefined, limit: number): { terms: string[]; rows: KnowledgeRow[] } {
    const terms = queryTerms(query);
    if (terms.length === 0 || limit <= 0) return { terms, rows: [] };
    const long = terms.filter((term) => charLength(term) >= 3);
    const short = terms.filter((term) => charLength(term) < 3);
    const all = this.#match(long, short, "AND", playerId, limit);
    if (all.length > 0 || terms.length === 1) return { terms, rows: all };
    const needed = Math.ceil(terms.length / 2);
    const candidates = new Map<number, KnowledgeRow>();
    for (const row of this.#match(long, [], "OR", playerId, FALLBACK_CANDIDATES)) candidates.set(row.id, row);
    for (const row of this.#match([], short, "OR", playerId, FALLBACK_CANDIDATES))
      candidates.set(row.id, row);
    const scored = [...candidates.values()]
      .map((row, order) => ({ row, order, matched: countTerms(row, terms) }))
      .filter((entry) => entry.matched >= needed)
      .sort((left, right) => right.matched - left.matched || left.order - right.order);
    return { terms, rows: scored.slice(0, limit).map((entry) => entry.row) };
  }

  #match(
    long: readonly string[],
    short: readonly string[],
    mode: "AND" | "OR",
    playerId: string | undefined,
    limit: number,
  ): KnowledgeRow[] {
    if (long.length === 0 && short.length === 0) return [];
    const owner = playerId ?? null;
    const tokens = short.map(gramToken).filter((token) => token !== undefined);
    const scanned = short.filter((term) => gramToken(term) === undefined);
    const grams = tokens.map(ftsPhrase).join(` ${mode} `);
    if (long.length > 0) {
      const gramCheck = tokens.length > 0 ? ` AND ${IN_GRAMS}` : "";
      const scanCheck = scanned.map(() => ` AND ${CONTAINS}`).join("");
      const sql = ranked("knowledge_fts", `${VISIBLE}${gramCheck}${scanCheck}`);
      const match = long.map(ftsPhrase).join(` ${mode} `);
      const gramArguments = tokens.length > 0 ? [grams] : [];
      return this.#statement(sql).all(
        match,
        owner,
        ...gramArguments,
        ...patterns(scanned),
        limit,
      ) as KnowledgeRow[];
    }
    if (tokens.length > 0 && (mode === "AND" || scanned.length === 0)) {
      const scanCheck = scanned.map(() => ` AND ${CONTAINS}`).join("");
      const sql = ranked(GRAMS, `${VISIBLE}${scanCheck}`);
      return this.#statement(sql).all(grams, owner, ...patterns(scanned), limit) as KnowledgeRow[];
    }
    const checks = short.map(() => CONTAINS).join(` ${mode} `);
    const sql = `SELECT k.* FROM ${TABLE} k WHERE ${VISIBLE} AND (${checks}) ORDER BY k.id DESC LIMIT ?`;
    return this.#statement(sql).all(owner, ...patterns(short), limit) as KnowledgeRow[];
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

const countTerms = (row: KnowledgeRow, terms: readonly string[]): number => {
  const text = `${row.title}\n${row.body}\n${row.tags}`.toLowerCase();
  return terms.filter((term) => text.includes(term)).length;
};
