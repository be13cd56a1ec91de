import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KnowledgeDatabase } from "./knowledge-database.js";
import { importKnowledge, summaryLine } from "./knowledge-import.js";
import { ProgressBar } from "./progress-bar.js";
import { SqliteKnowledgeStore } from "./sqlite-knowledge-store.js";

class Capture {
  text = "";
  constructor(readonly isTTY: boolean) {}
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const memoryStore = () => new SqliteKnowledgeStore(KnowledgeDatabase.open(":memory:"), ":memory:");

describe("importKnowledge", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "knowledge-import-"));
    mkdirSync(join(folder, "guides"));
    writeFileSync(
      join(folder, "guides", "diamonds.md"),
      "<!-- intro -->\n# 钻石指南\n\n钻石在 Y=-58 附近最多。\n",
    );
    writeFileSync(join(folder, "server_rules.txt"), "No griefing. Be kind.");
    writeFileSync(
      join(folder, "faq.json"),
      JSON.stringify([
        { title: "Spawn", body: "Spawn is at 0 64 0.", tags: ["spawn"] },
        { title: "Shop", body: "Use /shop to buy things." },
      ]),
    );
    writeFileSync(join(folder, "broken.json"), "{ not json");
    writeFileSync(join(folder, "ignored.png"), "binary");
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("imports Markdown, text and JSON, then skips unchanged and updates changed files", async () => {
    const database = KnowledgeDatabase.open(":memory:");
    const store = new SqliteKnowledgeStore(database, ":memory:");
    const first = await importKnowledge({ store, folder });
    expect(summaryLine(first)).toBe("imported 4, updated 0, skipped 0, failed 1");
    expect(first.failures).toEqual([{ file: "broken.json", reason: "not valid JSON" }]);
    const diamonds = database.search({ query: "钻石", playerId: undefined, limit: 5 })[0]?.entry;
    expect(diamonds?.title).toBe("钻石指南");
    expect(diamonds?.body).toBe("<!-- intro -->\n\n钻石在 Y=-58 附近最多。");
    expect(database.search({ query: "griefing", playerId: undefined, limit: 5 })[0]?.entry.title).toBe(
      "server rules",
    );
    expect(database.search({ query: "spawn", playerId: undefined, limit: 5 })[0]?.entry.tags).toEqual([
      "spawn",
    ]);

    writeFileSync(join(folder, "server_rules.txt"), "No griefing. Be kind. No lava.");
    const second = await importKnowledge({ store, folder });
    expect(summaryLine(second)).toBe("imported 0, updated 1, skipped 3, failed 1");
    expect(database.count()).toBe(4);
  });

  it("draws a progress bar on a TTY and stays silent on a pipe", async () => {
    const tty = new Capture(true);
    await importKnowledge({ store: memoryStore(), folder, progress: tty });
    expect(tty.text).toContain("\r");
    expect(tty.text).toContain("4/4");
    const pipe = new Capture(false);
    await importKnowledge({ store: memoryStore(), folder, progress: pipe });
    expect(pipe.text).toBe("");
    const bar = new ProgressBar(new Capture(true), 0, "x");
    expect(() => bar.update(0)).not.toThrow();
  });

  it("runs as `system knowledge import <dir> --db <path>` and prints the summary", () => {
    const path = join(folder, "out", "knowledge.sqlite");
    const run = spawnSync(process.execPath, ["bin/system.js", "knowledge", "import", folder, "--db", path], {
      cwd: join(import.meta.dirname, "..", "..", ".."),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stdout).toContain("imported 4, updated 0, skipped 0, failed 1");
    expect(run.stderr).toContain("failed: broken.json");
    expect(run.status).toBe(1);
    const database = KnowledgeDatabase.open(path);
    expect(database.count()).toBe(4);
    database.close();
    const usage = spawnSync(process.execPath, ["bin/system.js", "knowledge", "import"], {
      cwd: join(import.meta.dirname, "..", "..", ".."),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("usage: system knowledge import");
  });
});
