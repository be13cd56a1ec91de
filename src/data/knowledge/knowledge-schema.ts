import type Database from "better-sqlite3";

/** The schema version this code writes; a database of another version is refused, never silently migrated. */
export const KNOWLEDGE_SCHEMA_VERSION = 1;

/** The shared table; a row with `owner IS NULL` is shared, a row with an owner UUID is that player's private entry. */
export const TABLE = '"system:knowledge"';

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

/** Creates the tables of an empty database, or checks the version of an existing one (throws on a mismatch). */
export const applySchema = (database: Database.Database): void => {
  const version = database.pragma("user_version", { simple: true }) as number;
  if (version !== 0 && version !== KNOWLEDGE_SCHEMA_VERSION)
    throw new Error(`schema version ${version}; this System reads version ${KNOWLEDGE_SCHEMA_VERSION}`);
  database.exec(SCHEMA);
  if (version === 0) database.pragma(`user_version = ${KNOWLEDGE_SCHEMA_VERSION}`);
};
