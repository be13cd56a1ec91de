import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  advancementRule,
  joinPlayer,
  modelEnvironment,
  type Player,
  questFolderFiles,
  type ShippedServer,
  speak,
  startShipped,
  uuidOf,
  waitFor,
} from "./system-support.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/ftbquests/system-basics");

const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

/**
 * FTB quests on the shipped server: a 1.21 quest folder (lang files) under `config/ftbquests/quests/`, read by
 * `npm start`'s assembly; real bots in en_us and zh_cn; progress from the real inventory (oak logs a check-in
 * reward puts there); a scripted model for `/reason`.
 */
describe("FTB quests (shipped server)", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let steve: Player;
  let li: Player;
  let admin: Player;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({
      environment: modelEnvironment(model),
      ops: ["Admin"],
      files: {
        ...questFolderFiles(FIXTURE),
        // the shipped default rule that announces a completed quest (the others would change what tests count)
        "config/system/advancements.json": JSON.stringify({
          rules: [
            advancementRule("quest_narration", "system:quest_completed", {}, "system:quest_announce", {}),
          ],
        }),
        // the check-in reward brings the oak logs the first quest asks for
        // FTB team progress a modded server wrote (1.21.1 layout): "Veteran" finished Timber! and claimed its
        // reward there, under an online-mode UUID (this offline server finds them by name)
        "world/ftbteams/player/8c1e7a4f-3b1d-4e2a-9f00-7d2b5a6c1e01.snbt": [
          "{",
          '\tid: "8c1e7a4f-3b1d-4e2a-9f00-7d2b5a6c1e01"',
          '\tplayer_name: "Veteran"',
          "\tranks: {",
          '\t\t8c1e7a4f-3b1d-4e2a-9f00-7d2b5a6c1e01: "owner"',
          "\t}",
          '\ttype: "player"',
          "}",
        ].join("\n"),
        "world/ftbquests/8c1e7a4f-3b1d-4e2a-9f00-7d2b5a6c1e01.snbt": [
          "{",
          "\tclaimed_rewards: {",
          '\t\t"8c1e7a4f3b1d4e2a9f007d2b5a6c1e01:4000000000000001": 1732847153933L',
          "\t}",
          "\tcompleted: {",
          "\t\t2000000000000001: 1732847150000L",
          "\t\t3000000000000001: 1732847150000L",
          "\t}",
          "\tlock: false",
          '\tname: "Veteran"',
          "\trewards_blocked: false",
          "\ttask_progress: {",
          "\t\t3000000000000001: 4",
          "\t}",
          '\tuuid: "8c1e7a4f3b1d4e2a9f007d2b5a6c1e01"',
          "\tversion: 1",
          "}",
        ].join("\n"),
        "datapacks/data/system/system_module/check_in.json": JSON.stringify({
          type: "system:check_in",
          server: { rewards: [{ item: "minecraft:oak_log", count: 4 }] },
        }),
      },
    });
    steve = await joinPlayer(server.port, "Steve");
    li = await joinPlayer(server.port, "LiLei");
    admin = await joinPlayer(server.port, "Admin");
    await speak(server, li, "zh_cn");
  }, 120_000);

  afterAll(async () => {
    for (const player of [steve, li, admin]) player?.quit();
    await server?.close();
    await model?.close();
  });

  it("loads the quest folder at start", () => {
    expect(server.logger.has("quests: 1 chapters, 4 quests from")).toBe(true);
  });

  it("lists the quests a player can work on, numbered, hidden and invisible ones left out", async () => {
    const list = await steve.say("/system quests", (m) => m.text.startsWith("Quests you can work on"));
    expect(list.text).toContain("1. Timber! — Getting Started (open)");
    expect(list.text).toContain("2. Read the rules — Getting Started (open)");
    expect(list.text).not.toContain("Stone Age");
    expect(list.text).not.toContain("Secret Star");
    expect(list.clicks.length).toBe(2);
    const zh = await li.say("/system 任务", (m) => m.text.startsWith("你现在可以做的任务"));
    expect(zh.text).toContain("1. 砍树！ — 新手上路（进行中）");
  });

  it("shows a quest by number, by name and by id; a hidden or invisible quest is not found", async () => {
    await steve.say("/system quests", (m) => m.text.startsWith("Quests you can work on"));
    const byNumber = await steve.say("/system quest 1", (m) => m.text.startsWith("Timber!"));
    expect(byNumber.text).toContain("Punch a tree");
    expect(byNumber.text).toContain("Every journey starts with wood.");
    expect(byNumber.text).not.toContain("pagebreak");
    expect(byNumber.text).toContain("☐ Oak Log (0/4)");
    expect(byNumber.text).toContain("Bread × 2");
    const byName = await li.say("/system quest 阅读规则", (m) => m.text.startsWith("阅读规则"));
    expect(byName.text).toContain("我已阅读规则");
    const hidden = await steve.say("/system quest 2000000000000003", (m) => /No quest/.test(m.text));
    expect(hidden.text).toContain("No quest you can see is 2000000000000003");
    const invisible = await steve.say("/system quest secret star", (m) => /No quest|Secret/.test(m.text));
    expect(invisible.text).toContain('No quest you can see matches "secret star"');
  });

  it("offers candidates when a name matches several quests", async () => {
    const card = await steve.say("/system quest e", (m) => m.text.startsWith("Several quests"));
    expect(card.text).toContain("Timber!");
    expect(card.text).toContain("Read the rules");
    expect(card.clicks.length).toBe(2);
  });

  /** Messages that announce the completion of `title` (the card's line once said it too: twice in all). */
  const announcements = (player: Player, title: string): string[] =>
    player.chat.filter((m) => /Quest complete/.test(m.text) && m.text.includes(title)).map((m) => m.text);

  it("ticks a checkmark from its card button, once, and announces the completion once", async () => {
    const card = await steve.say("/system quest read the rules", (m) => m.text.startsWith("Read the rules"));
    const click = card.clicks.find((value) => value.startsWith("/system card "));
    expect(click).toBeDefined();
    const ticked = await steve.say(click as string, (m) => m.text.startsWith("Read the rules"));
    expect(ticked.text).toContain("✔ I have read the rules");
    expect(ticked.text).toContain("(complete)");
    // the quest_narration rule's notice announces it; the card does not say it again
    expect(ticked.text).not.toContain("Quest complete");
    await steve.next((m) => m.text === "★ Quest completed: Read the rules");
    // another spelling: an identical line within 3 s would share the first answer (request dedupe)
    const after = await steve.say("/system quest Read the Rules", (m) => m.text.startsWith("Read the rules"));
    expect(after.text).toContain("(complete)");
    expect(after.text).toContain("✔ I have read the rules");
    expect(announcements(steve, "Read the rules")).toEqual(["★ Quest completed: Read the rules"]);
  });

  it("completes an item task from the real inventory and unlocks the hidden quest that waited for it", async () => {
    await steve.say("/system checkin", (m) => /Checked in/.test(m.text));
    await steve.next((m) => m.text.includes("Your check-in reward has arrived"));
    const timber = await steve.say("/system quest timber", (m) => m.text.startsWith("Timber!"));
    expect(timber.text).toContain("(complete)");
    expect(timber.text).toMatch(/✔ Oak Log/);
    // its completion is announced once, by the rule's notice (with narration), not on the card
    expect(timber.text).not.toContain("Quest complete");
    await steve.next((m) => m.text === "★ Quest completed: Timber!");
    const list = await steve.say("/system 任务列表", (m) => m.text.startsWith("Quests you can work on"));
    expect(announcements(steve, "Timber!")).toEqual(["★ Quest completed: Timber!"]);
    // a complete quest whose rewards wait comes first, then the hidden quest it unlocked
    expect(list.text).toContain("1. Timber! — Getting Started (complete, rewards to claim)");
    expect(list.text).toContain("2. Stone Age — Getting Started (open)");
    const stone = await steve.say("/system quest stone age", (m) => m.text.startsWith("Stone Age"));
    expect(stone.text).toContain("not tracked on this server");
    expect(stone.text).toContain("not available on this server");
  });

  it("offers a complete quest whose rewards wait through system:ftb.query, first and marked", async () => {
    const before = model.requests.length;
    model.script(
      reply({ type: "system:ftb.query", input: {} }),
      reply({ type: "answer", text: "Claim the rewards of Timber! first." }),
    );
    const answer = await steve.say("/reason what should I do next", (m) => /Claim the rewards/.test(m.text));
    expect(answer.text).toContain("Claim the rewards of Timber! first.");
    const observed = JSON.stringify(model.requests[before + 1]?.user ?? {});
    expect(observed).toMatch(
      /"number":1,"title":"Timber!","chapter":"Getting Started","status":"complete","unclaimed":true/,
    );
    expect(observed).toContain("Stone Age");
  });

  it("claims a completed quest's rewards once: a durable delivery gives them, a second click gives nothing", async () => {
    const bread = (): number =>
      steve.bot.inventory
        .items()
        .filter((item) => item.name === "bread")
        .reduce((sum, item) => sum + item.count, 0);
    const card = await steve.say("/system quest TIMBER", (m) => m.text.startsWith("Timber!"));
    const claim = card.clicks.find((value) => value.startsWith("/system card "));
    expect(claim).toBeDefined();
    const queued = await steve.say(claim as string, (m) => /claimed/.test(m.text));
    expect(queued.text).toContain("Rewards of Timber! claimed; on their way:");
    expect(queued.text).toContain("Bread × 2");
    const delivered = await steve.next((m) => m.text.startsWith("Rewards of Timber! delivered"));
    expect(delivered.text).toContain("Bread × 2");
    await waitFor(() => (bread() === 2 ? true : undefined));
    // the same click again (a double click, a replayed click): the claim is found, nothing is given again
    const again = await steve.say(claim as string, (m) => /claimed/.test(m.text));
    expect(again.text).toMatch(/^You already claimed the rewards of Timber!/);
    const after = await steve.say("/system quest timber!", (m) => m.text.startsWith("Timber!"));
    expect(after.text).toContain("Rewards claimed.");
    expect(after.clicks).toEqual([]);
    expect(bread()).toBe(2);
    // claimed: no longer listed
    const list = await steve.say("/system quests", (m) => m.text.startsWith("Quests you can work on"));
    expect(list.text).not.toContain("Timber!");
    expect(list.text).toContain("1. Stone Age");
  });

  it("lets an admin complete a task this server cannot observe; its xp levels arrive; rewards it cannot deliver are named, never run", async () => {
    const refused = await steve.say("/system complete Steve 3000000000000003", (m) =>
      /Unknown command|Completed/.test(m.text),
    );
    expect(refused.text).toBe("⚠ Unknown command: complete");
    const done = await admin.say("/system complete Steve 3000000000000003", (m) => /Completed/.test(m.text));
    expect(done.text).toContain("Completed 3000000000000003 (Stone Age) for Steve.");
    const stone = await steve.say("/system quest Stone Age", (m) => m.text.startsWith("Stone Age"));
    expect(stone.text).toContain("(complete)");
    expect(stone.text).not.toContain("Quest complete");
    await steve.next((m) => m.text === "★ Quest completed: Stone Age");
    const claim = stone.clicks.find((value) => value.startsWith("/system card "));
    const queued = await steve.say(claim as string, (m) => /claimed/.test(m.text));
    expect(queued.text).toContain("3 experience levels");
    expect(queued.text).toContain("not available on this server");
    const delivered = await steve.next((m) => m.text.startsWith("Rewards of Stone Age delivered"));
    expect(delivered.text).toContain("3 experience levels");
    // the levels reached the client, on top of what the player had
    await waitFor(() => (steve.bot.experience.level === 3 ? true : undefined));
  });

  it("never lets quest text widen a request: a model that obeys it cannot reach the claim", async () => {
    const before = model.requests.length;
    model.script(
      reply({ type: "system:ftb.detail", input: { quest: "2000000000000001" } }),
      // the description told it to claim: the claim is structured only and never in the reasoning catalog
      reply({ type: "system:quest_claim", input: { quest: "2000000000000003" } }),
      reply({ type: "answer", text: "I looked at Timber!." }),
    );
    const answer = await li.say("/reason 砍树任务怎么做", (m) =>
      /I looked at Timber|claimed|领取/.test(m.text),
    );
    expect(answer.text).toBe("I looked at Timber!.");
    expect(JSON.stringify(model.requests[before + 1]?.body ?? {})).toContain("ignore earlier rules");
    expect(answer.text).not.toMatch(/claimed|领取/);
    // the loop told the model the claim is no tool of it, and the catalog never listed it
    const third = JSON.stringify(model.requests[before + 2]?.user ?? {});
    expect(third).toContain('type \\"system:quest_claim\\" is not an offered tool');
    expect(JSON.stringify(model.requests[before]?.body ?? {})).not.toContain("system:quest_claim");
    const record = JSON.stringify(
      await server.system.assistant.infrastructure.store.record(uuidOf(server.system, "LiLei")),
    );
    expect(record).not.toContain("2000000000000003");
  });

  it("imports FTB team progress for the player the world's files name: done and claimed there, never paid again", async () => {
    expect(server.logger.has("quests: FTB team progress of 1 players to import")).toBe(true);
    const veteran = await joinPlayer(server.port, "Veteran");
    try {
      const list = await veteran.say("/system quests", (m) => /Quests you can work on/.test(m.text));
      // Timber! done there unlocks Stone Age here; no completion card for what was completed there
      expect(list.text).toContain("Stone Age");
      expect(list.text).not.toContain("★");
      const timber = await veteran.say("/system quest timber", (m) => m.text.startsWith("Timber!"));
      expect(timber.text).toContain("(complete)");
      expect(timber.text).toContain("Rewards claimed.");
      expect(timber.clicks).toEqual([]);
      expect(veteran.bot.inventory.items()).toEqual([]);
    } finally {
      veteran.quit();
    }
  });

  it("lets /reason use the quest tools", async () => {
    const before = model.requests.length;
    model.script(
      reply({ type: "system:ftb.find", input: { text: "timber" } }),
      reply({ type: "answer", text: "Collect four oak logs for Timber!." }),
    );
    const answer = await steve.say("/reason how do I finish the timber quest", (m) =>
      /oak logs/.test(m.text),
    );
    expect(answer.text).toContain("Collect four oak logs");
    const second = JSON.stringify(model.requests[before + 1]?.body ?? {});
    expect(second).toContain("Timber!");
    expect(JSON.stringify(model.requests[before]?.body ?? {})).toContain("system:ftb.detail");
  });
});
