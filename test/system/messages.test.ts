import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  speak,
  startShipped,
  waitFor,
} from "./system-support.js";

/**
 * What players see when something is off: empty and oversized input, player text that looks like formatting,
 * and model trouble told apart from "not understood" — in game, through the shipped server, with a model.
 */
describe("messages players see", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let steve: Player;
  let li: Player;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({ environment: modelEnvironment(model) });
    steve = await joinPlayer(server.port, "Steve");
    li = await joinPlayer(server.port, "LiLei");
    speak(li, "zh_cn");
  }, 120_000);

  afterAll(async () => {
    steve?.quit();
    li?.quit();
    await server?.close();
    await model?.close();
  });

  it("an empty /system shows help and calls no model", async () => {
    const before = model.requests.length;
    const help = await steve.say("/system", (m) => /What you can do now/.test(m.text));
    expect(help.text).toContain("/system checkin");
    expect(model.requests.length).toBe(before);
  });

  it("refuses text over the router's limit before routing, without a model call", async () => {
    const before = model.requests.length;
    const long = "why ".repeat(1_600);
    const card = await steve.say(`/system ${long}`, (m) => m.text.length > 0);
    expect(card.text).toMatch(/Your request is too long \(\d+ bytes; the limit is 6000\)/);
    expect(model.requests.length).toBe(before);
  });

  it("/question accepts the 2,000 characters it declares", async () => {
    const question = `zq${"x".repeat(1_900)}`;
    const card = await steve.say(`/question ${question}`, (m) => m.text.length > 0);
    expect(card.text).toContain("Nothing was found for");
    expect(card.text).not.toMatch(/not valid|too long/i);
  });

  it("shows § and & codes in echoed input as typed text, never as formatting", async () => {
    const card = await steve.say("/system item §aGreenStuff &cRedStuff", (m) => m.text.includes("RedStuff"));
    expect(card.text).toContain("&cRedStuff");
    expect(card.text).toContain("⸹aGreenStuff");
    expect(card.text).not.toContain("§");
  });

  it("shows 'thinking…' in the action bar while a model call waits, and /system cancel stops it", async () => {
    const bars: string[] = [];
    li.bot.on("actionBar", (message) => {
      bars.push(message.toString());
    });
    model.script({ text: JSON.stringify({ type: "answer", text: "太慢的回答" }), delayMillis: 4_000 });
    const from = li.chat.length;
    li.bot.chat("/reason 慢慢想一想我该建什么");
    const thinking = await waitFor(() => bars.find((bar) => bar.includes("正在思考")), 10_000);
    expect(thinking).toContain("/system cancel");
    const cancelled = await li.say("/system cancel", (m) => /取消/.test(m.text));
    expect(cancelled.text).toMatch(/取消/);
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(li.chat.slice(from).some((m) => m.text.includes("太慢的回答"))).toBe(false);
    const shown = bars.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(bars.length).toBe(shown);
  });

  it("tells a model that cannot be reached apart from not understood, in both languages, and logs it once", async () => {
    model.script({ status: 500 });
    const down = await steve.say("/system plorbix the wibbler", (m) => m.text.length > 0);
    expect(down.text).toContain("The AI model cannot be reached right now; please try again later.");
    const warnings = server.logger.lines.filter((line) => line.startsWith("WARN request "));
    expect(warnings.filter((line) => line.includes("model:failed:MODEL_UNAVAILABLE"))).toHaveLength(1);
    expect(warnings.join("\n")).not.toContain("plorbix");
    model.script({ text: "this is not json at all" });
    const invalid = await li.say("/system 帮我弄一下那个东西", (m) => m.text.length > 0);
    expect(invalid.text).toContain("AI 模型的回答无法使用");
    model.script({ text: JSON.stringify({ capabilityId: "clarify" }) });
    const unclear = await steve.say("/system something vague entirely", (m) => m.text.length > 0);
    expect(unclear.text).toContain("Which one did you mean?");
  });
});
