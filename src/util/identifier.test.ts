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
});
