import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../support/game-harness.js";
import {
  type ChatMessage,
  joinPlayer,
  type Player,
  questFolderFiles,
  type ShippedServer,
  speak,
  startShipped,
} from "./system-support.js";

/** The buttons of a card (its last bracketed labels, one per click) with their commands and hover texts, by label. */
const buttons = (message: ChatMessage): Map<string, { click: string; hover: string | undefined }> => {
  const labels = [...message.text.matchAll(/\[([^\]\n]+)\]/gu)]
    .map((match) => match[1])
    .slice(-message.clicks.length);
  const hovers = message.hovers.slice(-labels.length);
  return new Map(
    labels.map((label, index) => [label ?? "", { click: message.clicks[index] ?? "", hover: hovers[index] }]),
  );
};

const click = (message: ChatMessage, label: string): string => {
  const found = buttons(message).get(label);
  if (found === undefined) throw new Error(`no [${label}] in ${JSON.stringify(message.text)}`);
  return found.click;
};

/**
 * What a newcomer meets on the shipped server without a model (`npm start` on a fresh install, the sample quest
 * book): help's own examples work as buttons, buttons say what they do, answers stay on topic, cards read well
 * in English and Chinese, and modes tell the truth.
 */
describe("a newcomer on the shipped server without a model", () => {
  let server: ShippedServer;
  let alex: Player;
  let wei: Player;

  beforeAll(async () => {
    const sample = join(RESOURCES, "..", "test", "fixtures", "ftbquests", "ftbquests-sample");
    server = await startShipped({ ops: ["Admin"], files: questFolderFiles(sample) });
    alex = await joinPlayer(server.port, "Alex");
    wei = await joinPlayer(server.port, "Wei");
    await speak(server, wei, "zh_cn");
  }, 120_000);

  afterAll(async () => {
    alex?.quit();
    wei?.quit();
    await server?.close();
  });

  it("offers help's own write examples as buttons with their arguments; nothing is written before the click", async () => {
    const offer = await alex.say("/system daily check in", (m) => /not sure what you meant/.test(m.text));
    expect([...buttons(offer).keys()][0]).toBe("Check in");
    const before = await alex.say("/system balance", (m) => m.text.startsWith("Your points"));
    expect(before.text).toContain("No changes yet.");
    const done = await alex.say(click(offer, "Check in"), (m) => /Checked in/.test(m.text));
    // plural rules: 1 day, not "1 day(s)"
    expect(done.text).toMatch(/^Checked in! Streak: 1 day, 1 day in total\./);

    const quote = await alex.say("/system I want to buy 10 bread", (m) =>
      /not sure what you meant/.test(m.text),
    );
    const labels = [...buttons(quote).keys()];
    expect(labels[0]).toBe("Quote: Bread × 10");
    // the knowledge search candidate says what it does
    expect(labels).not.toContain("Try this");
    expect(labels).toContain("Search the knowledge base");
    const balance = await alex.say("/system balance", (m) => m.text.startsWith("Your points"));
    const card = await alex.say(click(quote, "Quote: Bread × 10"), (m) =>
      m.text.startsWith("Quote: Bread × 10"),
    );
    expect(card.text).toMatch(/^Quote: Bread × 10 at \d+ each = \d+ points/);
    // a quote pays nothing
    const after = await alex.say("/system balance", (m) => m.text.startsWith("Your points"));
    expect(after.text.split("\n")[0]).toBe(balance.text.split("\n")[0]);

    const zh = await wei.say("/system 我想买10个面包", (m) => m.text.includes("没能确定你的意思"));
    expect([...buttons(zh).keys()][0]).toBe("报价：面包 × 10");
    expect([...buttons(zh).keys()]).toContain("查资料库");
    const checkIn = await wei.say("/system 我要签到", (m) => m.text.includes("没能确定你的意思"));
    expect([...buttons(checkIn).keys()][0]).toBe("签到");
  });

  it("shows what a button does when the pointer rests on it, never the command behind it", async () => {
    const shop = await alex.say("/system shop", (m) => m.text.includes("Shop (prices in points)"));
    const buy = [...buttons(shop).values()][0];
    expect(buy?.hover).toMatch(/^Quote 1 Bread for \d+ points/);
    const quote = await alex.say("/system buy bread 3", (m) => m.text.startsWith("Quote: Bread × 3"));
    const confirm = [...buttons(quote).entries()].find(([label]) => label.startsWith("Confirm"));
    expect(confirm?.[1].hover).toMatch(/^Buy 3 Bread for \d+ points$/);
    expect(buttons(quote).get("Cancel")?.hover).toBe("Cancel this quote; nothing is paid");
    const zh = await wei.say("/system shop", (m) => m.text.startsWith("商店"));
    expect([...buttons(zh).values()][0]?.hover).toMatch(/^报价：1 个面包，\d+ 积分/);
    for (const message of [...alex.chat, ...wei.chat])
      for (const hover of message.hovers) expect(hover).not.toContain("/system card");
  });

  it("keeps /question on topic: sources must cover the question, recipes answer how to make things, help's example holds", async () => {
    // help's own example on a fresh server: the starter entry its admin replaces, not quests sharing a word
    const rules = await wei.say(
      "/question 服务器规则是什么",
      (m) => m.text.includes("规则") || m.text.includes("没有找到"),
    );
    expect(rules.text).toContain("本服务器的管理员还没有写下规则");
    expect(rules.text).not.toContain("喷雾罐");
    expect(rules.text).not.toContain("钨链");
    const english = await alex.say("/question what are the server rules", (m) =>
      m.text.includes("Server rules"),
    );
    expect(english.text).toContain("has not written its rules yet");
    // "how do I make X" is the item's recipe
    const pickaxe = await wei.say(
      "/question 怎么做钻石镐",
      (m) => m.text.includes("钻石镐") || m.text.includes("任务"),
    );
    expect(pickaxe.text).toMatch(/^钻石镐（Diamond Pickaxe）/);
    expect(pickaxe.text).toContain("钻石×3");
    expect(pickaxe.text).not.toContain("早期投资");
    const made = await alex.say("/question how do I make a diamond pickaxe", (m) =>
      /Diamond Pickaxe|Quest|Nothing/.test(m.text),
    );
    expect(made.text).toMatch(/^Diamond Pickaxe/);
    expect(made.text).toContain("3× Diamond");
    // a quest is still a source when it covers the question
    const chain = await wei.say(
      "/question 钨链",
      (m) => m.text.includes("钨链") || m.text.includes("没有找到"),
    );
    expect(chain.text).toContain("任务：钨链");
  });

  it("fits help in chat: the player's language, one line per feature, each a button; admin commands apart", async () => {
    const help = await alex.say("/system help", (m) => m.text.startsWith("What you can do now"));
    const lines = help.text.split("\n");
    expect(lines.length).toBeLessThanOrEqual(11);
    expect(help.text).not.toMatch(/[\u3400-\u9fff]/u);
    expect(help.text).toContain("mode simple|routing|ask|full");
    expect(help.text).not.toMatch(/grant|revoke|reload|Admin/);
    // every feature line is a button that tries it, and says so on hover
    expect(help.clicks.length).toBe(lines.length - 1);
    const balance = [...buttons(help).entries()].find(([label]) => label.startsWith("/system balance"));
    expect(balance?.[1].hover).toBe("Runs /system balance");
    const points = await alex.say(balance?.[1].click ?? "", (m) => m.text.startsWith("Your points"));
    expect(points.text).toMatch(/^Your points: \d+/);

    const zh = await wei.say("/system 帮助", (m) => m.text.startsWith("你现在可以使用"));
    expect(zh.text.split("\n").length).toBeLessThanOrEqual(11);
    expect(zh.text).toContain("[/system 签到 —— 每日签到");
    expect(zh.text).not.toContain("/system checkin");

    const admin = await joinPlayer(server.port, "Admin");
    try {
      const own = await admin.say("/system help", (m) => m.text.startsWith("What you can do now"));
      expect(own.text).not.toContain("/system grant");
      const more = await admin.say(click(own, "Admin commands…"), (m) => m.text.startsWith("Admin commands"));
      expect(more.text).toContain("/system grant <player> [feature]");
      expect(more.text).toContain("mode default simple|routing|ask|full");
      expect(more.text).toContain("deliveries done|redeliver <ref>");
      const typed = await admin.say("/system help admin", (m) => m.text.startsWith("Admin commands"));
      expect(typed.text).toBe(more.text);
    } finally {
      admin.quit();
    }
    const refused = await alex.say("/system help admin", (m) => /Usage/.test(m.text));
    expect(refused.text).not.toContain("/system grant");
  });

  it("reads well in both languages: no raw ids glued on or leading lines, plurals, names instead of ids", async () => {
    const shop = await alex.say("/system shop", (m) => m.text.includes("Shop (prices in points)"));
    expect(shop.text.split("\n")[1]).toMatch(/^Bread × 1 for \d+ points$/);
    // a cancelled quote says so without its id glued on
    const quote = await alex.say("/system buy bread", (m) => m.text.startsWith("Quote: Bread × 1"));
    const cancelled = await alex.say(click(quote, "Cancel"), (m) => m.text.startsWith("Quote cancelled"));
    expect(cancelled.text.split("\n")[0]).toMatch(
      /^Quote cancelled; nothing was paid\.( Balance: \d+ points\.)?$/,
    );
    // a purchase in the balance is a shop purchase, not `shop:bread`
    const again = await alex.say("/system buy bread", (m) => m.text.startsWith("Quote: Bread × 1"));
    const confirm = [...buttons(again).keys()].find((label) => label.startsWith("Confirm"));
    await alex.say(click(again, confirm ?? ""), (m) => /^Order \S+ (confirmed|delivered|: )/.test(m.text));
    // "confirmed" comes before the payment is taken ("paying and delivering…"): the balance is read once the
    // order says it is paid or delivered
    await alex.next((m) => /^Order \S+(:.* paid| delivered)/.test(m.text));
    const balance = await alex.say("/system balance", (m) => m.text.startsWith("Your points"));
    expect(balance.text).toMatch(/-\d+ · shop purchase ·/);
    expect(balance.text).not.toContain("shop:");
    // an untitled quest and its task are named, not shown as `echochest:echo_chest`; no "Rewards: none"
    const quest = await alex.say("/system quest 44E66882D11C0E4D", (m) => m.text.includes("有用信息"));
    expect(quest.text).toMatch(/^Echo Chest — 有用信息/);
    expect(quest.text).toContain("☐ Echo Chest (0/1)");
    expect(quest.text).not.toMatch(/echochest:|Rewards/);
    // a quest an admin completed while its dependency is open says why it is locked and cannot be claimed
    const admin = await joinPlayer(server.port, "Admin");
    try {
      await admin.say("/system complete Alex 5673089822BFCA70", (m) => /complete|Alex/i.test(m.text));
    } finally {
      admin.quit();
    }
    const locked = await alex.say("/system quest 5673089822BFCA70", (m) => m.text.includes("(locked)"));
    expect(locked.text).toMatch(/Locked until you complete: \S.*\. Its rewards can be claimed then\./);
    // an item is not listed as its own drop; logs come from trees
    const planks = await alex.say("/system item oak planks", (m) => m.text.startsWith("Oak Planks"));
    expect(planks.text).not.toContain("Oak Planks: 1 (100%)");
    const log = await alex.say("/system item oak log", (m) => m.text.startsWith("Oak Log"));
    expect(log.text).toContain("chop trees");
    const zh = await wei.say("/system item 钻石镐", (m) => m.text.startsWith("钻石镐"));
    expect(zh.text).toContain("[钻石的来源]");
  });

  it("refuses full mode without a model, says why, and keeps the mode", async () => {
    const full = await alex.say("/system mode full", (m) => /full mode|Your mode is now/.test(m.text));
    expect(full.text).toContain(
      "full mode needs an AI model, and this server has none configured, so your mode stays routing. An admin can set one up in config/system/model.json.",
    );
    const shown = await alex.say("/system mode", (m) => m.text.startsWith("Your mode:"));
    expect(shown.text).toMatch(/^Your mode: routing/);
    const zh = await wei.say("/system mode full", (m) => m.text.includes("full"));
    expect(zh.text).toContain("full 模式需要 AI 模型，而本服务器没有配置模型，所以你的模式仍是 routing");
  });
});
