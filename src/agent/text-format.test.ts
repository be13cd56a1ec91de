import { describe, expect, it } from "vitest";
import { Languages } from "../util/language.js";
import { literal, translatable } from "./text.js";
import { formatText } from "./text-format.js";

describe("formatText", () => {
  const languages = new Languages();
  languages.add("en_us", { "t.hello": "Hello %s, you have %s", "t.item": "item %s" });
  languages.add("zh_cn", { "t.hello": "你好 %s，你有 %s" });

  it("renders nested translatable arguments in the player's locale", () => {
    const text = translatable("t.hello", "Steve", translatable("t.item", 3));
    expect(formatText(languages, "en_us", text)).toBe("Hello Steve, you have item 3");
    expect(formatText(languages, "zh_cn", text)).toBe("你好 Steve，你有 item 3");
  });

  it("shows literal text as it is, even when it looks like a key or a format", () => {
    expect(formatText(languages, "en_us", literal("t.hello %s"))).toBe("t.hello %s");
    expect(formatText(languages, "en_us", translatable("t.item", "%s"))).toBe("item %s");
  });
});
