import { describe, expect, it } from "vitest";
import { contentStub } from "../../../test/support/server-content-stub.js";
import { ItemCatalog } from "./item-catalog.js";
import { ITEM_SOURCES, ItemSources, USED_IN_LIMIT } from "./item-sources.js";
import type { ServerRecipe } from "./server-content.js";

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

  it("shows the server's own vanilla recipes instead of minecraft-data's, and minecraft-data's where the jar has none", () => {
    const smelting: ServerRecipe = {
      id: "minecraft:iron_ingot_from_smelting_raw_iron",
      type: "minecraft:smelting",
      inputs: [{ options: ["minecraft:raw_iron"], count: 1 }],
      outputs: [{ item: "minecraft:iron_ingot", count: 1 }],
    };
    const game = contentStub({
      recipesFor: (id) => (id === "minecraft:iron_ingot" ? [smelting] : []),
      hasGameRecipes: () => true,
    });
    const served = ItemCatalog.forVersion("1.21.4");
    served.useContent(game);
    const withJar = new ItemSources(served.data, served);
    expect(withJar.of("minecraft:iron_ingot").recipes).toEqual([
      {
        type: "minecraft:smelting",
        shaped: false,
        resultCount: 1,
        ingredients: [{ item: "minecraft:raw_iron", count: 1 }],
      },
    ]);
    // the jar gave no recipe for the pickaxe (as for a special recipe): minecraft-data's grid stays
    expect(withJar.of("minecraft:diamond_pickaxe").recipes).toEqual(
      sources.of("minecraft:diamond_pickaxe").recipes,
    );
    expect(
      sources.of("minecraft:iron_ingot").recipes.some((recipe) => recipe.type === "minecraft:smelting"),
    ).toBe(false);
    // what an item is used in is then the jar's recipes' alone: minecraft-data's are not the server's
    expect(withJar.of("minecraft:raw_iron").usedIn).toBeUndefined();
  });

  it("names the items an item is used in: vanilla's recipes, then the server content's, each once", () => {
    const stick = sources.of("minecraft:stick");
    expect(stick.usedIn).toContain("minecraft:torch");
    expect(stick.usedIn).toContain("minecraft:ladder");
    expect(stick.usedIn).toHaveLength(USED_IN_LIMIT);
    expect(stick.usedInTotal).toBeGreaterThan(USED_IN_LIMIT);
    expect(stick.usedIn).not.toContain("minecraft:stick");
    expect(sources.of("minecraft:dragon_egg").usedIn).toBeUndefined();
    // a mod's recipe that takes coal is counted beside vanilla's
    const modded = ItemCatalog.forVersion("1.21.4");
    modded.useContent(
      contentStub({
        usedIn: (id) => (id === "minecraft:coal" ? ["mekanism:ingot_steel", "minecraft:torch"] : []),
      }),
    );
    const withMods = new ItemSources(modded.data, modded).usedIn("minecraft:coal");
    expect(withMods).toContain("mekanism:ingot_steel");
    expect(withMods.filter((id) => id === "minecraft:torch")).toHaveLength(1);
    expect(withMods.indexOf("minecraft:torch")).toBeLessThan(withMods.indexOf("mekanism:ingot_steel"));
  });
});
