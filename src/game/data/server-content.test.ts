import { describe, expect, it } from "vitest";
import { contentStub } from "../../../test/support/server-content-stub.js";
import { ItemCatalog } from "./item-catalog.js";
import { ItemMentions } from "./item-mentions.js";
import { ItemSources } from "./item-sources.js";
import type { ServerContent, ServerRecipe } from "./server-content.js";

/** A pack of given items (id → en, zh) with one recipe per item from minecraft:iron_nugget. */
const pack = (items: Record<string, [string, string?]>): ServerContent => {
  const names = (id: string): Record<string, string> => {
    const [en, zh] = items[id] ?? [];
    return { ...(en === undefined ? {} : { en_us: en }), ...(zh === undefined ? {} : { zh_cn: zh }) };
  };
  return contentStub({
    items: () =>
      Object.keys(items).map((id) => ({ id, mod: id.split(":")[0]!, modName: "Test Mod", names: names(id) })),
    item: (id) => (items[id] === undefined ? undefined : { names: names(id) }),
    name: (id, locale) => names(id)[locale],
    recipesFor: (id): ServerRecipe[] =>
      items[id] === undefined
        ? []
        : [
            {
              id: `${id}_recipe`,
              type: "testmod:pressing",
              inputs: [{ options: ["#c:nuggets"], count: 3 }],
              outputs: [{ item: id, count: 2 }],
            },
          ],
    tagItems: (tag) => (tag === "#c:nuggets" ? ["minecraft:iron_nugget", "minecraft:gold_nugget"] : []),
  });
};

describe("the item catalog with the server's content", () => {
  it("adds modded items beside vanilla, and a reload replaces them: look-ups and mentions follow", () => {
    const catalog = ItemCatalog.forVersion("1.21.4");
    const mentions = new ItemMentions(catalog);
    expect(mentions.find("安山合金怎么做")).toBeUndefined();
    catalog.useContent(
      pack({
        "create:andesite_alloy": ["Andesite Alloy", "安山合金"],
        "testmod:iron_nugget": ["Iron Nugget"],
      }),
    );
    expect(catalog.lookup("安山合金")?.mod).toEqual({ id: "create", name: "Test Mod" });
    expect(catalog.lookup("andesite_alloy")?.id).toBe("create:andesite_alloy");
    expect(mentions.find("安山合金怎么做")?.id).toBe("create:andesite_alloy");
    // a mod reusing a vanilla name leaves the vanilla item named
    expect(catalog.lookup("Iron Nugget")?.id).toBe("minecraft:iron_nugget");
    expect(mentions.find("how do I get an iron nugget")?.id).toBe("minecraft:iron_nugget");
    const sources = new ItemSources(catalog.data, catalog).of("create:andesite_alloy");
    expect(sources.recipes).toEqual([
      {
        type: "testmod:pressing",
        shaped: false,
        resultCount: 2,
        ingredients: [
          { item: "#c:nuggets", count: 3, options: ["minecraft:iron_nugget", "minecraft:gold_nugget"] },
        ],
      },
    ]);
    catalog.useContent(pack({ "mekanism:ingot_steel": ["Steel Ingot", "钢锭"] }));
    expect(catalog.lookup("create:andesite_alloy")).toBeUndefined();
    expect(mentions.find("安山合金怎么做")).toBeUndefined();
    expect(mentions.find("钢锭怎么做")?.id).toBe("mekanism:ingot_steel");
  });

  it("suggests the items of the content in use: a reload replaces what searches find", () => {
    const catalog = ItemCatalog.forVersion("1.21.4");
    const ids = (query: string): string[] => catalog.search(query, 5).map((info) => info.id);
    expect(ids("alloy")).toEqual([]);
    catalog.useContent(pack({ "create:andesite_alloy": ["Andesite Alloy", "安山合金"] }));
    expect(ids("alloy")).toEqual(["create:andesite_alloy"]);
    expect(ids("安山合")).toEqual(["create:andesite_alloy"]);
    catalog.useContent(pack({ "mekanism:ingot_steel": ["Steel Ingot", "钢锭"] }));
    expect(ids("alloy")).toEqual([]);
    expect(ids("钢")).toContain("mekanism:ingot_steel");
    catalog.useContent(undefined);
    expect(ids("钢")).not.toContain("mekanism:ingot_steel");
  });

  it("ranks a pack's base material first in searches: the item most of its recipes take", () => {
    const names: Record<string, string> = {
      "testmod:steel_dust": "Steel Dust",
      "testmod:steel_ingot": "Steel Ingot",
      "testmod:steel_plate": "Steel Plate",
      "testmod:steel_gear": "Steel Gear",
    };
    const uses: Record<string, number> = { "testmod:steel_ingot": 2, "testmod:steel_dust": 1 };
    const content = contentStub({
      items: () =>
        Object.entries(names).map(([id, en]) => ({
          id,
          mod: "testmod",
          modName: "Test Mod",
          names: { en_us: en },
        })),
      item: (id) => (names[id] === undefined ? undefined : { names: { en_us: names[id] } }),
      uses: (id) => uses[id] ?? 0,
    });
    const catalog = ItemCatalog.forVersion("1.21.4");
    catalog.useContent(content);
    expect(catalog.uses("testmod:steel_ingot")).toBe(2);
    expect(catalog.uses("testmod:steel_dust")).toBe(1);
    expect(catalog.search("steel", 4)[0]?.id).toBe("testmod:steel_ingot");
    catalog.useContent(undefined);
    expect(catalog.uses("testmod:steel_ingot")).toBe(0);
  });
});
