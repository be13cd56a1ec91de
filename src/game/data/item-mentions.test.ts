import { describe, expect, it } from "vitest";
import { contentStub } from "../../../test/support/server-content-stub.js";
import { ItemCatalog } from "./item-catalog.js";
import { ItemMentions } from "./item-mentions.js";
import type { ServerContent } from "./server-content.js";

/** Content of given modded items (id → English, Chinese name). */
const modContent = (items: Record<string, [string, string]>): ServerContent =>
  contentStub({
    items: () =>
      Object.entries(items).map(([id, [en, zh]]) => ({
        id,
        mod: id.split(":")[0]!,
        modName: "Test Mod",
        names: { en_us: en, zh_cn: zh },
      })),
  });

const mentions = new ItemMentions(ItemCatalog.forVersion("1.21.4"));

describe("ItemMentions", () => {
  it("finds items by id, by name in both languages, plural and without the namespace", () => {
    expect(mentions.find("帮我查一下 minecraft:iron_ingot 这个物品")?.id).toBe("minecraft:iron_ingot");
    expect(mentions.find("铁锭怎么来的")?.id).toBe("minecraft:iron_ingot");
    expect(mentions.find("how do you make torches")?.id).toBe("minecraft:torch");
    expect(mentions.find("where do I find slime balls")?.id).toBe("minecraft:slime_ball");
    expect(mentions.find("how do i get redstone")?.id).toBe("minecraft:redstone");
    expect(mentions.find("how do I make a bucket")?.id).toBe("minecraft:bucket");
  });

  it("reads names players use that are not the official ones", () => {
    expect(mentions.find("史莱姆球去哪刷")?.id).toBe("minecraft:slime_ball");
    expect(mentions.find("桶怎么合成")?.id).toBe("minecraft:bucket");
    expect(mentions.find("萤石粉哪里有")?.id).toBe("minecraft:glowstone_dust");
  });

  it("takes the longest mention and refuses to choose between two ids", () => {
    expect(mentions.find("钻石镐需要几个钻石")?.id).toBe("minecraft:diamond_pickaxe");
    expect(mentions.find("compare minecraft:stick and minecraft:diamond")).toBeUndefined();
    expect(mentions.find("what is the light level for spawning")).toBeUndefined();
    expect(mentions.find("在线人数")).toBeUndefined();
  });

  it("reads no vanilla item inside an id the catalog lacks (an item of a mod this server does not have)", () => {
    expect(mentions.find("create:andesite_alloy")).toBeUndefined();
    expect(mentions.find("where do I get create:andesite_alloy")).toBeUndefined();
    expect(mentions.mark("where do I get create:andesite_alloy")).toBe(
      "where do I get create:andesite_alloy",
    );
    // a name beside it still counts
    expect(mentions.find("is create:andesite_alloy made from andesite")?.id).toBe("minecraft:andesite");
    // vanilla's namespace, a count after a colon, an item's name before one: names as before
    expect(mentions.find("minecraft:diamonds")?.id).toBe("minecraft:diamond");
    expect(mentions.find("mc:diamond")?.id).toBe("minecraft:diamond");
    expect(mentions.find("torch:64 please")?.id).toBe("minecraft:torch");
    expect(mentions.find("craft iron_ingot:3")?.id).toBe("minecraft:iron_ingot");
    expect(mentions.find("diamond：64个")?.id).toBe("minecraft:diamond");
  });

  it("reads no vanilla item inside a longer name the catalog lacks (diamond dust, andesite alloy, 精炼黑曜石)", () => {
    for (const text of [
      "how do I make diamond dust",
      "how do I make andesite alloy",
      "where do i get iron plates",
      "how do i get refined obsidian",
      "钻石粉怎么做",
      "安山合金怎么做",
      "精炼黑曜石怎么做",
      // a dish or a build named after its item is neither (a mod's sauce, an iron farm)
      "how do i make apple juice",
      "how do I build a wheat farm",
      "carrot juice recipe",
      "苹果汁怎么做",
      "南瓜农场怎么建",
    ])
      expect(mentions.find(text), text).toBeUndefined();
    // dishes the game has are found whole
    expect(mentions.find("how do I make pumpkin pie")?.id).toBe("minecraft:pumpkin_pie");
    expect(mentions.find("how do I make mushroom stew")?.id).toBe("minecraft:mushroom_stew");
    expect(mentions.find("甜菜汤怎么做")?.id).toBe("minecraft:beetroot_soup");
    // a longer name the catalog knows is found whole, and a name with ordinary words around it still counts
    expect(mentions.find("how to get glowstone dust")?.id).toBe("minecraft:glowstone_dust");
    expect(mentions.find("how do i make a blaze rod")?.id).toBe("minecraft:blaze_rod");
    expect(mentions.find("how do i get gold nuggets")?.id).toBe("minecraft:gold_nugget");
    expect(mentions.find("红石粉怎么获得")?.id).toBe("minecraft:redstone");
    // ordinary words are no parts: gear (equipment), wire, 强化 (upgrade), 粉碎 (crush)
    expect(mentions.find("how do I get diamond gear")?.id).toBe("minecraft:diamond");
    expect(mentions.find("怎么强化钻石剑")?.id).toBe("minecraft:diamond_sword");
    expect(mentions.find("铁矿石粉碎")?.id).toBe("minecraft:iron_ore");
    expect(mentions.find("怎么粉碎铁矿石")?.id).toBe("minecraft:iron_ore");
    expect(mentions.find("烈焰粉怎么来")?.id).toBe("minecraft:blaze_powder");
    expect(mentions.find("how do i get a diamond block")?.id).toBe("minecraft:diamond_block");
    expect(mentions.find("how many diamonds for a diamond pickaxe")?.id).toBe("minecraft:diamond_pickaxe");
    // on a server with the mod, its item is the mention
    const catalog = ItemCatalog.forVersion("1.21.4");
    catalog.useContent(modContent({ "create:andesite_alloy": ["Andesite Alloy", "安山合金"] }));
    const modded = new ItemMentions(catalog);
    expect(modded.find("how do I make andesite alloy")?.id).toBe("create:andesite_alloy");
    expect(modded.find("安山合金怎么做")?.id).toBe("create:andesite_alloy");
  });

  it("marks mentions as the <item> slot for routing", () => {
    expect(mentions.mark("钻石怎么获得").replace(/\s+/g, " ").trim()).toBe("<item> 怎么获得");
    expect(mentions.mark("how do you make iron ingots?").replace(/\s+/g, " ").trim()).toBe(
      "how do you make <item> ?",
    );
    expect(mentions.mark("where am i")).toBe("where am i");
  });
});
