import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GameHarness, itemData } from "../../../../test/support/game-harness.js";
import { HybridRouter } from "../../../agent/routing/hybrid-router.js";
import { DEFAULT_SEMANTIC_SETTINGS } from "../../../agent/routing/semantic-config.js";
import { ItemCatalog } from "../../../game/data/item-catalog.js";
import { ItemTextIndex } from "../../../game/tools/item-text-index.js";
import { ITEM_QUERY_ACTION, itemCardData } from "./item-query-module.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
let harness: GameHarness;

beforeEach(async () => {
  harness = await GameHarness.create({ entries: [{ id: "system:item_query" }] });
});
afterEach(async () => {
  await harness.close();
});

describe("system:item_query", () => {
  it("answers `/system item minecraft:diamond` with a card: id, both names, stack size, sources", async () => {
    const result = await harness.command(STEVE, "/system item minecraft:diamond");
    expect(result.isSuccess()).toBe(true);
    expect(result.presentation?.type).toBe("system:item");
    const card = harness.render(result);
    expect(card.text).toContain("Diamond (钻石)");
    expect(card.text).toContain("ID: minecraft:diamond · stacks to 64");
    expect(card.text).toContain("Recipes:");
    expect(card.text).toMatch(/9× Diamond|Block of Diamond/);
    expect(card.text).toContain("Dropped by blocks:");
    expect(card.text).toMatch(/Diamond Ore: 1 \(100%/);
    expect(card.text).not.toContain("50%");
  });

  it("says what an item is used in, the first eight and how many more, in the reader's language", async () => {
    const diamond = harness.render(await harness.command(STEVE, "/system item minecraft:diamond"));
    expect(diamond.text).toMatch(/\nUsed in: Block of Diamond, Jukebox, .*Diamond Sword.* and \d+ more$/);
    const chinese = harness.render(await harness.command(STEVE, "物品 钻石", "zh_cn"), "zh_cn");
    expect(chinese.text).toMatch(/\n用于：钻石块、唱片机、.* 等，另有 \d+ 种$/);
    // a few uses are all named; none, no line
    const egg = harness.render(await harness.command(STEVE, "/system item minecraft:egg"));
    expect(egg.text).toMatch(/\nUsed in: Cake, Pumpkin Pie$/);
    const dragonEgg = harness.render(await harness.command(STEVE, "/system item minecraft:dragon_egg"));
    expect(dragonEgg.text).not.toContain("Used in");
  });

  it("finds an item by its English name and by its Chinese name, through every alias", async () => {
    const english = await harness.command(STEVE, "/system item Iron Ingot");
    const chinese = await harness.command(STEVE, "查询物品 铁锭", "zh_cn");
    const short = await harness.command(STEVE, "物品 钻石", "zh_cn");
    expect(harness.render(english).text).toContain("ID: minecraft:iron_ingot");
    expect(harness.render(chinese, "zh_cn").text).toContain("ID：minecraft:iron_ingot");
    expect(harness.render(short, "zh_cn").text).toContain("钻石（Diamond）");
  });

  it("lists recipes, block loot and entity loot, with a button per ingredient that runs a new item query", async () => {
    const iron = harness.render(await harness.command(STEVE, "/system item minecraft:iron_ingot"));
    expect(iron.text).toContain("Recipes:");
    expect(iron.text).toContain("Dropped by mobs:");
    expect(iron.text).toMatch(/Zombie: 1 \(0\.8%, killed by a player, more with Looting\)/);
    const stick = harness.render(await harness.command(STEVE, "/system item minecraft:diamond_sword"));
    expect(stick.text).toContain("2× Diamond");
    const button = stick.buttons.find((entry) => entry.label === "Sources of Stick");
    expect(button).toMatchObject({ action: "system:item_query" });
    // The click arrives as a structured request; the host's router decodes it with the module codec.
    const click = JSON.parse(button?.args[0] ?? "null");
    const clicked = await harness.run(ITEM_QUERY_ACTION.action(click), STEVE);
    expect(harness.render(clicked).text).toContain("ID: minecraft:stick");
  });

  it("answers an unknown item with a NOT_FOUND card offering close items", async () => {
    const result = await harness.command(STEVE, "/system item diamo");
    expect(result.isFailure()).toBe(true);
    expect(result.failure?.code).toBe("NOT_FOUND");
    expect(result.presentation?.type).toBe("system:item_not_found");
    const card = harness.render(result);
    expect(card.text).toBe("No item matches “diamo”. Did you mean:");
    expect(card.buttons.map((button) => button.label)).toContain("Diamond");
    expect(card.buttons[0]?.action).toBe("system:item_query");
    const nothing = await harness.command(STEVE, "/system item zzqqxx");
    expect(nothing.failure?.code).toBe("NOT_FOUND");
    expect(harness.render(nothing).text).toBe("No item matches “zzqqxx”.");
    expect(harness.render(nothing).buttons).toEqual([]);
  });

  it("answers an id of a mod the server lacks as not found, never with a vanilla item its id mentions", async () => {
    const modded = await harness.command(STEVE, "/system item create:andesite_alloy");
    expect(modded.failure?.code).toBe("NOT_FOUND");
    expect(harness.render(modded).text).toMatch(/^No item matches “create:andesite_alloy”\./);
    // a vanilla name and a vanilla id are still read
    expect(harness.render(await harness.command(STEVE, "/system item andesite")).text).toContain(
      "ID: minecraft:andesite",
    );
    expect(harness.render(await harness.command(STEVE, "/system item MINECRAFT:ANDESITE")).text).toContain(
      "ID: minecraft:andesite",
    );
  });

  it("reads an item named inside a sentence (semantic extractor), never guessing between two", () => {
    const index = new ItemTextIndex(itemData().catalog);
    expect(index.find("钻石怎么获得")?.id).toBe("minecraft:diamond");
    expect(index.find("钻石剑要什么材料")?.id).toBe("minecraft:diamond_sword");
    expect(index.find("how do I get an iron ingot?")?.id).toBe("minecraft:iron_ingot");
    expect(index.find("where is redstone dust")?.id).not.toBe("minecraft:stone");
    expect(index.find("look up minecraft:stick please")?.id).toBe("minecraft:stick");
    expect(index.find("compare minecraft:stick and minecraft:diamond")).toBeUndefined();
    expect(index.find("今天天气怎么样")).toBeUndefined();
  });

  it("is reached by the local semantic route for a sentence naming an item (read-only, no model)", async () => {
    const router = new HybridRouter({
      modules: harness.engine.modules(),
      settings: () => DEFAULT_SEMANTIC_SETTINGS,
    });
    const decision = await router.route({
      requestId: "r1",
      text: "钻石怎么获得",
      player: {
        playerId: STEVE,
        permissionLevel: 0,
        features: harness.features(STEVE),
        locale: "zh_cn",
        aiEnabled: false,
        generation: 0,
      },
    });
    expect(decision.source).toBe("SEMANTIC");
    expect(decision.action?.input).toEqual({ query: "minecraft:diamond" });
  });

  it("is refused as MODULE_DISABLED when the feature is turned off for the player", async () => {
    await harness.disable(STEVE, "system:item_query");
    const result = await harness.run(ITEM_QUERY_ACTION.action({ query: "minecraft:diamond" }), STEVE);
    expect(result.failure?.code).toBe("MODULE_DISABLED");
  });

  it("says a grid is crafted when the card also lists a furnace or a machine recipe, and only then", () => {
    const catalog = ItemCatalog.forVersion("1.21.4");
    const item = { id: "minecraft:iron_ingot", names: { en_us: "Iron Ingot" }, stackSize: 64 };
    const grid = {
      shaped: true,
      resultCount: 1,
      ingredients: [{ item: "minecraft:iron_nugget", count: 9 }],
    };
    const smelting = {
      ...grid,
      type: "minecraft:smelting",
      ingredients: [{ item: "minecraft:raw_iron", count: 1 }],
    };
    const noDrops = { item: item.id, blocks: [], entities: [] };
    const mixed = itemCardData(catalog, item, { recipes: [grid, smelting], ...noDrops }, false);
    expect(mixed.recipes.map((recipe) => recipe.station)).toEqual([
      { key: "system.item.station.crafting_shaped" },
      { key: "system.item.station.smelting" },
    ]);
    const grids = itemCardData(catalog, item, { recipes: [grid], ...noDrops }, false);
    expect(grids.recipes[0]?.station).toBeUndefined();
  });
});
