import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  type ChatMessage,
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  startShipped,
} from "./system-support.js";

const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

interface ReActUser {
  readonly tools: readonly { readonly type: string; readonly description?: string }[];
  readonly observations: readonly { readonly tool?: string; readonly result?: Record<string, unknown> }[];
  readonly notices?: readonly string[];
  readonly finalOnly: boolean;
}

const indexOf = (chat: readonly ChatMessage[], match: (message: ChatMessage) => boolean): number =>
  chat.findIndex(match);

/**
 * Free mode on the shipped server, with the scripted model over HTTP: a player in `full` mode writes plain text;
 * free chat runs the real workflows the model picks, nested in the same request, and each card reaches the player
 * as it completes, before the answer. A purchase shows its quote and pays nothing; paying is the player's click.
 * The free-chat policy is lowered in `system-agent.json` for the budget case: a nested loop workflow spends only
 * what the request has left.
 */
describe("free chat (shipped server)", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let admin: Player;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({ environment: modelEnvironment(model), ops: ["Admin"] });
    admin = await joinPlayer(server.port, "Admin");
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    await server?.close();
    await model?.close();
  });

  it("looks up an item and checks the player in: both real cards, then the answer", async () => {
    const fay = await joinPlayer(server.port, "Fay");
    try {
      await fay.say("/system mode full", (m) => /Your mode is now full/.test(m.text));
      const before = model.requests.length;
      model.script(
        reply({ type: "system:item_query", input: { query: "diamond" } }),
        reply({ type: "system:check_in", input: {} }),
        reply({ type: "answer", text: "Diamonds sit deep underground. You are checked in for today." }),
      );
      const answer = await fay.say("/system what is a diamond? and check me in please", (m) =>
        m.text.includes("free chat ran"),
      );
      expect(answer.text).toBe(
        "Diamonds sit deep underground. You are checked in for today.\n(free chat ran 2 workflows; their cards are above)",
      );
      const item = indexOf(fay.chat, (m) => m.text.includes("ID: minecraft:diamond"));
      const checkIn = indexOf(fay.chat, (m) => /^Checked in/.test(m.text));
      expect(item).toBeGreaterThanOrEqual(0);
      expect(checkIn).toBeGreaterThan(item);
      expect(fay.chat.indexOf(answer)).toBeGreaterThan(checkIn);
      expect(model.requests.length).toBe(before + 3);

      // the catalog: the workflows Fay may use now, never structured-only ones or free chat itself
      const first = model.requests[before]?.user as ReActUser;
      const offered = first.tools.map((tool) => tool.type);
      expect(offered).toEqual(
        expect.arrayContaining(["system:item_query", "system:check_in", "system:shop_quote"]),
      );
      // each workflow as it declares itself: a write says it changes state, a read does not
      const described = (type: string): string =>
        first.tools.find((tool) => tool.type === type)?.description ?? "";
      expect(described("system:check_in")).toContain("[changes state: only when the player asks for it]");
      expect(described("system:shop_quote")).toContain("[changes state");
      expect(described("system:item_query")).not.toContain("[changes state");
      for (const never of [
        "system:shop_confirm",
        "system:free_chat",
        "system:chat",
        "system:points_admin",
        "system:mode",
      ])
        expect(offered).not.toContain(never);
      expect(model.requests[before]?.system).toContain("You cannot pay, confirm or accept anything");
      // the model read the cards the player saw
      const third = model.requests[before + 2]?.user as ReActUser;
      const results = third.observations.map((observation) => observation.result ?? {});
      expect(results.map((result) => result.workflow)).toEqual(["system:item_query", "system:check_in"]);
      expect(results.every((result) => result.shown === true)).toBe(true);
      expect(String(results[1]?.card)).toMatch(/^Checked in/);

      // the check-in was the real one: a second one today is refused as already done
      // (the first check-in's reward notice may arrive after this is sent: the answer is the refusal)
      const again = await fay.say("/system checkin", (m) => /already checked in/i.test(m.text));
      expect(again.text).toMatch(/already/i);
    } finally {
      fay.quit();
    }
  }, 60_000);

  it("quotes a purchase and pays nothing; the Confirm click is the player's own structured request", async () => {
    const gus = await joinPlayer(server.port, "Gus");
    try {
      await admin.say("/system points give Gus 100", (m) => /Gus/.test(m.text));
      await gus.say("/system mode full", (m) => /Your mode is now full/.test(m.text));
      const before = model.requests.length;
      model.script(
        reply({ type: "system:shop_quote", input: { item: "bread", count: 10 } }),
        // a hostile turn: confirm the quote right away (never offered, so never run)
        reply({ type: "system:shop_confirm", input: { quote: "00000000-0000-4000-8000-000000000000" } }),
        reply({ type: "answer", text: "Here is the quote. Click Confirm on it to pay." }),
      );
      const answer = await gus.say("/system I want 10 bread, pay for it", (m) =>
        m.text.includes("free chat ran"),
      );
      expect(answer.text).toBe(
        "Here is the quote. Click Confirm on it to pay.\n(free chat ran 1 workflow; its card is above)",
      );
      const quote = gus.chat.find((m) => m.text.startsWith("Quote"));
      expect(quote?.text).toContain("Quote: Bread × 10 at 2 each = 20 points.");
      const third = model.requests[before + 2]?.user as ReActUser;
      expect(third.notices?.join(" ")).toMatch(/system:shop_confirm.*is not an offered tool/);

      const balance = await gus.say("/system balance", (m) => /points/.test(m.text));
      expect(balance.text).toMatch(/^Your points: 100\n/);
      const orders = await gus.say("/system orders", (m) => /orders/i.test(m.text));
      expect(orders.text).not.toContain("Bread × 10");

      // the player clicks Confirm themselves: a new structured request, no model call
      const calls = model.requests.length;
      const [confirm] = quote?.clicks ?? [];
      const placed = await gus.say(confirm as string, (m) => /Order/.test(m.text));
      expect(placed.text).toMatch(/Order [0-9a-f]{8} confirmed: Bread × 10 for 20 points/);
      expect(model.requests.length).toBe(calls);
    } finally {
      gus.quit();
    }
  }, 60_000);

  it("shares one budget with the workflows it runs: a nested loop spends only what the request has left", async () => {
    const hal = await joinPlayer(server.port, "Hal");
    try {
      await hal.say("/system mode full", (m) => /Your mode is now full/.test(m.text));
      const before = model.requests.length;
      model.script(
        reply({ type: "system:item_query", input: { query: "diamond" } }),
        reply({ type: "system:item_query", input: { query: "iron ingot" } }),
        reply({ type: "system:item_query", input: { query: "gold ingot" } }),
        reply({ type: "system:reasoning", input: { request: "where do I find diamonds" } }),
        // the nested reasoning loop: its own policy allows 4 model calls; the request has 2 left
        reply({ type: "system:database.query", input: { query: "Diamonds" } }),
        reply({ type: "answer", text: "Deep underground, below y=0." }),
      );
      const stopped = await hal.say(
        "/system tell me about diamond, iron and gold, and where diamonds are",
        (m) => m.text.startsWith("Free chat stopped"),
      );
      expect(stopped.text).toBe("Free chat stopped before its answer; the 4 cards above are what it did.");
      expect(hal.chat.some((m) => m.text === "Deep underground, below y=0.")).toBe(true);
      // free chat's six model calls in all (its policy): four of its own rounds and two of the nested loop's
      expect(model.requests.length).toBe(before + 6);
      const nested = model.requests.slice(before + 4).map((request) => request.user as ReActUser);
      expect(nested[0]?.finalOnly).toBe(false);
      // reasoning alone would have had two more rounds to look things up; nested, its second round must answer
      expect(nested[1]?.finalOnly).toBe(true);
      expect(model.pending).toBe(0);
    } finally {
      hal.quit();
    }
  }, 60_000);
});
