import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  roundTrip,
  type ShippedServer,
  settled,
  speak,
  startShipped,
  uuidOf,
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
    await speak(server, li, "zh_cn");
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
    const card = await steve.say(`/system ${long}`, (m) => /too long|not sure|model/.test(m.text));
    expect(card.text).toMatch(/Your request is too long \(\d+ bytes; the limit is 6000\)/);
    expect(model.requests.length).toBe(before);
  });

  it("/question accepts the 2,000 characters it declares", async () => {
    const question = `zq${"x".repeat(1_900)}`;
    const card = await steve.say(`/question ${question}`, (m) =>
      /Nothing was found|not valid|too long/.test(m.text),
    );
    expect(card.text).toContain("Nothing was found for");
    expect(card.text).not.toMatch(/not valid|too long/i);
  });

  it("shows § and & codes in echoed input as typed text, never as formatting", async () => {
    const card = await steve.say("/system item §aGreenStuff &cRedStuff", (m) => m.text.includes("RedStuff"));
    expect(card.text).toContain("&cRedStuff");
    expect(card.text).toContain("⸹aGreenStuff");
    expect(card.text).not.toContain("§");
  });

  it("answers an item id of a mod this server lacks as not found, not with a vanilla item the id mentions", async () => {
    const before = model.requests.length;
    const card = await steve.say("/system item create:andesite_alloy", (m) => m.text.includes("andesite"));
    expect(card.text).toMatch(/^No item matches “create:andesite_alloy”\./);
    expect(card.text).not.toContain("ID: minecraft:andesite");
    expect(model.requests.length).toBe(before);
  });

  it("shows 'thinking…' in the action bar while a model call waits, and /system cancel stops it", async () => {
    const bars: string[] = [];
    li.bot.on("actionBar", (message) => {
      bars.push(message.toString());
    });
    // the answer is held until the request was cancelled
    const hold = gate();
    model.script({ text: JSON.stringify({ type: "answer", text: "太慢的回答" }), until: hold.until });
    const from = li.chat.length;
    li.bot.chat("/reason 慢慢想一想我该建什么");
    const thinking = await waitFor(() => bars.find((bar) => bar.includes("正在思考")), 10_000);
    expect(thinking).toContain("/system cancel");
    const cancelled = await li.say("/system cancel", (m) => /取消/.test(m.text));
    expect(cancelled.text).toMatch(/取消/);
    // the request ended on the server (its indicator closed with it; thinking-indicator.test times the repeats)
    const liId = uuidOf(server.system, "LiLei");
    await waitFor(() => (server.system.assistant.core.running(liId) ? undefined : true));
    await roundTrip(li);
    const shown = bars.length;
    // the model answers now: nothing of it reaches the player, and no thinking line follows
    hold.release();
    await waitFor(() => (model.inFlight === 0 ? true : undefined));
    await settled(server, li);
    expect(li.chat.slice(from).some((m) => m.text.includes("太慢的回答"))).toBe(false);
    expect(bars.length).toBe(shown);
  });

  it("tells a model that cannot be reached apart from not understood, in both languages, and logs it once", async () => {
    model.script({ status: 500 });
    const down = await steve.say("/system plorbix the wibbler", (m) => /model|not sure/i.test(m.text));
    expect(down.text).toContain("The AI model cannot be reached right now; please try again later.");
    const warnings = server.logger.lines.filter((line) => line.startsWith("WARN request "));
    expect(warnings.filter((line) => line.includes("model:failed:MODEL_UNAVAILABLE"))).toHaveLength(1);
    expect(warnings.join("\n")).not.toContain("plorbix");
    model.script({ text: "this is not json at all" });
    const invalid = await li.say("/system 帮我弄一下那个东西", (m) => /模型|请选择/.test(m.text));
    expect(invalid.text).toContain("AI 模型的回答无法使用");
    model.script({ text: JSON.stringify({ capabilityId: "clarify" }) });
    const unclear = await steve.say("/system something vague entirely", (m) => /mean/.test(m.text));
    expect(unclear.text).toContain("Which one did you mean?");
  });
});
