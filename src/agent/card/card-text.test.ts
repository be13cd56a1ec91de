import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RESOURCES } from "../../../test/support/game-harness.js";
import { type Codec, codec } from "../../util/codec.js";
import { Languages } from "../../util/language.js";
import { literal } from "../text.js";
import { formatText } from "../text-format.js";
import { CardBuilder } from "./card-builder.js";
import { joinLines, joinTexts, LIST_KEY, present } from "./card-text.js";
import { CardType } from "./card-type.js";

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

describe("present", () => {
  it("encodes the card's data when it is first read, once, not while the reply is made", () => {
    let encoded = 0;
    const counting: Codec<{ id: string }> = {
      ...codec(z.object({ id: z.string() })),
      encode: (value) => {
        encoded++;
        return { id: value.id };
      },
    };
    const type = CardType.of("example:counted", counting, (data) =>
      CardBuilder.of("system.card.message", literal(data.id)),
    );
    const presentation = present(type.card({ id: "minecraft:diamond" }));
    expect(encoded).toBe(0);
    expect(presentation.card).toEqual(type.card({ id: "minecraft:diamond" }));
    expect(presentation.data).toEqual({ id: "minecraft:diamond" });
    expect(JSON.parse(JSON.stringify(presentation)).data).toEqual({ id: "minecraft:diamond" });
    expect(encoded).toBe(1);
  });
});
