import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { Tool } from "./tool.js";
import { ToolRegistry } from "./tool-registry.js";
import { ToolType } from "./tool-type.js";

const QUERY = codec(z.object({ query: z.string() }));
const COUNT = codec(z.number());
const type = (id: string) => ToolType.of(id, QUERY, COUNT);
const handler = async () => 1;

describe("ToolRegistry", () => {
  it("exposes ToolRegistry.Type as the tool type of the seeds", () => {
    const t = ToolRegistry.Type.of("system:item.find", QUERY, COUNT);
    expect(t).toBeInstanceOf(ToolType);
    expect(t.id.toString()).toBe("system:item.find");
  });

  it("accepts forReasoning on a read-only tool with an object schema", () => {
    const registry = new ToolRegistry();
    const tool = Tool.of(type("system:item.find"), handler).asReadOnly().forReasoning("Find an item");
    registry.register(tool);
    expect(registry.reasoningTools()).toEqual([tool]);
    expect(registry.get("system:item.find")).toBe(tool);
  });

  it("refuses forReasoning on a write tool", () => {
    const registry = new ToolRegistry();
    const write = Tool.of(type("system:shop.buy"), handler).forReasoning("Buy");
    expect(() => registry.register(write)).toThrow(/only for read-only tools/);
    expect(registry.has("system:shop.buy")).toBe(false);
  });

  it("refuses forReasoning on a read-only tool whose input schema is not an object", () => {
    const registry = new ToolRegistry();
    const scalar = Tool.of(ToolType.of("system:echo", codec(z.string()), COUNT), handler)
      .asReadOnly()
      .forReasoning("Echo");
    expect(() => registry.register(scalar)).toThrow(/JSON schema/);
  });

  it("refuses forReasoning with a blank description", () => {
    const registry = new ToolRegistry();
    const blank = Tool.of(type("system:blank"), handler).asReadOnly().forReasoning("  ");
    expect(() => registry.register(blank)).toThrow(/description/);
  });

  it("refuses a duplicate type and a second instance of the same type", () => {
    const registry = new ToolRegistry();
    const shared = type("system:item.find");
    const first = Tool.of(shared, handler).asReadOnly();
    registry.register(first);
    registry.register(first); // the very same instance again: shared tools are fine
    expect(() => registry.register(Tool.of(shared, handler).asReadOnly())).toThrow(/another instance/);
    expect(() => registry.register(first.asIdempotent())).toThrow(/another instance/);
    expect(() => registry.register(Tool.of(type("system:item.find"), handler))).toThrow(/another instance/);
    expect(registry.values()).toEqual([first]);
  });

  it("check validates without registering", () => {
    const registry = new ToolRegistry();
    const tool = Tool.of(type("system:a"), handler);
    expect(registry.check(tool)).toBe(true);
    expect(registry.has("system:a")).toBe(false);
    registry.register(tool);
    expect(registry.check(tool)).toBe(false);
  });

  it("refuses new tools once frozen", () => {
    const registry = new ToolRegistry();
    const tool = Tool.of(type("system:a"), handler);
    registry.register(tool);
    registry.freeze();
    expect(registry.frozen).toBe(true);
    expect(() => registry.register(Tool.of(type("system:b"), handler))).toThrow(/frozen/);
    registry.register(tool); // re-registering an installed shared tool stays a no-op
  });

  it("finds tools by Identifier or text", () => {
    const registry = new ToolRegistry();
    registry.register(Tool.of(type("mod:x"), handler));
    expect(registry.has(Identifier.parse("mod:x"))).toBe(true);
  });
});
