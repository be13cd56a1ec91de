import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { KnowledgeDraft, KnowledgeEntry, KnowledgeHit, KnowledgeSource } from "./knowledge-entry.js";
import { applySchema, TABLE } from "./knowledge-schema.js";
import { charLength, ftsPhrase, queryTerms, snippetOf } from "./knowledge-terms.js";

interface Row {
  id: number;
  owner: string | null;
  title: string;
  body: string;
  source: string;
  tags: string;
  ref: string | null;
  created: number;
}

/** Candidate rows kept per term; a term matching more than this ranks by the best matches only. */
const PER_TERM_CANDIDATES = 2_000;

/** What an upsert by origin did. */
export type UpsertOutcome = "imported" | "updated" | "skipped";

/** Options of one search: who asks (their private entries plus shared ones) and how many hits to return. */
export interface KnowledgeQuery {
  readonly query: string;
  readonly playerId: string | undefined;
  readonly limit: number;
}

/**
 * The knowledge base on SQLite (better-sqlite3, FTS5 trigram). Shared entries have no owner; a player's query
 * sees shared entries and its own private ones only. Terms shorter than 3 characters (which trigram cannot
 * match, e.g. `钻石`) fall back to an instr() scan. Every method throws on database errors: callers must never
 * read a failure as "nothing found".
 */
export class KnowledgeDatabase {
  private constructor(
    private readonly database: Database.Database,
    private readonly now: () => number,
  ) {}

  /** Opens (creating when missing) a database file, or `:memory:`. */
  static open(path: string, options: { readonly now?: () => number } = {}): KnowledgeDatabase {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const database = new Database(path);
    try {
      if (path !== ":memory:") database.pragma("journal_mode = WAL");
      database.pragma("busy_timeout = 2000");
      applySchema(database);
    } catch (error) {
      database.close();
      throw error;
    }
    return new KnowledgeDatabase(database, options.now ?? Date.now);
  }

  get open(): boolean {
    return this.database.open;
  }

  close(): void {
    if (this.database.open) this.database.close();
  }

  /** Runs `work` in one transaction (all or nothing). */
  transaction<T>(work: () => T): T {
    return this.database.transaction(work)();
  }

