import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GatewayUnderTest,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
} from "./gateway-support.js";
import {
  joinBot,
  joinPlayer,
  type Player,
  type ShippedServer,
  speak,
  startShipped,
  welcomeGiftQuestFiles,
} from "./system-support.js";

/** What a client shows after Tab: the matches the server sent for the line typed so far. */
const tab = async (bot: Bot, line: string): Promise<string[]> => {
  const matches = (await bot.tabComplete(line, true, false, 20_000)) as unknown[];
  return matches.map((match) => (typeof match === "string" ? match : (match as { match: string }).match));
};

/**
 * Tab completion of arguments in game: `/system item <name>` completes item names and `/system quest <title>` the
 * titles of the quests the player can see, in the player's language, on the embedded world (flying-squid's
 * tab_complete replaced) and through the gateway (declare_commands asks the server; tab_complete answered there).
 */
describe("completion of arguments", () => {
  let server: ShippedServer;
  let alex: Player;
  let li: Player;

  beforeAll(async () => {
    server = await startShipped({ files: welcomeGiftQuestFiles() });
    alex = await joinPlayer(server.port, "Alex");
    li = await joinPlayer(server.port, "LiLei");
    await speak(server, li, "zh_cn");
  }, 120_000);

  afterAll(async () => {
    alex?.quit();
    li?.quit();
    await server?.close();
  });

  it("completes item names in English for an English client", async () => {
    const matches = await tab(alex.bot, "/system item dia");
    expect(matches).toEqual(expect.arrayContaining(["Diamond", "Diamond Sword", "Diamond Pickaxe"]));
    expect(matches.every((match) => match.toLowerCase().startsWith("dia"))).toBe(true);
    expect(matches).not.toContain("钻石");
  });

  it("completes the rest of a name with spaces as the last word typed", async () => {
    expect(await tab(alex.bot, "/system item diamond sw")).toEqual(["Sword"]);
  });

  it("completes ids when an id is typed", async () => {
    expect(await tab(alex.bot, "/system item minecraft:diamond_sw")).toEqual(["minecraft:diamond_sword"]);
  });

  it("completes item names in Chinese for a Chinese client, under the Chinese alias too", async () => {
    expect(await tab(li.bot, "/system item 钻")).toEqual(expect.arrayContaining(["钻石", "钻石剑"]));
    expect(await tab(li.bot, "/system 查询物品 钻石")).toEqual(expect.arrayContaining(["钻石剑", "钻石镐"]));
    // English typed on a Chinese client still finds the English names
    expect(await tab(li.bot, "/system item diamond sw")).toEqual(["Sword"]);
  });

  it("completes the titles of quests the player can see", async () => {
    expect(await tab(alex.bot, "/system quest Wel")).toEqual(["Welcome Gift"]);
    expect(await tab(alex.bot, "/system quest Nothing")).toEqual([]);
  });
});

describe("completion of arguments through the gateway", () => {
  let backend: PlainBackend;
  let gateway: GatewayUnderTest;
  let bot: Bot;

  beforeAll(async () => {
    backend = await startPlainBackend();
    gateway = await startGatewayFor(backend.port, { assistant: true, environment: {} });
    bot = await joinBot(gateway.port, "Steve");
  }, 90_000);

  afterAll(async () => {
    bot?.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("completes item names at the gateway", async () => {
    expect(await tab(bot, "/system item diamond sw")).toEqual(["Sword"]);
    expect(await tab(bot, "/system item dia")).toEqual(expect.arrayContaining(["Diamond", "Diamond Sword"]));
  });
});
