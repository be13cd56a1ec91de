import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { CorruptFileError } from "../../util/corrupt-file-error.js";
import { KnowledgeAdmin } from "./knowledge-admin.js";
import { KnowledgeDatabase } from "./knowledge-database.js";
import { KNOWLEDGE_SCHEMA_VERSION } from "./knowledge-schema.js";
import { CANDIDATES } from "./knowledge-search.js";
import { SqliteKnowledgeStore } from "./sqlite-knowledge-store.js";

const ALICE = "00000000-0000-4000-8000-00000000000a";
const BOB = "00000000-0000-4000-8000-00000000000b";

const seeded = (): KnowledgeDatabase => {
  const database = KnowledgeDatabase.open(":memory:");
  database.add({ title: "钻石", body: "钻石矿石在深板岩层最常见，用铁镐或更好的镐挖掘。", source: "file" });
  database.add({
    title: "Netherite",
    body: "Smelt ancient debris into netherite scrap; combine four scraps with four gold ingots.",
    source: "file",
  });
  database.add({
    title: "下界合金锭",
    body: "远古残骸熔炼得到下界合金碎片。",
    source: "admin",
    tags: ["nether"],
  });
  database.add({
    title: "Alice's base",
    body: "My diamond stash is behind the waterfall.",
    source: "admin",
    owner: ALICE,
  });
  return database;
};