  add(draft: KnowledgeDraft): KnowledgeEntry {
    const result = this.database
      .prepare(
        `INSERT INTO ${TABLE} (owner, title, body, source, tags, ref, created) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        draft.owner ?? null,
        draft.title,
        draft.body,
        draft.source,
        JSON.stringify(draft.tags ?? []),
        draft.ref ?? null,
        this.now(),
      );
    const entry = this.get(Number(result.lastInsertRowid));
    if (entry === undefined) throw new Error("knowledge entry vanished after insert");
    return entry;
  }

  /** Adds or replaces the entry with the same owner and `ref`; an identical entry is left alone. */
  upsert(draft: KnowledgeDraft & { readonly ref: string }): UpsertOutcome {
    const existing = this.database
      .prepare(`SELECT * FROM ${TABLE} WHERE ifnull(owner, '') = ? AND ref = ?`)
      .get(draft.owner ?? "", draft.ref) as Row | undefined;
    const tags = JSON.stringify(draft.tags ?? []);
    if (existing === undefined) {
      this.add(draft);
      return "imported";
    }
    if (existing.title === draft.title && existing.body === draft.body && existing.tags === tags)
      return "skipped";
    this.database
      .prepare(`UPDATE ${TABLE} SET title = ?, body = ?, tags = ?, source = ? WHERE id = ?`)
      .run(draft.title, draft.body, tags, draft.source, existing.id);
    return "updated";
  }

  get(id: number): KnowledgeEntry | undefined {
    const row = this.database.prepare(`SELECT * FROM ${TABLE} WHERE id = ?`).get(id) as Row | undefined;
    return row === undefined ? undefined : toEntry(row);
  }

  /** Removes an entry; with `owner`, only that player's private entry. True when a row was deleted. */
  remove(id: number, owner?: string): boolean {
    const result =
      owner === undefined
        ? this.database.prepare(`DELETE FROM ${TABLE} WHERE id = ?`).run(id)
        : this.database.prepare(`DELETE FROM ${TABLE} WHERE id = ? AND owner = ?`).run(id, owner);
    return result.changes > 0;
  }

  count(): number {
    return (this.database.prepare(`SELECT count(*) AS n FROM ${TABLE}`).get() as { n: number }).n;
  }

  /** Which of these ids still exist and are visible to the player (shared or its own). */
  visible(ids: readonly number[], playerId: string | undefined): Set<number> {
    if (ids.length === 0) return new Set();
    const rows = this.database
      .prepare(
        `SELECT id FROM ${TABLE} WHERE id IN (${ids.map(() => "?").join(",")}) AND (owner IS NULL OR owner = ?)`,
      )
      .all(...ids, playerId ?? null) as { id: number }[];
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Entries matching the query, best first: entries matching every term, else entries matching at least half
   * of them; ties by FTS rank, then newest. Shared plus the player's private entries only.
   */
  search(query: KnowledgeQuery): KnowledgeHit[] {
    const terms = queryTerms(query.query);
    if (terms.length === 0 || query.limit <= 0) return [];
    const scores = new Map<number, { matched: number; rank: number }>();
    for (const term of terms) {
      for (const { id, rank } of this.#termMatches(term, query.playerId)) {
        const score = scores.get(id) ?? { matched: 0, rank: 0 };
        score.matched++;
        score.rank += rank;
        scores.set(id, score);
      }
    }
    const needed = Math.max(1, Math.ceil(terms.length / 2));
    const all = [...scores].filter(([, score]) => score.matched === terms.length);
    const pool = all.length > 0 ? all : [...scores].filter(([, score]) => score.matched >= needed);
    pool.sort(([leftId, left], [rightId, right]) =>
      right.matched !== left.matched ? right.matched - left.matched : left.rank - right.rank || rightId - leftId,
    );
    const ids = pool.slice(0, query.limit).map(([id]) => id);
    if (ids.length === 0) return [];
    const rows = this.database
      .prepare(`SELECT * FROM ${TABLE} WHERE id IN (${ids.map(() => "?").join(",")})`)
      .all(...ids) as Row[];
    const byId = new Map(rows.map((row) => [row.id, toEntry(row)]));
    return ids.flatMap((id) => {
      const entry = byId.get(id);
      return entry === undefined ? [] : [{ entry, snippet: snippetOf(entry.body, terms) }];
    });
  }

  /** The visible rows containing one term: FTS5 trigram for 3+ characters, else an instr() scan. */
  #termMatches(term: string, playerId: string | undefined): { id: number; rank: number }[] {
    if (charLength(term) >= 3)
      return this.database
        .prepare(
          `SELECT f.rowid AS id, bm25(knowledge_fts) AS rank FROM knowledge_fts f JOIN ${TABLE} k ON k.id = f.rowid
           WHERE knowledge_fts MATCH ? AND (k.owner IS NULL OR k.owner = ?) ORDER BY rank LIMIT ${PER_TERM_CANDIDATES}`,
        )
        .all(ftsPhrase(term), playerId ?? null) as { id: number; rank: number }[];
    return this.database
      .prepare(
        `SELECT id, 0 AS rank FROM ${TABLE} WHERE (owner IS NULL OR owner = ?)
         AND instr(lower(title || char(10) || body || char(10) || tags), ?) > 0 ORDER BY id DESC LIMIT ${PER_TERM_CANDIDATES}`,
      )
      .all(playerId ?? null, term) as { id: number; rank: number }[];
  }
}

const SOURCES: readonly KnowledgeSource[] = ["file", "url", "admin"];

const toEntry = (row: Row): KnowledgeEntry => ({
  id: row.id,
  title: row.title,
  body: row.body,
  source: SOURCES.includes(row.source as KnowledgeSource) ? (row.source as KnowledgeSource) : "admin",
  tags: parseTags(row.tags),
  created: row.created,
  owner: row.owner ?? undefined,
  ref: row.ref ?? undefined,
});

const parseTags = (text: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((tag): tag is string => typeof tag === "string") : [];
  } catch {
    return [];
  }
};
