import { describe, expect, it } from "vitest";
import { GameNameTable } from "./game-names.js";
import { ItemCatalog } from "./item-catalog.js";

const table = GameNameTable.forVersion("1.21.4");
const { data } = table;

describe("GameNameTable", () => {
  it("names every 1.21.4 item, block and entity in en_us", () => {
    const unnamed = [
      ...data.itemsArray.filter((item) => table.names("item", item.name)?.en_us === undefined),
      ...data.blocksArray.filter((block) => table.names("block", block.name)?.en_us === undefined),
      ...data.entitiesArray.filter((entity) => table.names("entity", entity.name)?.en_us === undefined),
    ];
    expect(unnamed).toEqual([]);
  });

  it("names every 1.21.4 item, block and entity in zh_cn", () => {
    const missing = [
      ...data.itemsArray
        .filter((item) => table.names("item", item.name)?.zh_cn === undefined)
        .map((item) => `item ${item.name}`),
      ...data.blocksArray
        .filter((block) => table.names("block", block.name)?.zh_cn === undefined)
        .map((block) => `block ${block.name}`),
      ...data.entitiesArray
        .filter((entity) => table.names("entity", entity.name)?.zh_cn === undefined)
        .map((entity) => `entity ${entity.name}`),
    ];
    expect(missing).toEqual([]);
  });

  it("answers mob and block names in the reader's language", () => {
    expect(table.name("entity", "minecraft:zombie", "zh_cn")).toBe("僵尸");
    expect(table.name("entity", "wither_skeleton", "en_us")).toBe("Wither Skeleton");
    expect(table.name("entity", "tnt", "zh-CN")).toBe("被点燃的TNT");
    expect(table.name("block", "minecraft:oak_wall_sign", "zh_cn")).toBe("墙上的橡木告示牌");
    expect(table.name("block", "minecraft:unobtainium_ore", "zh_cn")).toBe("unobtainium_ore");
    expect(table.names("entity", "minecraft:unknown")).toBeUndefined();
  });

  it("is reachable from the item catalog for card lines", () => {
    const catalog = ItemCatalog.forVersion("1.21.4");
    expect(catalog.nameOf("entity", "minecraft:creeper", "zh_cn")).toBe("苦力怕");
    expect(catalog.nameOf("block", "minecraft:diamond_ore", "en_us")).toBe("Diamond Ore");
  });
});
