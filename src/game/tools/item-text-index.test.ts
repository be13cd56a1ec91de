import { describe, expect, it } from "vitest";
import { ItemCatalog } from "../data/item-catalog.js";
import { ItemTextIndex } from "./item-text-index.js";

const index = new ItemTextIndex(ItemCatalog.forVersion("1.21.4"));

describe("ItemTextIndex", () => {
  it("finds the item a sentence names, by id or by its longest name", () => {
    expect(index.find("钻石怎么获得")?.id).toBe("minecraft:diamond");
    expect(index.find("how do I get an iron ingot")?.id).toBe("minecraft:iron_ingot");
    expect(index.find("minecraft:ender_pearl 在哪")?.id).toBe("minecraft:ender_pearl");
  });

  it("reads a bare partial name as the base item", () => {
    for (const text of ["iron", " Iron ", "铁"])
      expect(index.find(text)?.id, text).toBe("minecraft:iron_ingot");
    expect(index.find("gold")?.id).toBe("minecraft:gold_ingot");
  });

  it("does not guess from fragments inside words or from unrelated text", () => {
    for (const text of ["ron", "hello", "how do I get there", "你好"])
      expect(index.find(text), text).toBeUndefined();
  });

  it("guesses, for a choice button only, the item a question names by the start of its name", () => {
    // "copper" names no item whole: no direct reading, but a guess
    expect(index.find("where do i get copper")).toBeUndefined();
    expect(index.guess("where do i get copper")?.id).toBe("minecraft:copper_ingot");
    expect(index.guess("where can I find some coppers")?.id).toBe("minecraft:copper_ingot");
    expect(index.guess("哪里能找到铜")?.names.zh_cn).toMatch(/^铜/);
    // what an item is for: the words of the question are no part of the name
    expect(index.guess("what is copper used for")?.id).toBe("minecraft:copper_ingot");
    expect(index.guess("铜有什么用")?.names.zh_cn).toMatch(/^铜/);
    // a whole name is the guess too; a word no item name starts with is none
    expect(index.guess("how do I get diamonds")?.id).toBe("minecraft:diamond");
    for (const text of [
      "where do I get steel",
      "how do i get there",
      "怎么去下界",
      "how do i get to the nether",
    ])
      expect(index.guess(text), text).toBeUndefined();
  });
});
