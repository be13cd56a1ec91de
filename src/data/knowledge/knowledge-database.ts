import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { CorruptFileError } from "../../util/corrupt-file-error.js";
import type { KnowledgeDraft, KnowledgeEntry, KnowledgeHit, KnowledgeSource } from "./knowledge-entry.js";
import { gramText } from "./knowledge-grams.js";
import { applySchema, GRAMS, type KnowledgeRow, TABLE } from "./knowledge-schema.js";
import { KnowledgeSearch } from "./knowledge-search.js";
import { snippetOf } from "./knowledge-terms.js";

type Row = KnowledgeRow;

/** What an upsert by origin did. */
export type UpsertOutcome = "imported" | "updated" | "skipped";

/** Options of one search: who asks (their private entries plus shared ones) and how many hits to return. */
export interface KnowledgeQuery {
  readonly query: string;
  readonly playerId: string | undefined;
  readonly limit: number;
}

/**
 * The knowledge base on SQLite (better-sqlite3, FTS5). Shared entries have no owner; a player's query sees
 * shared entries and its own private ones only. Words and CJK terms use the short-term index of CJK 1–2
 * character windows and stemmed words, which every write here keeps in step in the same transaction; other
 * terms of 3+ characters, and words inside longer words, use a trigram index (see KnowledgeSearch). Every method
 * throws on database errors: callers must never read a failure as "nothing found".
 */
export class KnowledgeDatabase {
  readonly #search: KnowledgeSearch;
  readonly #insert: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #insertGrams: Database.Statement;
  readonly #deleteGrams: Database.Statement;

  private constructor(
    private readonly database: Database.Database,
    private readonly now: () => number,
  ) {
    this.#search = new KnowledgeSearch(database);
    this.#insert = database.prepare(
      `INSERT INTO ${TABLE} (owner, title, body, source, tags, ref, created) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#byId = database.prepare(`SELECT * FROM ${TABLE} WHERE id = ?`);
    this.#insertGrams = database.prepare(
      `INSERT INTO ${GRAMS} (rowid, title, body, tags) VALUES (?, ?, ?, ?)`,
    );
    this.#deleteGrams = database.prepare(`DELETE FROM ${GRAMS} WHERE rowid = ?`);
  }

  /**
   * Opens (creating when missing) a database file, or `:memory:`. A file that is not a readable knowledge
   * database (damaged, not SQLite, an unknown schema version) throws a CorruptFileError naming it; it is not
   * modified. A version-1 or version-2 file is upgraded in place (its short-term index is rebuilt from the stored
   * entries).
   */
  static open(path: string, options: { readonly now?: () => number } = {}): KnowledgeDatabase {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const existing = path !== ":memory:" && existsSync(path) && statSync(path).size > 0;
    let database: Database.Database | undefined;
    let step = "open";
    try {
      database = new Database(path);
      database.pragma("busy_timeout = 2000");
      // an existing file is checked before anything is written to it (WAL mode, the schema)
      if (existing) {
        const check = database.pragma("quick_check", { simple: true });
        if (check !== "ok") throw new Error(String(check));
      }
      step = "write";
      if (path !== ":memory:") database.pragma("journal_mode = WAL");
      applySchema(database);
    } catch (error) {
      database?.close();
      const problem = error instanceof Error ? error.message : String(error);
      const kept = existing && step === "open" ? keepCopy(path, options.now ?? Date.now) : undefined;
      throw new CorruptFileError(
        path,
        `knowledge database ${path} is unreadable (${problem})${kept === undefined ? "" : `; a copy is kept at ${kept}`}`,
        { cause: error },
      );
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
    return this.transaction(() => {
      const tags = JSON.stringify(draft.tags ?? []);
      const result = this.#insert.run(
        draft.owner ?? null,
        draft.title,
        draft.body,
        draft.source,
        tags,
        draft.ref ?? null,
        this.now(),
      );
      const id = Number(result.lastInsertRowid);
      this.#indexGrams(id, draft.title, draft.body, tags);
      const entry = this.get(id);
      if (entry === undefined) throw new Error("knowledge entry vanished after insert");
      return entry;
    });
  }

  /** Adds or replaces the entry with the same owner and `ref`; an identical entry is left alone. */
  upsert(draft: KnowledgeDraft & { readonly ref: string }): UpsertOutcome {
    return this.transaction(() => this.#upsert(draft));
  }

  #upsert(draft: KnowledgeDraft & { readonly ref: string }): UpsertOutcome {
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
    this.#deleteGrams.run(existing.id);
    this.#indexGrams(existing.id, draft.title, draft.body, tags);
    return "updated";
  }

  get(id: number): KnowledgeEntry | undefined {
    const row = this.#byId.get(id) as Row | undefined;
    return row === undefined ? undefined : toEntry(row);
  }

  /** Removes an entry; with `owner`, only that player's private entry. True when a row was deleted. */
  remove(id: number, owner?: string): boolean {
    return this.transaction(() => {
      const result =
        owner === undefined
          ? this.database.prepare(`DELETE FROM ${TABLE} WHERE id = ?`).run(id)
          : this.database.prepare(`DELETE FROM ${TABLE} WHERE id = ? AND owner = ?`).run(id, owner);
      if (result.changes > 0) this.#deleteGrams.run(id);
      return result.changes > 0;
    });
  }

  #indexGrams(id: number, title: string, body: string, tags: string): void {
    this.#insertGrams.run(id, gramText(title), gramText(body), gramText(tags));
  }

  count(): number {
    return (this.database.prepare(`SELECT count(*) AS n FROM ${TABLE}`).get() as { n: number }).n;
  }

  /** Entries in id order after `after`, at most `limit`. */
  list(options: { readonly after: number; readonly limit: number }): KnowledgeEntry[] {
    const rows = this.database
      .prepare(`SELECT * FROM ${TABLE} WHERE id > ? ORDER BY id LIMIT ?`)
      .all(options.after, options.limit) as Row[];
    return rows.map(toEntry);
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
   * Entries matching the query, best first (see KnowledgeSearch): shared plus the player's private entries only.
   */
  search(query: KnowledgeQuery): KnowledgeHit[] {
    const { terms, rows } = this.#search.run(query.query, query.playerId, query.limit);
    return rows.map((row) => {
      const entry = toEntry(row);
      return { entry, snippet: snippetOf(entry.body, terms) };
    });
  }
}

const SOURCES: readonly KnowledgeSource[] = ["file", "url", "admin"];

/** A stored row as an entry (both backends read rows of the same shape). */
export const toEntry = (row: Row): KnowledgeEntry => ({
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

/**
 * Copies a damaged database file to `<file>.corrupt-<time>` beside it (the file itself is left as it is), unless
 * an identical copy is already kept: a server that restarts over the same damage keeps one copy. Returns it.
 */
const keepCopy = (path: string, now: () => number): string | undefined => {
  try {
    const bytes = readFileSync(path);
    const prefix = `${basename(path)}.corrupt-`;
    for (const name of readdirSync(dirname(path)))
      if (name.startsWith(prefix) && readFileSync(join(dirname(path), name)).equals(bytes))
        return join(dirname(path), name);
    let copy = `${path}.corrupt-${now()}`;
    for (let attempt = 1; existsSync(copy); attempt++) copy = `${path}.corrupt-${now()}-${attempt}`;
    copyFileSync(path, copy);
    return copy;
  } catch {
    return undefined;
  }
};
