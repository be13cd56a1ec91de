import { describe, expect, it } from "vitest";
import { ItemCatalog } from "./item-catalog.js";
import { ItemMentions } from "./item-mentions.js";

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

  it("marks mentions as the <item> slot for routing", () => {
    expect(mentions.mark("钻石怎么获得").replace(/\s+/g, " ").trim()).toBe("<item> 怎么获得");
    expect(mentions.mark("how do you make iron ingots?").replace(/\s+/g, " ").trim()).toBe(
      "how do you make <item> ?",
    );
    expect(mentions.mark("where am i")).toBe("where am i");
  });
});
