import { describe, expect, it } from "vitest";
import { ItemCatalog } from "./item-catalog.js";
import { ITEM_SOURCES, ItemSources } from "./item-sources.js";

const catalog = ItemCatalog.forVersion("1.21.4");
const sources = new ItemSources(catalog.data, catalog);

describe("ItemSources", () => {
  it("lists the blocks that drop diamonds and the block recipe", () => {
    const diamond = sources.of("minecraft:diamond");
    expect(ITEM_SOURCES.decode(diamond).success).toBe(true);
    expect(diamond.blocks.map((drop) => drop.block)).toEqual(
      expect.arrayContaining(["minecraft:diamond_ore", "minecraft:deepslate_diamond_ore"]),
    );
    expect(diamond.recipes).toContainEqual({
      shaped: false,
      resultCount: 9,
      ingredients: [{ item: "minecraft:diamond_block", count: 1 }],
    });
  });

  it("names the ingredients and shape of a shaped recipe", () => {
    const [recipe] = sources.of("diamond_pickaxe").recipes;
    expect(recipe).toMatchObject({ shaped: true, resultCount: 1 });
    expect(recipe?.ingredients).toEqual(
      expect.arrayContaining([
        { item: "minecraft:diamond", count: 3 },
        { item: "minecraft:stick", count: 2 },
      ]),
    );
    expect(recipe?.shape?.[0]).toEqual(["minecraft:diamond", "minecraft:diamond", "minecraft:diamond"]);
  });

  it("lists entity loot with the player-kill condition", () => {
    const flesh = sources.of("rotten_flesh");
    expect(flesh.entities).toContainEqual(
      expect.objectContaining({ entity: "minecraft:zombie", chance: 1, playerKill: false }),
    );
    const pearl = sources.of("ender_pearl");
    expect(pearl.entities.map((drop) => drop.entity)).toContain("minecraft:enderman");
  });

  it("deduplicates recipes and returns empty sources for unknown items", () => {
    const torch = sources.of("torch").recipes.map((recipe) => JSON.stringify(recipe));
    expect(new Set(torch).size).toBe(torch.length);
    expect(sources.of("minecraft:nothing")).toEqual({
      item: "minecraft:nothing",
      recipes: [],
      blocks: [],
      entities: [],
    });
  });
});
