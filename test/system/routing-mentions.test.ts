import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinPlayer, type Player, type ShippedServer, speak, startShipped } from "./system-support.js";

/**
 * The shipped server without a model: a request that names an item is never routed directly to a workflow that
 * has no item slot (the player's own status), however close its words are; it gets the choice card instead, and
 * the same words without the item still reach the status directly. Nor is a question that shares only question
 * words with the status samples ("what do I feed my horse").
 */
describe("no direct route from an uncovered mention (shipped server, real bots)", () => {
  let server: ShippedServer;
  const players: Player[] = [];

  beforeAll(async () => {
    server = await startShipped();
  }, 120_000);

  afterAll(async () => {
    for (const player of players) player.quit();
    await server?.close();
  });

  it("answers '<item id> 物品信息' and 'my status <item id>' with a choice, never with the player's status", async () => {
    const steve = await joinPlayer(server.port, "Steve");
    players.push(steve);
    const status = await steve.say("/system my status", (m) => m.text.length > 0);
    expect(status.text).toMatch(/^Status of Steve\n/);
    const english = await steve.say("/system my status minecraft:diamond", (m) => m !== status);
    expect(english.text).toMatch(/^System is not sure what you meant\. Pick one:\n.*\[Look up: Diamond\]/s);

    await speak(server, steve, "zh_cn");
    const zhStatus = await steve.say("/system 我的状态", (m) => m !== english);
    expect(zhStatus.text).toMatch(/^Steve 的状态\n/);
    const chinese = await steve.say("/system 给我看 minecraft:diamond 的物品信息", (m) => m !== zhStatus);
    expect(chinese.text).toMatch(/^没能确定你的意思，请选择一项：\n.*\[查询：钻石\]/s);
  });

  it("answers a question that shares only question words with the status ('what do I cook soups in', 'where do I get steel') with a choice", async () => {
    const alex = await joinPlayer(server.port, "Alex");
    players.push(alex);
    const status = await alex.say("/system what world am I in", (m) => m.text.length > 0);
    expect(status.text).toMatch(/^Status of Alex\n/);
    let last = status;
    // where to get or do something, or where something was, is not the speaker's position now
    for (const text of [
      "what do I cook soups in",
      "what do I feed my horse",
      "where do I get steel",
      "where did I die",
    ]) {
      const reply = await alex.say(`/system ${text}`, (m) => m !== last);
      expect(reply.text, text).toMatch(/^System is not sure what you meant\. Pick one:\n/);
      expect(reply.text, text).not.toMatch(/Status of Alex/);
      last = reply;
    }
  });

  it("reads no vanilla item inside the id of an item this server lacks ('where do I get create:andesite_alloy')", async () => {
    const sam = await joinPlayer(server.port, "Sam");
    players.push(sam);
    const known = await sam.say("/system where do I get minecraft:andesite", (m) => m.text.length > 0);
    expect(known.text).toContain("ID: minecraft:andesite");
    const modded = await sam.say("/system where do I get create:andesite_alloy", (m) => m !== known);
    expect(modded.text).not.toContain("ID: minecraft:andesite");
    expect(modded.text).toMatch(/^System is not sure what you meant\. Pick one:\n/);
    // nor inside a longer name this server has no item for (an item of a mod it lacks)
    const dust = await sam.say("/system how do I make diamond dust", (m) => m !== modded);
    expect(dust.text).not.toContain("ID: minecraft:diamond");
    expect(dust.text).toMatch(/^System is not sure what you meant\. Pick one:\n/);
    const alloy = await sam.say("/system item andesite alloy", (m) => m !== dust);
    expect(alloy.text).toMatch(/^No item matches “andesite alloy”\./);
    // a word that only starts item names is no direct route, but the choice card offers the likely item
    const copper = await sam.say("/system where do I get copper", (m) => m !== alloy);
    expect(copper.text).toMatch(/^System is not sure what you meant\. Pick one:\n\[Look up: Copper Ingot\]/);
    // so does a question on what the item is for; an item named whole answers it with what it is used in
    const iron = await sam.say("/system what can I make with iron ingots", (m) => m !== copper);
    expect(iron.text).toMatch(/^Iron Ingot \(铁锭\)\n/);
    expect(iron.text).toMatch(/\nUsed in: Block of Iron, .* and \d+ more\n/);
    const uses = await sam.say("/system what is copper used for", (m) => m !== iron);
    expect(uses.text).toMatch(/^System is not sure what you meant\. Pick one:\n\[Look up: Copper Ingot\]/);
    // a dish or a build named after an item is not that item
    const juice = await sam.say("/system how do I make apple juice", (m) => m !== uses);
    expect(juice.text).not.toContain("ID: minecraft:apple");
    expect(juice.text).toMatch(/^System is not sure what you meant\. Pick one:\n/);
    // (a how-to of building: the knowledge base's)
    const farm = await sam.say("/system how do I build a wheat farm", (m) => m !== juice);
    expect(farm.text).not.toContain("ID: minecraft:wheat");
  });
});
