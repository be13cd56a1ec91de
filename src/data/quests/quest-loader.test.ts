import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { questsCommand } from "./quest-inspect.js";
import { findQuestFolder, loadQuestBook, tableHex } from "./quest-loader.js";

const FIXTURES = join(import.meta.dirname, "../../../test/fixtures/ftbquests");
const SAMPLE_120 = join(FIXTURES, "ftbquests-sample");

describe("loading real FTB Quests folders", () => {
  it("reads a 1.21 pack whose text is in lang files, with zh_cn as its fallback and an empty en_us", () => {
    const { book, errors } = loadQuestBook(join(FIXTURES, "create-applied-machine"));
    expect(errors).toEqual([]);
    expect(book.counts()).toEqual({ chapters: 10, quests: 34, tasks: 39, rewards: 44, rewardTables: 2 });
    expect(book.fallbackLocale).toBe("zh_cn");
    const chapter = book.chapters.get("009538220FFF7111");
    // en_us is `{ }`: an English player reads the pack's fallback, zh_cn
    expect(book.text(chapter?.title ?? { key: "" }, "en_us")).toBe("终点");
    const quest = book.quests.get("010DE5A14EE35401");
    expect(book.lines(quest?.description ?? { key: "" }, "en_us")[0]).toBe(
      "右键魂符可以召唤/收回女仆(魂符不可合成,一定要留好)",
    );
    // table_id is the table's hex id as a signed decimal long; the leading zero is kept
    const choice = book.quests.get("0EC79B000B04FFF1")?.rewards[0];
    expect(choice).toMatchObject({ type: "choice", table: "01FF66BACD2BF975" });
    expect(book.rewardTables.has("01FF66BACD2BF975")).toBe(true);
  });

  it("reads a 1.21 pack with page breaks and reward tables whose entries have no type", () => {
    const { book, errors } = loadQuestBook(join(FIXTURES, "flywheel-new-continent"));
    expect(errors).toEqual([]);
    expect(book.counts()).toMatchObject({
      chapters: 4,
      quests: 41,
      tasks: 120,
      rewards: 75,
      rewardTables: 2,
    });
    const loot = [...book.quests.values()]
      .flatMap((quest) => quest.rewards)
      .find((reward) => reward.type === "loot");
    expect(loot?.table).toBe("3B558FF0C957C03E");
    expect(book.rewardTables.get("3B558FF0C957C03E")?.entries.every((entry) => entry.type === "item")).toBe(
      true,
    );
    for (const quest of book.quests.values())
      for (const line of book.lines(quest.description, "zh_cn"))
        expect(line).not.toMatch(/\{@pagebreak\}|&[0-9a-f]/);
  });

  it("reads a 1.20 pack with inline Chinese text and a 1.16 pack with commas and {id, Count, tag} items", () => {
    const modern = loadQuestBook(SAMPLE_120);
    expect(modern.errors).toEqual([]);
    expect(modern.book.counts()).toEqual({
      chapters: 22,
      quests: 499,
      tasks: 670,
      rewards: 115,
      rewardTables: 3,
    });
    const old = loadQuestBook(join(FIXTURES, "garden-of-glass-qe"));
    expect(old.errors).toEqual([]);
    const consumed = [...old.book.quests.values()]
      .flatMap((quest) => quest.tasks)
      .filter((task) => task.consumeItems);
    expect(consumed.length).toBeGreaterThan(0);
    expect(old.book.quests.size).toBe(17);
  });

  it("converts table links: a positive long and a negative one", () => {
    expect(tableHex(101n)).toBe("0000000000000065");
    expect(tableHex(-1n)).toBe("FFFFFFFFFFFFFFFF");
  });

  it("reports a broken chapter with file and line and still loads the others; inspect prints it as JSON", () => {
    const folder = mkdtempSync(join(tmpdir(), "quests-"));
    cpSync(join(FIXTURES, "create-applied-machine"), folder, { recursive: true });
    writeFileSync(
      join(folder, "chapters", "broken.snbt"),
      '{\n\tid: "00000000000000AA"\n\tquests: [\n\t\t{ id: "B" \n',
    );
    const { book, errors } = loadQuestBook(folder);
    expect(book.counts().chapters).toBe(10);
    expect(errors).toEqual([
      { file: "chapters/broken.snbt", line: 4, message: expect.stringContaining("not closed") },
    ]);
    const out: string[] = [];
    const code = questsCommand(["inspect", folder, "--json"], {
      out: { write: (t: string) => out.push(t) },
      err: { write: () => 0 },
    });
    expect(code).toBe(1);
    const last = JSON.parse(out.join("").trim().split("\n").at(-1) as string);
    expect(Object.keys(last)).toEqual(["chapters", "quests", "tasks", "rewards", "rewardTables", "errors"]);
    expect(last.errors[0]).toMatchObject({ file: "chapters/broken.snbt", line: 4 });
  });

  it("finds the quest folder of a server data directory", () => {
    const data = mkdtempSync(join(tmpdir(), "server-"));
    cpSync(join(FIXTURES, "flywheel-new-continent"), join(data, "config", "ftbquests", "quests"), {
      recursive: true,
    });
    expect(findQuestFolder(data)).toBe(join(data, "config", "ftbquests", "quests"));
    expect(findQuestFolder(join(data, "config"))).toBeDefined();
    expect(findQuestFolder(tmpdir())).toBeUndefined();
  });
});
