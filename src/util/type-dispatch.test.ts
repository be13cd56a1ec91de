import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "./codec.js";
import { Identifier } from "./identifier.js";
import { TypeDispatch } from "./type-dispatch.js";

const CHAT = Identifier.parse("system:chat");
const COUNT = Identifier.parse("system:count");
const TAGGED = Identifier.parse("system:tagged");

const dispatch = (): TypeDispatch => {
  const types = new TypeDispatch("requests");
  types.register(CHAT, codec(z.object({ text: z.string() })));
  types.register(COUNT, codec(z.number().int()));
  types.register(TAGGED, codec(z.object({ type: z.enum(["a", "b"]), n: z.number() })));
  return types;
};

describe("TypeDispatch", () => {
  it("decodes by the codec registered for the type id", () => {
    const result = dispatch().decode({ type: "system:chat", text: "hi" });
    expect(result.success).toBe(true);
    if (result.success) {
      expect(result.value.type.equals(CHAT)).toBe(true);
      expect(result.value.value).toEqual({ text: "hi" });
    }
  });

  it("refuses unknown, missing and invalid types as values", () => {
    const types = dispatch();
    expect(types.decode({ type: "system:other" })).toMatchObject({ success: false });
    expect(types.decode({ text: "hi" })).toEqual({ success: false, error: "missing type" });
    expect(types.decode({ type: "Not An Id" })).toMatchObject({ success: false });
    expect(types.decode({ type: "system:chat", text: 3 })).toMatchObject({ success: false });
    expect(types.decode([1])).toMatchObject({ success: false });
    expect(types.decode(null)).toMatchObject({ success: false });
  });

  it("round-trips objects, non-object bodies and bodies with their own type field", () => {
    const types = dispatch();
    for (const typed of [
      { type: CHAT, value: { text: "钻石" } },
      { type: COUNT, value: 7 },
      { type: TAGGED, value: { type: "b", n: 1 } },
    ]) {
      const encoded = types.encode(typed);
      expect((encoded as { type: string }).type).toBe(typed.type.toString());
      const decoded = types.decode(encoded);
      expect(decoded.success).toBe(true);
      if (decoded.success) expect(decoded.value.value).toEqual(typed.value);
    }
  });

  it("is frozen with its registry", () => {
    const types = dispatch();
    types.registry.freeze();
    expect(() => types.register(Identifier.parse("late"), codec(z.string()))).toThrow(/frozen/);
  });
});
