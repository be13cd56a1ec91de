import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../../test/support/game-harness.js";
import { Languages } from "../../util/language.js";
import { literal } from "../text.js";
import { formatText } from "../text-format.js";
import { joinLines, joinTexts, LIST_KEY } from "./card-text.js";

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
