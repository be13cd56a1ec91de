import { describe, expect, it } from "vitest";
import { FIND, SOURCE } from "../../../test/react/react-harness.js";
import { canonicalJson, ReActTool } from "./react-tool.js";

describe("ReActTool", () => {
  it("gives equal inputs the same action key whatever the key order", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonicalJson({ a: [{ c: 3, d: 2 }], b: 1 }));
    const tool = ReActTool.of(FIND, "Find an item.");
    expect(tool.actionKey({ name: "diamond" })).toBe(tool.actionKey({ name: "diamond" }));
    expect(tool.actionKey({ name: "diamond" })).not.toBe(tool.actionKey({ name: "emerald" }));
  });

  it("uses a custom dedupe key and projection", () => {
    const tool = ReActTool.of(FIND, "Find an item.")
      .withDedupeKey((input) => input.name.trim().toLowerCase())
      .withProjection((output) => ({ found: output.item }));
    expect(tool.actionKey({ name: " Diamond" })).toBe(tool.actionKey({ name: "diamond" }));
    expect(tool.project({ item: "minecraft:diamond" }, { name: "diamond" })).toEqual({
      found: "minecraft:diamond",
    });
  });

  it("describes itself for the catalog with the input JSON schema", () => {
    const entry = ReActTool.of(SOURCE, "Sources of an item.").describe();
    expect(entry).toMatchObject({ type: "test:item.source", description: "Sources of an item." });
    expect(entry.input).toMatchObject({ type: "object", properties: { item: { type: "string" } } });
  });

  it("declares which tools a custom action uses", () => {
    const custom = ReActTool.of(FIND, "Find then source.").withHandler(
      async (input) => ({ item: input.name }),
      [FIND, SOURCE],
    );
    expect(custom.uses).toEqual([FIND, SOURCE]);
    expect(() => ReActTool.of(FIND, " ")).toThrow();
  });
});
