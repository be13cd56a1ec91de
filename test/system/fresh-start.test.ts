import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  joinPlayer,
  type Player,
  questFolderFiles,
  type ShippedServer,
  speak,
  startShipped,
  uuidOf,
  waitFor,
} from "./system-support.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/ftbquests/system-tasks");
/** The quests of the fixture's "Tasks" chapter; completing them all completes the chapter. */
const TASKS_QUESTS = ["2100000000000001", "2100000000000002", "2100000000000003", "2100000000000004"];

/**
 * A fresh install (`npm start` with nothing configured: the default advancement rules, no quest book, no model)
 * warns about nothing, since nothing is wrong. The quest narration rules wait for the quests feature; a player
 * who asks for quests hears that the server has no quest book; once an admin adds quest files and reloads,
 * the quests are there and the narration rules apply.
 */
describe("a fresh start without a quest book (shipped server)", () => {
  let server: ShippedServer;
  let admin: Player;

  beforeAll(async () => {
    // no advancements.json: the server writes and uses its defaults, quest narration included
    server = await startShipped({ ops: ["Admin"], files: { "config/system/advancements.json": undefined } });
    admin = await joinPlayer(server.port, "Admin");
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    await server?.close();
  });

  it("prints no warning and no error at start", () => {
    expect(server.logger.lines.filter((line) => /^(WARN|ERROR)/.test(line))).toEqual([]);
    expect(server.logger.has("feature system:ftb_quests is not installed: no FTB Quests files")).toBe(true);
  });

  it("tells a player who asks for quests that the server has no quest book, in both languages", async () => {
    const steve = await joinPlayer(server.port, "Steve");
    const li = await joinPlayer(server.port, "LiQuest");
    try {
      const quests = await steve.say("/system quests", (m) => m.text.includes("quest"));
      expect(quests.text).toContain("This server has no quest book.");
      expect(quests.text).not.toContain("not sure what you meant");
      const quest = await steve.say("/system quest 1", (m) => m.text.includes("quest"));
      expect(quest.text).toContain("This server has no quest book.");
      await speak(server, li, "zh_cn");
      await waitFor(() =>
        server.system.host.player(uuidOf(server.system, "LiQuest"))?.locale() === "zh_cn" ? true : undefined,
      );
      const zh = await li.say("/system 任务", (m) => m.text.includes("任务"));
      expect(zh.text).toContain("本服务器没有任务书");
      // the feature still appears nowhere: not in help
      const help = await steve.say("/system help", (m) => /checkin/.test(m.text));
      expect(help.text).not.toContain("/system quests");
    } finally {
      steve.quit();
      li.quit();
    }
    expect(server.logger.lines.filter((line) => /^(WARN|ERROR)/.test(line))).toEqual([]);
  });

  it("installs the quests at the reload that finds quest files, and the narration rules then apply", async () => {
    for (const [path, content] of Object.entries(questFolderFiles(FIXTURE))) {
      mkdirSync(join(server.folder, path, ".."), { recursive: true });
      writeFileSync(join(server.folder, path), content);
    }
    const reloaded = await admin.say("/system reload", (m) => m.text.startsWith("Reloaded"));
    expect(reloaded.text).not.toContain("after a restart");
    expect(server.logger.has("advancement rule quest_narration")).toBe(false);
    const quester = await joinPlayer(server.port, "Quester");
    try {
      const open = await quester.say("/system quests", (m) =>
        /^(No quest is open|Quests you can)/.test(m.text),
      );
      expect(open.text).toContain("Welcome Kit");
      for (const quest of TASKS_QUESTS)
        await admin.say(`/system complete Quester ${quest}`, (m) => m.text.startsWith("Completed"));
      await quester.say("/system quests", (m) => /^(No quest is open|Quests you can)/.test(m.text));
      // the default rules quest_narration and chapter_narration, refused at no point, now narrate
      await quester.next((m) => m.text === "★ Quest completed: Welcome Kit");
      await quester.next((m) => m.text === "★ Chapter completed: Tasks");
    } finally {
      quester.quit();
    }
  });
});
