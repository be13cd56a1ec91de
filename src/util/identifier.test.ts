import { describe, expect, it } from "vitest";
import { Identifier } from "./identifier.js";

describe("Identifier", () => {
  it("parses namespace:path and defaults the namespace to system", () => {
    expect(Identifier.parse("minecraft:diamond").toString()).toBe("minecraft:diamond");
    expect(Identifier.parse("question").toString()).toBe("system:question");
  });

  it("refuses invalid text without throwing in tryParse", () => {
    for (const text of ["", "A:b", "a:b c", "a:b:c", "钻石", ":x", "x:"])
      expect(Identifier.tryParse(text)).toBeUndefined();
    expect(() => Identifier.parse("Bad Id")).toThrow(/invalid identifier/);
  });

  it("builds, compares and serializes ids", () => {
    const id = Identifier.of("ftbquests", "quest.find");
    expect(id.namespace).toBe("ftbquests");
    expect(id.path).toBe("quest.find");
    expect(id.equals("ftbquests:quest.find")).toBe(true);
    expect(id.equals(Identifier.parse("ftbquests:quest.detail"))).toBe(false);
    expect(JSON.stringify({ id })).toBe('{"id":"ftbquests:quest.find"}');
    expect(Identifier.isValid("system:a/b-c_d.e")).toBe(true);
    expect(() => Identifier.of("Bad", "x")).toThrow(/invalid identifier/);
  });

  it("refuses over-long and non-string input without throwing", () => {
    expect(Identifier.tryParse(`system:${"a".repeat(300)}`)).toBeUndefined();
    expect(Identifier.tryParse(42 as unknown as string)).toBeUndefined();
  });
});
