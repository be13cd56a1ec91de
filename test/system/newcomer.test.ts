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

/** The buttons of a card (its last line) with their click commands and hover texts, by label. */
const buttons = (message: ChatMessage): Map<string, { click: string; hover: string | undefined }> => {
  const labels = [...(message.text.split("\n").at(-1) ?? "").matchAll(/\[([^\]]+)\]/gu)].map(
    (match) => match[1],
  );
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
    expect(done.text).toMatch(/Checked in!/);

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