describe("KnowledgeDatabase", () => {
  let folder: string | undefined;
  afterEach(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it("finds a 2-character Chinese term that trigram alone cannot match", () => {
    const database = seeded();
    const hits = database.search({ query: "钻石", playerId: BOB, limit: 5 });
    expect(hits.map((hit) => hit.entry.title)).toEqual(["钻石"]);
    expect(hits[0]?.snippet).toContain("钻石");
  });

  it("matches Chinese phrases of 3+ characters and English words through FTS5", () => {
    const database = seeded();
    expect(
      database.search({ query: "远古残骸", playerId: BOB, limit: 5 }).map((hit) => hit.entry.title),
    ).toEqual(["下界合金锭"]);
    expect(
      database.search({ query: "how do I get NETHERITE", playerId: BOB, limit: 5 })[0]?.entry.title,
    ).toBe("Netherite");
    expect(database.search({ query: "钻石怎么获得", playerId: BOB, limit: 5 })[0]?.entry.title).toBe("钻石");
  });

  it("shows a player shared entries and its own private ones only", () => {
    const database = seeded();
    expect(
      database.search({ query: "diamond stash", playerId: ALICE, limit: 5 }).map((hit) => hit.entry.owner),
    ).toEqual([ALICE]);
    expect(database.search({ query: "diamond stash", playerId: BOB, limit: 5 })).toEqual([]);
    expect(database.search({ query: "waterfall", playerId: undefined, limit: 5 })).toEqual([]);
  });

  it("treats FTS syntax in queries as text", () => {
    const database = seeded();
    expect(() =>
      database.search({ query: 'NEAR(" OR * ") AND title:', playerId: BOB, limit: 5 }),
    ).not.toThrow();
  });

  it("upserts by origin: imported, skipped when identical, updated when changed", () => {
    const database = KnowledgeDatabase.open(":memory:");
    const draft = { title: "Rules", body: "Be nice.", source: "file" as const, ref: "rules.md" };
    expect(database.upsert(draft)).toBe("imported");
    expect(database.upsert(draft)).toBe("skipped");
    expect(database.upsert({ ...draft, body: "Be very nice." })).toBe("updated");
    expect(database.count()).toBe(1);
    expect(database.search({ query: "very nice", playerId: undefined, limit: 1 })[0]?.entry.body).toBe(
      "Be very nice.",
    );
  });

  it("admins add and remove entries; removed entries are no longer found", async () => {
    const database = KnowledgeDatabase.open(":memory:");
    const admin = new KnowledgeAdmin(new SqliteKnowledgeStore(database, ":memory:"));
    const added = await admin.add({ title: "Spawn", body: "Spawn is at 0 64 0.", tags: ["spawn"] });
    expect(added.success).toBe(true);
    if (!added.success) return;
    expect(database.search({ query: "spawn", playerId: BOB, limit: 5 })).toHaveLength(1);
    expect(await admin.remove(added.value.id)).toEqual({ success: true, value: true });
    expect(database.search({ query: "spawn", playerId: BOB, limit: 5 })).toHaveLength(0);
    expect(await admin.remove(added.value.id)).toEqual({ success: true, value: false });
    expect((await admin.add({ title: " ", body: "x" })).success).toBe(false);
  });

  it("throws on database errors instead of returning nothing", () => {
    const database = seeded();
    database.close();
    expect(() => database.search({ query: "钻石", playerId: BOB, limit: 5 })).toThrow();
  });

  it("keeps the short-term index in step when an entry is updated or removed", () => {
    const database = KnowledgeDatabase.open(":memory:");
    const draft = { title: "商店", body: "出售钻石和铁锭。", source: "file" as const, ref: "shop.md" };
    database.upsert(draft);
    const titles = (query: string): string[] =>
      database.search({ query, playerId: BOB, limit: 5 }).map((hit) => hit.entry.title);
    expect(titles("钻石")).toEqual(["商店"]);
    expect(database.upsert({ ...draft, body: "出售金锭。" })).toBe("updated");
    expect(titles("钻石")).toEqual([]);
    expect(titles("金锭")).toEqual(["商店"]);
    const id = database.search({ query: "金锭", playerId: BOB, limit: 1 })[0]?.entry.id ?? -1;
    expect(database.remove(id)).toBe(true);
    expect(titles("金锭")).toEqual([]);
  });

  it("upgrades a version-1 file in place and indexes its stored entries for short terms", () => {
    folder = mkdtempSync(join(tmpdir(), "knowledge-"));
    const path = join(folder, "knowledge.sqlite");
    const raw = new Database(path);
    raw.exec(VERSION_1_SCHEMA);
    const insert = raw.prepare(
      `INSERT INTO "system:knowledge" (owner, title, body, source, tags, created) VALUES (?, ?, ?, 'file', '[]', 1)`,
    );
    insert.run(null, "钻石", "钻石矿石在深板岩层最常见。");
    insert.run(null, "Teleporting", "Use /tp to reach a friend.");
    insert.run(ALICE, "Alice's notes", "我的钻石藏在瀑布后面。");
    raw.pragma("user_version = 1");
    raw.close();

    const database = KnowledgeDatabase.open(path);
    expect(database.count()).toBe(3);
    expect(database.search({ query: "钻石", playerId: BOB, limit: 5 }).map((hit) => hit.entry.title)).toEqual(
      ["钻石"],
    );
    expect(database.search({ query: "钻石", playerId: ALICE, limit: 5 })).toHaveLength(2);
    expect(database.search({ query: "tp", playerId: BOB, limit: 5 })[0]?.entry.title).toBe("Teleporting");
    database.close();
    const reopened = new Database(path, { readonly: true });
    expect(reopened.pragma("user_version", { simple: true })).toBe(KNOWLEDGE_SCHEMA_VERSION);
    reopened.close();
    expect(KnowledgeDatabase.open(path).search({ query: "深板岩", playerId: BOB, limit: 5 })).toHaveLength(1);
  });

  it("upgrades a version-2 file in place: the short-term index is rebuilt with every word, stemmed", () => {
    folder = mkdtempSync(join(tmpdir(), "knowledge-"));
    const path = join(folder, "knowledge.sqlite");
    const raw = new Database(path);
    raw.exec(VERSION_1_SCHEMA);
    raw.exec(VERSION_2_GRAMS);
    const insert = raw.prepare(
      `INSERT INTO "system:knowledge" (owner, title, body, source, tags, created) VALUES (?, ?, ?, 'file', '[]', 1)`,
    );
    const grams = raw.prepare("INSERT INTO knowledge_grams (rowid, title, body, tags) VALUES (?, ?, ?, '')");
    // What version 2 wrote: CJK windows and words of 1–2 characters only.
    grams.run(
      insert.run(null, "钻石", "钻石矿石在深板岩层最常见。").lastInsertRowid,
      "钻 钻石 石",
      "钻 钻石 石",
    );
    grams.run(
      insert.run(null, "Server rule", "One rule: no griefing, or a ban.").lastInsertRowid,
      "",
      "no or a",
    );
    grams.run(
      insert.run(ALICE, "Alice's notes", "My netherite is in the chest.").lastInsertRowid,
      "s",
      "my is in",
    );
    raw.pragma("user_version = 2");
    raw.close();

    const database = KnowledgeDatabase.open(path);
    expect(database.search({ query: "钻石", playerId: BOB, limit: 5 }).map((hit) => hit.entry.title)).toEqual(
      ["钻石"],
    );
    // "rules" finds "rule" only through the rebuilt, stemmed index (the trigram index has no "rules").
    expect(
      database.search({ query: "rules", playerId: BOB, limit: 5 }).map((hit) => hit.entry.title),
    ).toEqual(["Server rule"]);
    expect(database.search({ query: "netherite", playerId: ALICE, limit: 5 })).toHaveLength(1);
    expect(database.search({ query: "netherite", playerId: BOB, limit: 5 })).toHaveLength(0);
    database.close();
    const reopened = new Database(path, { readonly: true });
    expect(reopened.pragma("user_version", { simple: true })).toBe(KNOWLEDGE_SCHEMA_VERSION);
    const grammar = reopened
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'knowledge_grams'")
      .pluck()
      .get();
    expect(grammar).toContain("porter");
    expect(
      reopened
        .prepare("SELECT rowid FROM knowledge_grams WHERE knowledge_grams MATCH 'griefing'")
        .pluck()
        .all(),
    ).toEqual([2]);
    reopened.close();
  });

  it("finds English words by stem, and inside longer words when whole words are too few", () => {
    const database = KnowledgeDatabase.open(":memory:");
    database.add({ title: "Redstone dust", body: "Redstone carries a signal.", source: "file" });
    database.add({ title: "Stone tools", body: "Stone pickaxes mine iron.", source: "file" });
    database.add({ title: "Mining", body: "Mine diamonds with an iron pickaxe.", source: "file" });
    const titles = (query: string, limit = 5): string[] =>
      database.search({ query, playerId: BOB, limit }).map((hit) => hit.entry.title);
    // Whole words first, then the entry holding the word inside another.
    expect(titles("stone")).toEqual(["Stone tools", "Redstone dust"]);
    expect(titles("stone", 1)).toEqual(["Stone tools"]);
    expect(titles("pickaxe")).toEqual(["Stone tools", "Mining"]);
    expect(titles("diamond pickaxe")).toEqual(["Mining"]);
    expect(titles("mining")).toEqual(["Mining", "Stone tools"]);
  });

  it("ranks a common term within its newest matches and never shows another player's entries", () => {
    const database = KnowledgeDatabase.open(":memory:");
    const filler = "A long paragraph about building walls, roofs, floors and doors with many blocks.";
    database.transaction(() => {
      for (let index = 0; index < CANDIDATES + 50; index++)
        database.add({ title: `Note ${index}`, body: `${filler} One redstone line.`, source: "file" });
      database.add({ title: "Private", body: "redstone redstone redstone", source: "admin", owner: ALICE });
      database.add({
        title: "Redstone guide",
        body: "Redstone dust, redstone torches and repeaters.",
        source: "file",
      });
      database.add({ title: "Newest", body: `${filler} Redstone once.`, source: "file" });
    });
    const titles = (playerId: string | undefined): string[] =>
      database.search({ query: "redstone", playerId, limit: 3 }).map((hit) => hit.entry.title);
    expect(titles(BOB)[0]).toBe("Redstone guide");
    expect(titles(BOB)).toHaveLength(3);
    expect(titles(BOB)).not.toContain("Private");
    expect(titles(ALICE)[0]).toBe("Private");
    // The mixed path (a long CJK term with a short one) and the trigram path (punctuation inside) rank too.
    database.add({ title: "末影龙", body: "末影龙掉落龙蛋，击败末影龙后去末地城找鞘翅。", source: "file" });
    database.add({ title: "日记", body: "今天看到了末影龙和鞘翅。", source: "file" });
    expect(
      database.search({ query: "末影龙 鞘翅", playerId: BOB, limit: 5 }).map((hit) => hit.entry.title),
    ).toEqual(["末影龙", "日记"]);
    database.add({
      title: "Update 1.20",
      body: "Version 1.20 adds cherry trees; 1.20 also adds camels.",
      source: "file",
    });
    database.add({ title: "Changelog", body: "Since 1.20 the server runs faster.", source: "file" });
    expect(database.search({ query: "1.20", playerId: BOB, limit: 5 }).map((hit) => hit.entry.title)).toEqual(
      ["Update 1.20", "Changelog"],
    );
  });

  it("refuses a database of an unknown schema version", () => {
    folder = mkdtempSync(join(tmpdir(), "knowledge-"));
    const path = join(folder, "k.sqlite");
    const raw = new Database(path);
    raw.pragma("user_version = 99");
    raw.close();
    expect(() => KnowledgeDatabase.open(path)).toThrow(/schema version 99/);
  });

  it("refuses a file that is not a database with one line naming it, leaves it untouched and keeps a copy", () => {
    folder = mkdtempSync(join(tmpdir(), "knowledge-"));
    const path = join(folder, "knowledge.sqlite");
    const garbage = Buffer.from(Array.from({ length: 8192 }, (_, index) => (index * 197 + 3) % 256));
    writeFileSync(path, garbage);
    let error: unknown;
    try {
      KnowledgeDatabase.open(path);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CorruptFileError);
    const copies = readdirSync(folder).filter((name) => name.startsWith("knowledge.sqlite.corrupt-"));
    expect(copies).toHaveLength(1);
    const copy = join(folder, copies[0] ?? "");
    expect((error as Error).message).toBe(
      `knowledge database ${path} is unreadable (file is not a database); a copy is kept at ${copy}`,
    );
    expect(readFileSync(path)).toEqual(garbage);
    expect(readFileSync(copy)).toEqual(garbage);
    // opened again over the same damage: still one copy
    expect(() => KnowledgeDatabase.open(path)).toThrow(copy);
    expect(readdirSync(folder).sort()).toEqual(["knowledge.sqlite", copies[0] ?? ""]);
  });

  it("checks a truncated database before writing anything to it: refused, untouched, a copy kept", () => {
    folder = mkdtempSync(join(tmpdir(), "knowledge-"));
    const path = join(folder, "knowledge.sqlite");
    const database = KnowledgeDatabase.open(path);
    for (let index = 0; index < 400; index++)
      database.add({ title: `Entry ${index}`, body: `body ${index} `.repeat(40), source: "admin" });
    database.close();
    const whole = readFileSync(path);
    const truncated = whole.subarray(0, Math.floor(whole.length / 2 / 4096) * 4096);
    writeFileSync(path, truncated);
    expect(() => KnowledgeDatabase.open(path)).toThrow(CorruptFileError);
    expect(readFileSync(path)).toEqual(truncated);
    const kept = folder;
    const copies = readdirSync(kept).filter((name) => name.startsWith("knowledge.sqlite.corrupt-"));
    expect(copies.map((name) => readFileSync(join(kept, name)))).toEqual([truncated]);
  });
});

/** The schema the previous release wrote (version 1): the table and its trigram index, no short-term index. */
const VERSION_1_SCHEMA = `
CREATE TABLE "system:knowledge" (
  id INTEGER PRIMARY KEY, owner TEXT, title TEXT NOT NULL, body TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('file', 'url', 'admin')), tags TEXT NOT NULL DEFAULT '[]', ref TEXT,
  created INTEGER NOT NULL
);
CREATE INDEX knowledge_owner ON "system:knowledge" (owner);
CREATE UNIQUE INDEX knowledge_ref ON "system:knowledge" (ifnull(owner, ''), ref) WHERE ref IS NOT NULL;
CREATE VIRTUAL TABLE knowledge_fts USING fts5(
  title, body, tags, content="system:knowledge", content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER knowledge_ai AFTER INSERT ON "system:knowledge" BEGIN
  INSERT INTO knowledge_fts (rowid, title, body, tags) VALUES (new.id, new.title, new.body, new.tags);
END;
`;

/** The short-term index version 2 added (unicode61, no stemming; it held CJK windows and 1–2 character words). */
const VERSION_2_GRAMS = `
CREATE VIRTUAL TABLE knowledge_grams USING fts5(
  title, body, tags, content='', contentless_delete=1, tokenize='unicode61'
);
`;
