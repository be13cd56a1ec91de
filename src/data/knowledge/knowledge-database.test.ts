import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { CorruptFileError } from "../../util/corrupt-file-error.js";
import { KnowledgeAdmin } from "./knowledge-admin.js";
import { KnowledgeDatabase } from "./knowledge-database.js";

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

  it("admins add and remove entries; removed entries are no longer found", () => {
    const database = KnowledgeDatabase.open(":memory:");
    const admin = new KnowledgeAdmin(database);
    const added = admin.add({ title: "Spawn", body: "Spawn is at 0 64 0.", tags: ["spawn"] });
    expect(added.success).toBe(true);
    if (!added.success) return;
    expect(database.search({ query: "spawn", playerId: BOB, limit: 5 })).toHaveLength(1);
    expect(admin.remove(added.value.id)).toEqual({ success: true, value: true });
    expect(database.search({ query: "spawn", playerId: BOB, limit: 5 })).toHaveLength(0);
    expect(admin.remove(added.value.id)).toEqual({ success: true, value: false });
    expect(admin.add({ title: " ", body: "x" }).success).toBe(false);
  });

  it("throws on database errors instead of returning nothing", () => {
    const database = seeded();
    database.close();
    expect(() => database.search({ query: "钻石", playerId: BOB, limit: 5 })).toThrow();
  });

  it("refuses a database of an unknown schema version", () => {
    folder = mkdtempSync(join(tmpdir(), "knowledge-"));
    const path = join(folder, "k.sqlite");
    const raw = new Database(path);
    raw.pragma("user_version = 99");
    raw.close();
    expect(() => KnowledgeDatabase.open(path)).toThrow(/schema version 99/);
  });

  it("refuses a file that is not a database with one line naming it, and leaves it untouched", () => {
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
    expect((error as Error).message).toBe(
      `knowledge database ${path} is unreadable (file is not a database)`,
    );
    expect(readFileSync(path)).toEqual(garbage);
    expect(readdirSync(folder)).toEqual(["knowledge.sqlite"]);
  });
});
