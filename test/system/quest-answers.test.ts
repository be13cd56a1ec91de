import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  joinPlayer,
  type Player,
  questFolderFiles,
  type ShippedServer,
  speak,
  startShipped,
} from "./system-support.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/ftbquests/system-basics");

const HIDDEN = /Stone Age|Secret Star|石器时代|秘密之星/;
/** A hidden quest shown or cited (a "not found" reply echoes the question, which may name it in lower case). */
const HIDDEN_SHOWN = /Quest: Stone Age|Quest: Secret Star|任务：石器时代|任务：秘密之星|Secret Star|秘密之星/;
/** A /question answer: quests cited, or nothing found (in either language). */
const ANSWERED = /Nothing was found|没有找到|Quest: |任务：/;

/**
 * `/question` on the shipped server (no model) with the 1.21 quest fixture: quest descriptions answer when the
 * knowledge base has nothing, in the player's language, cited as quests; hidden quests never appear; with the
 * quests feature switched off by an admin the same question no longer reads quests.
 */
describe("questions answered from quests (shipped server, no model)", () => {
  let server: ShippedServer;
  let steve: Player;
  let li: Player;
  let admin: Player;

  beforeAll(async () => {
    server = await startShipped({ ops: ["Admin"], files: questFolderFiles(FIXTURE) });
    steve = await joinPlayer(server.port, "Steve");
    li = await joinPlayer(server.port, "LiLei");
    admin = await joinPlayer(server.port, "Admin");
    await speak(server, li, "zh_cn");
  }, 120_000);

  afterAll(async () => {
    for (const player of [steve, li, admin]) player?.quit();
    await server?.close();
  });

  it("answers a question about a quest with its description, cited as a quest", async () => {
    const answer = await steve.say("/question how do I do the timber quest", (m) =>
      /Quest: Timber!|Nothing was found/.test(m.text),
    );
    expect(answer.text).toContain("Quest: Timber! — Punch a tree");
    expect(answer.text).toContain("Every journey starts with wood.");
    expect(answer.text).toContain("Collect four oak logs.");
    expect(answer.text).toContain("[1] Quest: Timber!");
    expect(answer.text).not.toMatch(HIDDEN);
  });

  it("answers a Chinese question in Chinese", async () => {
    const answer = await li.say("/question 砍树任务怎么做", (m) =>
      /任务：砍树！|没有找到|Nothing/.test(m.text),
    );
    expect(answer.text).toContain("每段旅程都从木头开始。");
    expect(answer.text).toContain("[1] 任务：砍树！");
    expect(answer.text).not.toMatch(HIDDEN);
  });

  it("never answers from a hidden or invisible quest", async () => {
    const stone = await steve.say("/question how do I do the stone age quest", (m) => ANSWERED.test(m.text));
    expect(stone.text).toContain("Nothing was found");
    expect(stone.text).not.toMatch(/Quest: |Every journey/);
    const star = await steve.say("/question where do I find the secret star", (m) => ANSWERED.test(m.text));
    expect(star.text).toContain("Nothing was found");
    const zh = await li.say("/question 石器时代任务怎么做", (m) => ANSWERED.test(m.text));
    expect(zh.text).not.toMatch(/任务：|每段旅程/);
    for (const message of [...steve.chat, ...li.chat]) expect(message.text).not.toMatch(HIDDEN_SHOWN);
  });

  it("no longer cites quests once an admin switches the quests feature off", async () => {
    const off = await admin.say("/system feature disable system:ftb_quests", (m) =>
      /Switched off/.test(m.text),
    );
    expect(off.text).toContain("system:ftb_quests");
    try {
      const answer = await steve.say("/question how can I do the timber quest", (m) => ANSWERED.test(m.text));
      expect(answer.text).toContain("Nothing was found");
      expect(answer.text).not.toMatch(/Quest: |Every journey/);
    } finally {
      await admin.say("/system feature enable system:ftb_quests", (m) => /Switched on/.test(m.text));
    }
    const again = await steve.say("/question what is the timber quest about", (m) =>
      /Quest: Timber!|Nothing was found/.test(m.text),
    );
    expect(again.text).toContain("Every journey starts with wood.");
  });
});
