import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec, decodeOrThrow, encodedBytes } from "./codec.js";

const ITEM = codec(z.object({ id: z.string().min(1), count: z.number().int().min(1).default(1) }));

describe("Codec", () => {
  it("decodes valid data with defaults applied", () => {
    expect(ITEM.decode({ id: "minecraft:diamond" })).toEqual({
      success: true,
      value: { id: "minecraft:diamond", count: 1 },
    });
  });

  it("returns a readable error naming the field for bad data, never throwing", () => {
    const result = ITEM.decode({ id: "", count: 0 });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error).toContain("id");
      expect(result.error).toContain("count");
    }
    for (const bad of [undefined, null, 42, "text", [], { id: 7 }, Symbol("s")])
      expect(ITEM.decode(bad).success).toBe(false);
  });

  it("never throws on hostile data: cyclic objects and throwing getters", () => {
    interface Node {
      children: Node[];
    }
    const NODE: z.ZodType<Node> = z.lazy(() => z.object({ children: z.array(NODE) }));
    const tree = codec(NODE);
    const cyclic: Record<string, unknown> = {};
    cyclic.children = [cyclic];
    expect(() => tree.decode(cyclic)).not.toThrow();
    const trap = Object.defineProperty({}, "id", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const result = ITEM.decode(trap);
    expect(result.success).toBe(false);
  });

  it("encodes to plain JSON and round-trips", () => {
    const value = decodeOrThrow(ITEM, { id: "a", count: 3 });
    const encoded = ITEM.encode(value);
    expect(encoded).toEqual({ id: "a", count: 3 });
    expect(decodeOrThrow(ITEM, encoded)).toEqual(value);
    expect(codec(z.string().optional()).encode(undefined)).toBeNull();
  });

  it("exports a JSON schema without the $schema marker", () => {
    const schema = ITEM.jsonSchema();
    expect(schema.type).toBe("object");
    expect(schema.$schema).toBeUndefined();
    expect(Object.keys(schema.properties as object)).toEqual(["id", "count"]);
    expect(ITEM.jsonSchema()).toBe(schema);
  });

  it("decodeOrThrow throws a TypeError for trusted data that is wrong", () => {
    expect(() => decodeOrThrow(ITEM, {})).toThrow(TypeError);
  });

  it("counts encoded bytes in UTF-8", () => {
    expect(encodedBytes("钻石")).toBe(8); // two quotes + 2 characters × 3 bytes
    expect(encodedBytes({ a: 1 })).toBe(7);
  });
});
