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
});
