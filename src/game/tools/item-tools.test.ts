import { describe, expect, it } from "vitest";
import { itemData } from "../../../test/support/game-harness.js";
import { Identifier } from "../../util/identifier.js";
import { itemTools } from "./item-tools.js";

const scope = {
  playerId: "p",
  locale: "en_us",
  stepId: "s",
  signal: new AbortController().signal,
  event: false,
};

describe("item tools", () => {
  const { catalog, sources } = itemData();
  const tools = itemTools({ catalog, sources, owner: Identifier.parse("system:item_query") });

  it("are read-only, declared for reasoning with an object input schema", () => {
    for (const tool of [tools.lookup, tools.sources]) {
      expect(tool.readOnly).toBe(true);
      expect(tool.reasoningDescription).toBeTruthy();
      expect(tool.type.input.jsonSchema().type).toBe("object");
    }
  });

  it("item.lookup resolves ids and names, and suggests close items otherwise", async () => {
    expect((await tools.lookup.handler({ query: "钻石" }, scope)).item).toEqual({
      id: "minecraft:diamond",
      names: { en_us: "Diamond", zh_cn: "钻石" },
      stackSize: 64,
    });
    const miss = await tools.lookup.handler({ query: "diamond sw" }, scope);
    expect(miss.item).toBeUndefined();
    expect(miss.suggestions.map((item) => item.id)).toContain("minecraft:diamond_sword");
  });

  it("item.sources lists recipes, block drops and entity drops", async () => {
    const gunpowder = await tools.sources.handler({ item: "minecraft:gunpowder" }, scope);
    expect(gunpowder.entities.map((drop) => drop.entity)).toContain("minecraft:creeper");
    const diamond = await tools.sources.handler({ item: "minecraft:diamond" }, scope);
    expect(diamond.blocks.map((drop) => drop.block)).toContain("minecraft:diamond_ore");
    expect(diamond.recipes.length).toBeGreaterThan(0);
  });
});
