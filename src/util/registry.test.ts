import { describe, expect, it } from "vitest";
import { Identifier } from "./identifier.js";
import { Registry } from "./registry.js";

const id = (text: string): Identifier => Identifier.parse(text);

describe("Registry", () => {
  it("registers values and refuses a duplicate id", () => {
    const registry = new Registry<number>("numbers");
    registry.register(id("system:one"), 1);
    expect(registry.get("system:one")).toBe(1);
    expect(registry.has(id("one"))).toBe(true);
    expect(() => registry.register(id("one"), 2)).toThrow(/already has system:one/);
    expect(registry.size).toBe(1);
  });

  it("refuses registration after freeze", () => {
    const registry = new Registry<number>("numbers");
    registry.freeze();
    expect(registry.frozen).toBe(true);
    expect(() => registry.register(id("late"), 1)).toThrow(/frozen/);
  });

  it("gives stable numeric ids whatever the registration order", () => {
    const ids = ["system:zeta", "mod:alpha", "system:beta", "minecraft:stone"];
    const forward = new Registry<string>("a");
    const backward = new Registry<string>("b");
    for (const text of ids) forward.register(id(text), text);
    for (const text of [...ids].reverse()) backward.register(id(text), text);
    forward.freeze();
    backward.freeze();
    for (const text of ids) {
      const numeric = forward.numericId(text);
      expect(numeric).toBeTypeOf("number");
      expect(backward.numericId(text)).toBe(numeric);
      expect(backward.byNumericId(numeric as number)).toBe(text);
    }
  });

  it("answers undefined for unknown numeric ids and never throws on untrusted numbers", () => {
    const registry = new Registry<string>("r");
    registry.register(id("a"), "a");
    registry.freeze();
    for (const bad of [-1, 1, 99, 0.5, Number.NaN]) expect(registry.byNumericId(bad)).toBeUndefined();
    expect(registry.numericId("system:missing")).toBeUndefined();
  });

  it("has no numeric ids before freeze (programmer error)", () => {
    const registry = new Registry<string>("r");
    expect(() => registry.numericId("a")).toThrow(/not frozen/);
  });
});
