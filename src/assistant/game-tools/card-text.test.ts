import { describe, expect, it } from "vitest";
import { literal } from "../../agent/text.js";
import { formatText } from "../../agent/text-format.js";
import { Languages } from "../../util/language.js";
import { joinLines, joinTexts, LIST_KEY } from "./card-text.js";
import { RESOURCES } from "./game-harness.test-support.js";

const languages = Languages.load(RESOURCES);

describe("joinTexts", () => {
  it("joins any number of texts through two-placeholder translations, per language", () => {
    const items = ["a", "b", "c"].map((text) => literal(text));
    expect(formatText(languages, "en_us", joinTexts(items, LIST_KEY))).toBe("a, b, c");
    expect(formatText(languages, "zh_cn", joinTexts(items, LIST_KEY))).toBe("a、b、c");
    expect(formatText(languages, "en_us", joinLines(items))).toBe("a\nb\nc");
    expect(formatText(languages, "en_us", joinLines([literal("%s only")]))).toBe("%s only");
    expect(formatText(languages, "en_us", joinLines([]))).toBe("");
  });
});
