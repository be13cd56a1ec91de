import { describe, expect, it } from "vitest";
import { contentStub } from "../../../test/support/server-content-stub.js";
import { ItemCatalog } from "./item-catalog.js";
import { ITEM_SOURCES, ItemSources } from "./item-sources.js";
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
  });
});
