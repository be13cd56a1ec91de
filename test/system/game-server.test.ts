import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinPlayer, type Player, type ShippedServer, startShipped } from "./system-support.js";

/** The embedded game server as players meet it: its own commands and messages, chat, and command forms. */
describe("the embedded game server behaves", () => {
  let server: ShippedServer;
  let alex: Player;
  let steve: Player;

  beforeAll(async () => {
    server = await startShipped();
    alex = await joinPlayer(server.port, "Alex");
    steve = await joinPlayer(server.port, "Steve");
  }, 120_000);

  afterAll(async () => {
    alex?.quit();
    steve?.quit();
    await server?.close();
  });

  it("/help answers with System's help instead of failing silently", async () => {
    const help = await alex.say("/help", (m) => /What you can do now|not found|Unknown/i.test(m.text));
    expect(help.text).toContain("What you can do now");
  });

  it("shows the game server's own messages in colour, never as raw &-codes", async () => {
    const reply = await alex.say("/nosuchcommand", (m) => /not found/i.test(m.text));
    expect(reply.text).toContain("Command not found");
    expect(reply.text).not.toContain("&c");
  });

  it("runs /SYSTEM ITEM and a full-width ／system as commands; the full-width line never reaches public chat", async () => {
    const upper = await alex.say("/SYSTEM ITEM minecraft:stone", (m) => m.text.includes("minecraft:stone"));
    expect(upper.text).toMatch(/Stone/);
    const steveBefore = steve.chat.length;
    const wide = await alex.say("／system item minecraft:dirt", (m) => m.text.includes("minecraft:dirt"));
    expect(wide.text).toMatch(/Dirt/);
    await alex.say("/system item minecraft:stick", (m) => m.text.includes("minecraft:stick"));
    expect(steve.chat.slice(steveBefore).some((m) => m.text.includes("／system"))).toBe(false);
  });

  it("shows a player's chat to others exactly as typed, & and § included", async () => {
    alex.bot.chat("hello &cworld §lbold");
    const seen = await steve.next((m) => m.text.startsWith("<Alex> hello"));
    expect(seen.text).toBe("<Alex> hello &cworld ⸹lbold");
  });
});
