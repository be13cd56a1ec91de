import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CONTENT_FIXTURES,
  fileSize,
  truncatedJar,
  writeContentServer,
  writeJar,
  zipBomb,
  zipBytes,
} from "../../../test/support/content-pack.js";
import { tempFolders } from "../../../test/support/temp-folders.js";
import { MemoryLogger } from "../../util/logger.js";
import { buildContentCatalog } from "./content-build.js";

const serverFolder = tempFolders("system-content-");

describe("the content catalog of a server folder", () => {
  it("reads mods (nested jars too), names per locale, recipes, tags, loot, datapacks and KubeJS in layer order", async () => {
    const serverDir = serverFolder();
    await writeContentServer(serverDir);
    const { catalog } = await buildContentCatalog({ serverDir, logger: new MemoryLogger() });
    const mods = Object.fromEntries(catalog.mods().map((mod) => [mod.id, mod]));
    expect(Object.keys(mods).sort()).toEqual(
      ["ae2", "copperworks", "copperworks_api", "create", "farmersdelight", "flywheel", "mekanism"].sort(),
    );
    // ${file.jarVersion} comes from the manifest; loaders as declared
    expect(mods.create).toMatchObject({ name: "Create", version: "0.5.1.f", loader: "forge" });
    expect(mods.mekanism).toMatchObject({ loader: "neoforge" });
    expect(mods.copperworks).toMatchObject({ name: "Copperworks", loader: "fabric" });
    expect(mods.flywheel?.file).toContain("!/META-INF/jarjar/");

    expect(catalog.item("create:andesite_alloy")).toEqual({
      id: "create:andesite_alloy",
      mod: "create",
      modName: "Create",
      names: { en_us: "Andesite Alloy", zh_cn: "安山合金" },
    });
    // a block item takes its block's name
    expect(catalog.item("mekanism:osmium_ore")?.names.zh_cn).toBe("锇矿石");

    // KubeJS removed the zinc recipe by id; the grid and the mixer remain
    const alloy = catalog.recipesFor("create:andesite_alloy");
    expect(alloy.map((recipe) => recipe.id).sort()).toEqual([
      "create:crafting/materials/andesite_alloy",
      "create:mixing/andesite_alloy",
    ]);
    const grid = alloy.find((recipe) => recipe.type === "minecraft:crafting_shaped");
    expect(grid?.inputs).toEqual([
      { options: ["#forge:nuggets/iron"], count: 2 },
      { options: ["minecraft:andesite"], count: 2 },
    ]);
    expect(catalog.tagItems("#forge:nuggets/iron")).toEqual(["minecraft:iron_nugget"]);
    expect(catalog.typeName("create:mixing", "zh_cn")).toBe("混合搅拌");

    // Mekanism 1.21 string ingredients, the datapack's recipe, and a compat recipe whose mod is absent left out
    const steel = catalog.recipesFor("mekanism:ingot_steel");
    expect(steel.map((recipe) => recipe.type).sort()).toEqual([
      "minecraft:crafting_shapeless",
      "minecraft:smelting",
    ]);
    expect(steel.find((recipe) => recipe.type === "minecraft:crafting_shapeless")?.outputs).toEqual([
      { item: "mekanism:ingot_steel", count: 9 },
    ]);
    expect(catalog.counts.skippedByCondition).toBe(1);
    expect(catalog.recipesFor("mekanism:dust_steel")[0]?.inputs).toEqual([
      { options: ["mekanism:enriched_iron"], count: 1 },
    ]);
    // the datapack adds an optional entry to a mod's tag: its mod is not installed, so it is skipped
    expect(catalog.tagItems("c:ingots/steel")).toEqual(["mekanism:ingot_steel"]);
    // how many recipes take an item, a tag ingredient counting for each of its items (a pack's base materials)
    expect(catalog.uses("minecraft:iron_nugget")).toBeGreaterThanOrEqual(2);
    expect(catalog.uses("minecraft:charcoal")).toBe(catalog.uses("minecraft:coal"));
    expect(catalog.uses("create:andesite_alloy")).toBe(2);
    expect(catalog.uses("oddmod:never_made")).toBe(0);
    // and what those recipes make from an item: its uses, each once (a tag ingredient for each of its items)
    expect(catalog.usedIn("mekanism:enriched_iron")).toEqual(["mekanism:dust_steel"]);
    expect(catalog.usedIn("minecraft:iron_nugget")).toContain("create:andesite_alloy");
    expect(catalog.usedIn("create:andesite_alloy")).toHaveLength(2);
    expect(catalog.usedIn("oddmod:never_made")).toEqual([]);

    // AE2's named inscriber slots are three inputs
    expect(catalog.recipesFor("ae2:logic_processor")[0]?.inputs.map((input) => input.options[0])).toEqual([
      "ae2:printed_silicon",
      "minecraft:redstone",
      "ae2:printed_logic_processor",
    ]);
    // loot: ore drops itself with Silk Touch, raw ore otherwise
    expect(catalog.dropsOf("mekanism:raw_osmium")).toEqual([
      {
        item: "mekanism:raw_osmium",
        kind: "block",
        source: "mekanism:osmium_ore",
        silkTouch: false,
        chance: 1,
      },
    ]);
    expect(catalog.dropsOf("mekanism:osmium_ore")[0]?.silkTouch).toBe(true);

    // KubeJS: a registered item named by its lang, a literal shaped recipe, what could not be read counted
    expect(catalog.item("kubejs:magic_ingot")?.names).toEqual({ en_us: "Magic Ingot", zh_cn: "魔法锭" });
    expect(catalog.recipesFor("kubejs:magic_ingot")[0]?.inputs).toEqual([
      { options: ["create:andesite_alloy"], count: 8 },
      { options: ["minecraft:diamond"], count: 1 },
    ]);
    expect(catalog.counts.unread).toBe(2);
    expect(catalog.text("pack.quest.alloys.title", "zh_cn")).toBe("合金");
    // Fabric's flat convention tags
    expect(catalog.recipesFor("copperworks:copper_gear")[0]?.inputs).toEqual([
      { options: ["#c:copper_ingots"], count: 4 },
    ]);
    expect(catalog.issues).toEqual([]);
  });

  it("reads Farmer's Delight 1.20.1 (Forge) and 1.21.1 (NeoForge) to the same recipes, drops and names", async () => {
    const read = async (version: "1.20.1" | "1.21.1") => {
      const serverDir = serverFolder();
      await writeContentServer(serverDir, { farmersDelight: version, kubejs: false, datapack: false });
      return (await buildContentCatalog({ serverDir, logger: new MemoryLogger() })).catalog;
    };
    const [old, next] = [await read("1.20.1"), await read("1.21.1")];
    for (const catalog of [old, next]) {
      expect(
        catalog
          .recipesFor("farmersdelight:beef_patty")
          .map((recipe) => [recipe.type, recipe.inputs, recipe.outputs]),
      ).toEqual([
        [
          "minecraft:smelting",
          [{ options: ["farmersdelight:minced_beef"], count: 1 }],
          [{ item: "farmersdelight:beef_patty", count: 1 }],
        ],
      ]);
      // Create is installed: the mixing recipe's mod_loaded condition holds in either spelling
      expect(
        catalog
          .recipesFor("farmersdelight:beef_stew")
          .map((recipe) => recipe.type)
          .sort(),
      ).toEqual(["create:mixing", "farmersdelight:cooking"]);
      const stew = catalog
        .recipesFor("farmersdelight:beef_stew")
        .find((recipe) => recipe.type === "farmersdelight:cooking");
      expect(catalog.tagItems(stew?.inputs[0]?.options[0] ?? "")).toEqual(["minecraft:beef"]);
      expect(catalog.dropsOf("farmersdelight:tomato")).toEqual([
        {
          item: "farmersdelight:tomato",
          kind: "block",
          source: "farmersdelight:wild_tomatoes",
          silkTouch: false,
          chance: 0.2,
        },
      ]);
      expect(catalog.item("farmersdelight:tomato")?.names.zh_cn).toBe("番茄");
    }
  });

  it("skips a truncated jar and a zip bomb with one line each, logs malformed JSON with jar and entry, reads unknown recipe types, cuts tag cycles", async () => {
    const serverDir = serverFolder();
    await writeContentServer(serverDir, { kubejs: false });
    await truncatedJar(join(CONTENT_FIXTURES, "create-1.20.1"), join(serverDir, "mods", "broken-create.jar"));
    await zipBomb(join(serverDir, "mods", "bomb.jar"), 64);
    expect(fileSize(join(serverDir, "mods", "bomb.jar"))).toBeLessThan(1024 * 1024);
    const odd = new Map<string, Buffer>([
      ["META-INF/mods.toml", Buffer.from('[[mods]]\nmodId="oddmod"\ndisplayName="Odd Mod"\nversion="1.0"\n')],
      ["data/oddmod/recipes/broken.json", Buffer.from('{"type": "minecraft:smelting", "ingredient": ')],
      [
        "data/oddmod/recipes/grinding/odd_dust.json",
        Buffer.from(
          JSON.stringify({
            type: "oddmod:grinding",
            input: { item: "minecraft:flint" },
            outputs: [
              { item: "oddmod:odd_dust", count: 2 },
              { item: "minecraft:gravel", chance: 0.25 },
            ],
          }),
        ),
      ],
      [
        "data/oddmod/tags/items/a.json",
        Buffer.from(JSON.stringify({ values: ["#oddmod:b", "oddmod:odd_dust"] })),
      ],
      ["data/oddmod/tags/items/b.json", Buffer.from(JSON.stringify({ values: ["#oddmod:a"] }))],
      ["assets/oddmod/lang/en_us.json", Buffer.from(JSON.stringify({ "item.oddmod.odd_dust": "Odd Dust" }))],
    ]);
    writeFileSync(join(serverDir, "mods", "oddmod.jar"), await zipBytes(odd));
    const badToml = new Map([["META-INF/mods.toml", Buffer.from("[[mods]\nmodId=")]]);
    writeFileSync(join(serverDir, "mods", "badtoml.jar"), await zipBytes(badToml));
    const logger = new MemoryLogger();
    const { catalog } = await buildContentCatalog({
      serverDir,
      logger,
      limits: {
        maxEntryBytes: 8 * 1024 * 1024,
        maxTotalBytes: 32 * 1024 * 1024,
        maxEntries: 10_000,
        maxDepth: 3,
      },
    });
    const lines = logger.lines.filter((line) => line.startsWith("WARN content:"));
    expect(lines.filter((line) => line.includes("broken-create.jar"))).toHaveLength(1);
    expect(lines.find((line) => line.includes("mods/bomb.jar"))).toMatch(/refused \(zip bomb\)/);
    expect(lines.find((line) => line.includes("oddmod.jar data/oddmod/recipes/broken.json"))).toMatch(
      /malformed JSON/,
    );
    expect(lines.find((line) => line.includes("badtoml.jar META-INF/mods.toml"))).toBeDefined();
    expect(lines.find((line) => line.includes("#oddmod:"))).toMatch(/cycle/);
    // the rest of the pack is read: Create from its good jar, the odd mod's own recipe type generically
    expect(catalog.item("create:andesite_alloy")?.names.en_us).toBe("Andesite Alloy");
    expect(catalog.recipesFor("oddmod:odd_dust")[0]).toMatchObject({
      type: "oddmod:grinding",
      inputs: [{ options: ["minecraft:flint"], count: 1 }],
      outputs: [
        { item: "oddmod:odd_dust", count: 2 },
        { item: "minecraft:gravel", count: 1, chance: 0.25 },
      ],
    });
    expect(catalog.tagItems("oddmod:a")).toEqual(["oddmod:odd_dust"]);
  });

  it("keeps read layers in a cache keyed by size and time, and rereads only what changed", async () => {
    const serverDir = serverFolder();
    await writeContentServer(serverDir);
    const cacheFile = join(serverDir, "cache", "content.json");
    const first = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(first.stats.fromCache).toBe(0);
    const second = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(second.stats.fromCache).toBe(second.stats.sources);
    expect(second.catalog.item("create:andesite_alloy")).toEqual(first.catalog.item("create:andesite_alloy"));
    // a mod updated in place (new content, new time) is read again; the others come from the cache
    const jar = join(serverDir, "mods", "appliedenergistics2-19.2.17.jar");
    await writeJar(join(CONTENT_FIXTURES, "mekanism-1.21.1"), jar);
    utimesSync(jar, new Date(), new Date(Date.now() + 5_000));
    const third = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(third.stats.fromCache).toBe(third.stats.sources - 1);
    expect(third.catalog.item("ae2:logic_processor")).toBeUndefined();
  });
});
