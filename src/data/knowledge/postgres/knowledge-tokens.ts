import Database from "better-sqlite3";
import { gramText } from "../knowledge-grams.js";

/** An entry's short-term index tokens: how often each occurs over title, body and tags, and how many in all. */
export interface EntryTokens {
  readonly hits: ReadonlyMap<string, number>;
  readonly length: number;
}

/**
 * The tokens the embedded short-term index holds, made by the same tokenizer: gramText (CJK 1–2 character
 * windows, words) run through SQLite FTS5's `porter unicode61` in a private in-memory table and read back with
 * fts5vocab. Using SQLite's own tokenizer (not a port of it) is what keeps stemming, case and diacritic folding
 * identical on both backends, so the same queries find the same entries.
 */
export class KnowledgeTokenizer {
  readonly #database: Database.Database;
  readonly #insert: Database.Statement;
  readonly #read: Database.Statement;
  readonly #delete: Database.Statement;

  constructor() {
    this.#database = new Database(":memory:");
    this.#database.exec(
      `CREATE VIRTUAL TABLE grams USING fts5(text, content='', contentless_delete=1, tokenize='porter unicode61');
       CREATE VIRTUAL TABLE grams_instance USING fts5vocab(grams, 'instance');`,
    );
    this.#insert = this.#database.prepare("INSERT INTO grams (rowid, text) VALUES (1, ?)");
    this.#read = this.#database.prepare("SELECT term FROM grams_instance WHERE doc = 1 ORDER BY offset");
    this.#delete = this.#database.prepare("DELETE FROM grams WHERE rowid = 1");
  }

  /** The index tokens of raw text already in short-term index form (space-separated grams), in order. */
  tokens(grams: string): string[] {
    if (grams.trim().length === 0) return [];
    this.#insert.run(grams);
    try {
      return this.#read.pluck().all() as string[];
    } finally {
      this.#delete.run();
    }
  }

  /** The tokens of one entry (title, body and the tags' JSON text, as the embedded index stores them). */
  entry(fields: { readonly title: string; readonly body: string; readonly tags: string }): EntryTokens {
    const hits = new Map<string, number>();
    let length = 0;
    for (const field of [fields.title, fields.body, fields.tags])
      for (const token of this.tokens(gramText(field))) {
        hits.set(token, (hits.get(token) ?? 0) + 1);
        length++;
      }
    return { hits, length };
  }

  close(): void {
    this.#database.close();
  }
}

/**
 * Tokens of the embedded trigram index for one entry: a column of n characters holds n − 2 (none below 3),
 * summed over title, body and tags. Its totals give the mean length the substring ranking uses.
 */
export const trigramLength = (fields: {
  readonly title: string;
  readonly body: string;
  readonly tags: string;
}): number =>
  [fields.title, fields.body, fields.tags].reduce(
    (sum, field) => sum + Math.max(0, [...field].length - 2),
    0,
  );

/** The text substring checks run on: title, body and tags lower-cased, as the ranking reads a row. */
export const haystackOf = (fields: {
  readonly title: string;
  readonly body: string;
  readonly tags: string;
}): string => `${fields.title}\n${fields.body}\n${fields.tags}`.toLowerCase();
