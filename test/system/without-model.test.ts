import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { TEST_MODEL } from "../support/test-model.js";
import {
  joinPlayer,
  type Player,
  type ShippedServer,
  speak,
  startShipped,
  welcomeGiftQuestFiles,
} from "./system-support.js";

/**
 * The shipped server as `npm start` runs it on a fresh install: no model. Commands, local routes, stored
 * knowledge and check-in work; model workflows say why they cannot run; `model.json` + `/system reload` turns
 * the model on without a restart.
 */
describe("the shipped server without a model", () => {
  let server: ShippedServer;
  let model: ScriptedModelServer;
  let admin: Player;
  let alex: Player;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({ ops: ["Admin"] });
    admin = await joinPlayer(server.port, "Admin");
    alex = await joinPlayer(server.port, "Alex");
    await admin.say("/system knowledge add Rules | No griefing. Be kind.", (m) => /added/.test(m.text));
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    alex?.quit();
    await server?.close();
    await model?.close();
  });

  it("says at start that no model is configured", () => {
    expect(server.logger.has("model not configured")).toBe(true);
  });

  it("answers commands and local routes", async () => {
    const item = await alex.say("/system item minecraft:diamond", (m) =>
      m.text.includes("minecraft:diamond"),
    );
    expect(item.text).toMatch(/Diamond/);
    const fallback = await alex.say("/system zorblax quimble", (m) => /not sure what you meant/.test(m.text));
    expect(fallback.text).toContain("System is not sure what you meant");
  });

  it("answers read-only requests in the player's own words directly, in both languages", async () => {
    const bucket = await alex.say("/system how do you make a bucket", (m) =>
      m.text.includes("minecraft:bucket"),
    );
    expect(bucket.text).toContain("Bucket");
    const where = await alex.say("/system where am i", (m) => m.text.includes("Status of Alex"));
    expect(where.text.split("\n")[1]).toMatch(/^Position/);
    const wei = await joinPlayer(server.port, "Wei");
    try {
      await speak(server, wei, "zh_cn");
      const health = await wei.say("/system 我的血量是多少", (m) => m.text.includes("Wei 的状态"));
      expect(health.text.split("\n")[1]).toMatch(/^生命值/);
      const ingot = await wei.say("/system 铁锭怎么来的", (m) => m.text.includes("minecraft:iron_ingot"));
      expect(ingot.text).toContain("铁锭");
    } finally {
      wei.quit();
    }
    // an action on the world is never a direct read route
    const give = await alex.say("/system give me 64 diamonds", (m) => /not sure|diamond/i.test(m.text));
    expect(give.text).toContain("System is not sure what you meant");
  });

  it("answers balance, the shop list, orders and one's mode directly from plain text, and a change never", async () => {
    const routed = (module: string): number =>
      server.logger.lines.filter((line) => line.includes(`semantic:direct → ${module}`)).length;
    const lin = await joinPlayer(server.port, "Lin");
    try {
      await speak(server, lin, "zh_cn");
      const points = await lin.say("/system 我有多少积分", (m) => m.text.includes("你的积分"));
      expect(points.text).toMatch(/^你的积分：\d+/);
      expect(routed("system:balance")).toBe(1);
      const mode = await lin.say("/system 我的执行模式是什么", (m) => m.text.includes("你的模式"));
      expect(mode.text).toContain("routing");
      expect(routed("system:mode_show")).toBe(1);
      // moving points is a change: never a direct route, whatever its words share with the balance
      const give = await lin.say("/system 给我100积分", (m) => m.text.includes("没能确定你的意思"));
      expect(give.text).not.toContain("你的积分");
      expect(routed("system:balance")).toBe(1);
    } finally {
      lin.quit();
    }
    const shop = await alex.say("/system what does the shop sell", (m) =>
      m.text.includes("Shop (prices in points)"),
    );
    expect(shop.text).toMatch(/Bread/);
    expect(routed("system:shop_catalog")).toBe(1);
    const orders = await alex.say("/system my orders", (m) => m.text.includes("You have no orders"));
    expect(orders.text).toMatch(/Balance: \d+ points/);
    expect(routed("system:shop_orders")).toBe(1);
  });

  it("shows the stored text for /question", async () => {
    const card = await alex.say("/question what are the rules", (m) => m.text.includes("No griefing"));
    expect(card.text).toContain("Be kind.");
  });

  it("delivers a check-in reward and tells the player", async () => {
    await alex.say("/system checkin", (m) => /Checked in/.test(m.text));
    const notice = await alex.next((m) => m.text.includes("Your check-in reward has arrived"));
    expect(notice.text).toMatch(/Bread/);
  });

  it("says the server has no model for /reason and free chat (never 'try again later') and leaves them out of help", async () => {
    const card = await alex.say("/reason what should I build", (m) => /AI model/i.test(m.text));
    expect(card.text).toContain("This server has no AI model configured");
    expect(card.text).not.toMatch(/try again later|not available right now/);
    const help = await alex.say("/system help", (m) => /checkin|签到/i.test(m.text));
    expect(help.text).not.toMatch(/\/reason|reason </);
    // free chat likewise: a player in `full` mode gets local routing for plain text, and `/system free` says why not
    const free = await alex.say("/system free check me in", (m) => /AI model|Checked in/i.test(m.text));
    expect(free.text).toContain("This server has no AI model configured");
    expect(free.text).not.toMatch(/try again later/);
    const wei = await joinPlayer(server.port, "WeiReason");
    try {
      await speak(server, wei, "zh_cn");
      const zh = await wei.say("/reason 我该建什么", (m) => m.text.includes("AI"));
      expect(zh.text).toContain("本服务器没有配置 AI 模型");
      expect(zh.text).not.toContain("稍后再试");
    } finally {
      wei.quit();
    }
    // full mode is a model loop: without a model it is refused and the mode kept, never "now full" doing nothing
    const full = await alex.say("/system mode full", (m) => /full mode|Your mode is now/.test(m.text));
    expect(full.text).toContain("full mode needs an AI model, and this server has none configured");
    expect(full.text).toContain("your mode stays routing");
    const shown = await alex.say("/system mode", (m) => /Your mode:/.test(m.text));
    expect(shown.text).toMatch(/Your mode: routing/);
    const local = await alex.say("/system what is a torch", (m) => /torch|model/i.test(m.text));
    expect(local.text).toMatch(/Torch/);
  });

  it("says which files a reload kept at their previous settings because they are invalid", async () => {
    const semantic = join(server.folder, "config", "system", "semantic.json");
    writeFileSync(semantic, '{"minSimilarity": ');
    const refused = await admin.say("/system reload", (m) => /Reloaded/.test(m.text));
    expect(refused.text).toContain("Invalid, previous settings kept");
    expect(refused.text).toContain("semantic.json");
    rmSync(semantic);
    const fine = await admin.say("/system reload", (m) => /Reloaded/.test(m.text));
    expect(fine.text).not.toContain("Invalid");
    expect(fine.text).not.toContain("Now installed");
  });

  it("says when a reload installs the quests feature because quest files were added", async () => {
    for (const [path, content] of Object.entries(welcomeGiftQuestFiles())) {
      mkdirSync(join(server.folder, path, ".."), { recursive: true });
      writeFileSync(join(server.folder, path), content);
    }
    const reloaded = await admin.say("/system reload", (m) => /Reloaded/.test(m.text));
    expect(reloaded.text).toContain("Now installed (its files were found): system:ftb_quests.");
    const quests = await alex.say("/system quests", (m) => /Welcome Gift|quest/i.test(m.text));
    expect(quests.text).toContain("Welcome Gift");
  });

  it("turns the model on with model.json and /system reload, without a restart", async () => {
    writeFileSync(
      join(server.folder, "config", "system", "model.json"),
      JSON.stringify({ baseUrl: model.baseUrl, model: TEST_MODEL, apiKey: "test-key" }),
    );
    await admin.say("/system reload", (m) => /reload/i.test(m.text));
    expect(server.logger.has(`model configured: 127.0.0.1:`)).toBe(true);
    model.script({ text: JSON.stringify({ type: "answer", text: "Build a lighthouse." }) });
    const card = await alex.say("/reason what should I build", (m) => m.text.includes("lighthouse"));
    expect(card.text).toContain("Build a lighthouse.");
    expect(model.requests).toHaveLength(1);
    // a configured model that fails is another matter: that one may well work later
    model.script({ status: 500 });
    const down = await alex.say("/reason what should I build next", (m) => /AI model/.test(m.text));
    expect(down.text).toContain("The AI model is not available right now. Please try again later.");
    expect(down.text).not.toContain("no AI model configured");
  });
});
