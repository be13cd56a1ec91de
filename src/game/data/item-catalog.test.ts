import { describe, expect, it } from "vitest";
import { gameData, ItemCatalog } from "./item-catalog.js";
import { loadItemNames } from "./zh-item-names.js";

const catalog = ItemCatalog.forVersion("1.21.4");

describe("ItemCatalog", () => {
  it("finds an item by namespaced id, bare id, English name and Chinese name", () => {
    for (const query of ["minecraft:diamond", "diamond", "Diamond", " DIAMOND ", "钻石"]) {
      expect(catalog.lookup(query)?.id).toBe("minecraft:diamond");
    }
    expect(catalog.lookup("diamond pickaxe")?.id).toBe("minecraft:diamond_pickaxe");
    expect(catalog.lookup("下界合金锭")?.id).toBe("minecraft:netherite_ingot");
  });

  it("reports both names and the stack size", () => {
    expect(catalog.lookup("minecraft:ender_pearl")).toMatchObject({
      names: { en_us: "Ender Pearl", zh_cn: "末影珍珠" },
      stackSize: 16,
    });
    expect(catalog.lookup("diamond_sword")?.stackSize).toBe(1);
  });

  it("answers undefined for unknown items and searches by prefix in either language", () => {
    expect(catalog.lookup("minecraft:unobtainium")).toBeUndefined();
    expect(catalog.lookup("")).toBeUndefined();
    const ids = catalog.search("钻石", 20).map((info) => info.id);
    expect(ids).toContain("minecraft:diamond_ore");
    expect(ids[0]).toBe("minecraft:diamond");
    expect(catalog.search("iron ing").map((info) => info.id)).toContain("minecraft:iron_ingot");
  });

  it("ranks the base material first for a partial name in either language", () => {
    expect(catalog.search("iron", 3)[0]?.id).toBe("minecraft:iron_ingot");
    expect(catalog.search("铁", 3)[0]?.id).toBe("minecraft:iron_ingot");
    expect(catalog.search("gold", 3)[0]?.id).toBe("minecraft:gold_ingot");
    expect(catalog.search("金", 3)[0]?.id).toBe("minecraft:gold_ingot");
    expect(catalog.uses("minecraft:iron_ingot")).toBeGreaterThan(catalog.uses("minecraft:iron_nugget"));
  });

  it("ships a zh_cn table of real 1.21.4 items and blocks, items with distinct names where English has them", () => {
    const names = loadItemNames();
    expect(names.size).toBeGreaterThanOrEqual(1300);
    const data = gameData("1.21.4");
    const unknown = [...names.keys()].filter(
      (id) =>
        data.itemsByName[id.slice("minecraft:".length)] === undefined &&
        data.blocksByName[id.slice("minecraft:".length)] === undefined,
    );
    expect(unknown).toEqual([]);
    const itemNames = [...names].filter(
      ([id]) => data.itemsByName[id.slice("minecraft:".length)] !== undefined,
    );
    // vanilla names every music disc 音乐唱片 ("Music Disc" in English too); no other two items share a name
    const english = (id: string): string | undefined =>
      data.itemsByName[id.slice("minecraft:".length)]?.displayName;
    const duplicates = itemNames.filter(
      ([id, name]) =>
        itemNames.find(
          ([other, otherName]) => otherName === name && other !== id && english(other) !== english(id),
        ) !== undefined,
    );
    expect(duplicates).toEqual([]);
    for (const id of [
      "minecraft:coal",
      "minecraft:iron_ingot",
      "minecraft:bread",
      "minecraft:iron_chestplate",
    ]) {
      expect(names.has(id)).toBe(true);
    }
  });
});
