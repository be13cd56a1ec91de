import type Database from "better-sqlite3";
import { gramText } from "./knowledge-grams.js";

/**
 * The schema version this code writes. Version 1 (no short-term index) and version 2 (a short-term index of
 * short words only, unstemmed) are migrated on open by rebuilding the short-term index; any other version is
 * refused, never silently rewritten.
 */
export const KNOWLEDGE_SCHEMA_VERSION = 3;

/** Versions `applySchema` upgrades in place (0 is a new or pre-versioned file). */
const MIGRATED_VERSIONS: readonly number[] = [0, 1, 2];

/**
 * The short-term index: CJK 1–2 character windows and words (see gramText), kept in step by the code. Its
 * tokenizer stems English words (porter: `rules` finds `rule`, `diamond` finds `Diamonds`); CJK tokens and words
 * of 1–2 characters pass through unchanged.
 */
export const GRAMS = "knowledge_grams";

/** The shared table; a row with `owner IS NULL` is shared, a row with an owner UUID is that player's private entry. */
export const TABLE = '"system:knowledge"';

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

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${TABLE} (
  id INTEGER PRIMARY KEY,
  owner TEXT,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('file', 'url', 'admin')),
  tags TEXT NOT NULL DEFAULT '[]',
  ref TEXT,
  created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS knowledge_owner ON ${TABLE} (owner);
CREATE UNIQUE INDEX IF NOT EXISTS knowledge_ref ON ${TABLE} (ifnull(owner, ''), ref) WHERE ref IS NOT NULL;
CREATE VIRTUAL TABLE IF NOT EXISTS knowledge_fts USING fts5(
  title, body, tags, content=${TABLE}, content_rowid='id', tokenize='trigram'
);
CREATE VIRTUAL TABLE IF NOT EXISTS ${GRAMS} USING fts5(
  title, body, tags, content='', contentless_delete=1, tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS knowledge_ai AFTER INSERT ON ${TABLE} BEGIN
  INSERT INTO knowledge_fts (rowid, title, body, tags) VALUES (new.id, new.title, new.body, new.tags);
END;
CREATE TRIGGER IF NOT EXISTS knowledge_ad AFTER DELETE ON ${TABLE} BEGIN
  INSERT INTO knowledge_fts (knowledge_fts, rowid, title, body, tags) VALUES ('delete', old.id, old.title, old.body, old.tags);
END;
CREATE TRIGGER IF NOT EXISTS knowledge_au AFTER UPDATE ON ${TABLE} BEGIN
  INSERT INTO knowledge_fts (knowledge_fts, rowid, title, body, tags) VALUES ('delete', old.id, old.title, old.body, old.tags);
  INSERT INTO knowledge_fts (rowid, title, body, tags) VALUES (new.id, new.title, new.body, new.tags);
END;
`;

/**
 * Creates the tables of an empty database, upgrades a version-1 or version-2 one ((re)building the short-term
 * index from every stored entry, in one transaction: on failure the file stays at its version), or checks the
 * version of a current one. Throws on an unknown version.
 */
export const applySchema = (database: Database.Database): void => {
  const version = database.pragma("user_version", { simple: true }) as number;
  if (version === KNOWLEDGE_SCHEMA_VERSION) {
    database.exec(SCHEMA);
    return;
  }
  if (!MIGRATED_VERSIONS.includes(version))
    throw new Error(`schema version ${version}; this System reads version ${KNOWLEDGE_SCHEMA_VERSION}`);
  database.transaction(() => {
    // Rebuilt from the entries: version 2's index had another tokenizer (no stemming) and short words only.
    database.exec(`DROP TABLE IF EXISTS ${GRAMS}`);
    database.exec(SCHEMA);
    const insert = database.prepare(`INSERT INTO ${GRAMS} (rowid, title, body, tags) VALUES (?, ?, ?, ?)`);
    const page = database.prepare(
      `SELECT id, title, body, tags FROM ${TABLE} WHERE id > ? ORDER BY id LIMIT 1000`,
    );
    let after = 0;
    for (;;) {
      const rows = page.all(after) as { id: number; title: string; body: string; tags: string }[];
      for (const row of rows) insert.run(row.id, gramText(row.title), gramText(row.body), gramText(row.tags));
      const last = rows.at(-1);
      if (last === undefined) break;
      after = last.id;
    }
    database.pragma(`user_version = ${KNOWLEDGE_SCHEMA_VERSION}`);
  })();
};
