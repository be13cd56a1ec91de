import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { joinPlayer, modelEnvironment, type ShippedServer, startShipped } from "./system-support.js";

const CLARIFY = JSON.stringify({ capabilityId: "clarify" });
const UNMATCHED = "please tell me a story about the moon";
const MODE_REPLY = /^(⚠ )?(Your mode|An admin set|full needs|Unknown mode|.* is not a mode you may choose)/;
/** What simple mode answers text that matches no command (it asks no model). */
const NOT_SURE = /^System is not sure what you meant/;

/**
 * Players choosing their own execution mode on the shipped server with a model: `/system mode` shows the mode and
 * where it comes from; a player switches between the modes the server allows and sees the effect (simple asks the
 * model nothing, routing does); `full` is refused while free chat is switched off and runs free chat once it is
 * on; an admin narrows the allowed set, sets one player's mode over their choice, and sets the default.
 */
describe("players choose their mode (shipped server)", () => {
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

  it("lets a player switch between the allowed modes and see the effect; an admin's choices win", async () => {
    const mia = await joinPlayer(server.port, "Mia");
    const admin = await joinPlayer(server.port, "Admin");
    try {
      const shown = await mia.say("/system mode", (m) => MODE_REPLY.test(m.text));
      expect(shown.text).toBe(
        "Your mode: routing (the server's default). Modes you may choose: simple, routing, ask, full.",
      );
      // full needs free chat: refused while an admin has it switched off, then free chat answers plain text
      await admin.say("/system feature disable system:free_chat", (m) => /free_chat/.test(m.text));
      const full = await mia.say("/system mode full", (m) => MODE_REPLY.test(m.text));
      expect(full.text).toBe(
        "⚠ full needs free chat, which is not installed or not enabled for you on this server; choose routing or ask.",
      );
      await admin.say("/system feature enable system:free_chat", (m) => /free_chat/.test(m.text));
      expect((await mia.say("/system mode full", (m) => MODE_REPLY.test(m.text))).text).toBe(
        "Your mode is now full.",
      );
      const asked = model.requests.length;
      model.script({ text: JSON.stringify({ type: "answer", text: "Free chat here." }) });
      expect((await mia.say(`/system ${UNMATCHED}`, (m) => m.text === "Free chat here.")).text).toBe(
        "Free chat here.",
      );
      expect(model.requests.length).toBe(asked + 1);
      expect(model.requests.at(-1)?.system).toContain(
        "You are System, the assistant of a Minecraft server, in free chat",
      );

      expect((await mia.say("/system mode simple", (m) => MODE_REPLY.test(m.text))).text).toBe(
        "Your mode is now simple.",
      );
      const quiet = model.requests.length;
      await mia.say(`/system ${UNMATCHED}`, (m) => NOT_SURE.test(m.text));
      expect(model.requests.length).toBe(quiet);

      expect((await mia.say("/system 模式 routing", (m) => MODE_REPLY.test(m.text))).text).toBe(
        "Your mode is now routing.",
      );
      // routing: the model router is asked (and, finding no workflow, extension chat answers once)
      model.script({ text: CLARIFY }, { text: "I only know Minecraft stories." });
      await mia.say(`/system ${UNMATCHED}!`, (m) => m.text.startsWith("💬"));
      expect(model.requests.length).toBe(quiet + 2);

      // the admin narrows the modes players may choose
      const allowed = await admin.say("/system mode allow simple routing", (m) =>
        /may now choose/.test(m.text),
      );
      expect(allowed.text).toBe("Players may now choose these modes: simple, routing.");
      expect((await mia.say("/system mode ask", (m) => MODE_REPLY.test(m.text))).text).toBe(
        "⚠ ask is not a mode you may choose here. Allowed: simple, routing.",
      );
      // an admin's mode for the player wins over the player's choice
      await admin.say("/system mode simple Mia", (m) => /Execution mode of Mia/.test(m.text));
      expect((await mia.say("/system mode routing", (m) => MODE_REPLY.test(m.text))).text).toBe(
        "⚠ An admin set your mode to simple; only an admin can change it.",
      );
      expect((await mia.say("/system 模式", (m) => MODE_REPLY.test(m.text))).text).toBe(
        "Your mode: simple (set for you by an admin). Modes players may choose: simple, routing.",
      );
      // players may not change the server's settings
      const refused = await mia.say("/system mode default ask", (m) =>
        /^⚠ Wrong command syntax/.test(m.text),
      );
      expect(refused.text).toBe(
        "⚠ Wrong command syntax. Usage: /system mode; /system mode ask|full|routing|simple",
      );
      expect(server.system.assistant.infrastructure.access.get().defaultMode).toBe("routing");
      await admin.say("/system mode default simple", (m) =>
        /Server execution mode is now simple/.test(m.text),
      );
      const neo = await joinPlayer(server.port, "Neo");
      try {
        expect((await neo.say("/system mode", (m) => MODE_REPLY.test(m.text))).text).toBe(
          "Your mode: simple (the server's default). Modes you may choose: simple, routing.",
        );
      } finally {
        neo.quit();
      }
    } finally {
      mia.quit();
      admin.quit();
    }
  }, 90_000);
});
