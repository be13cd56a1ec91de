import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { joinPlayer, modelEnvironment, type ShippedServer, startShipped } from "./system-support.js";

const CLARIFY = JSON.stringify({ capabilityId: "clarify" });

/**
 * Extension chat on the shipped server: in `routing` mode, a text the model router finds no workflow for gets one
 * plain model reply (no tools offered, one model call), marked as chat; in `simple` mode, or for a player whose AI
 * is off, the same text asks the model nothing.
 */
describe("extension chat (shipped server)", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({ environment: modelEnvironment(model), ops: ["Admin"] });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it("answers once with a plain reply marked as chat when no workflow fits; never in simple mode", async () => {
    const luna = await joinPlayer(server.port, "Luna");
    try {
      const before = model.requests.length;
      model.script(
        { text: CLARIFY },
        { text: "The moon is about 384,000 km away. Try /system help for what I can do." },
      );
      const reply = await luna.say("/system tell me a story about the moon", (m) => m.text.startsWith("💬"));
      expect(reply.text).toBe(
        "💬 The moon is about 384,000 km away. Try /system help for what I can do.\n(chat reply: no workflow fits this, so no tools were used)",
      );
      // the router's call and exactly one chat call, which offers no tools and carries the text as data
      expect(model.requests.length).toBe(before + 2);
      const chat = model.requests.at(-1);
      expect(chat?.body.tools).toBeUndefined();
      expect(chat?.user).toEqual({ text: "tell me a story about the moon" });
      expect(chat?.system).toContain("You have no tools");

      await luna.say("/system mode simple", (m) => /Your mode is now simple/.test(m.text));
      const quiet = model.requests.length;
      // simple mode asks no model: text that matches no command gets the local choices
      const simple = await luna.say("/system tell me another story about the moon", (m) =>
        /^(💬|System is not sure what you meant)/.test(m.text),
      );
      expect(simple.text.startsWith("System is not sure what you meant")).toBe(true);
      expect(model.requests.length).toBe(quiet);
    } finally {
      luna.quit();
    }
  }, 60_000);
});
