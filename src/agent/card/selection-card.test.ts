import { describe, expect, it } from "vitest";
import { Languages } from "../../util/language.js";
import { CardRegistry } from "./card-registry.js";
import { buildCard } from "./card-type.js";
import { SELECTION_CARD, type SelectionCardData } from "./selection-card.js";

const data: SelectionCardData = {
  promptKey: "system.selection.fallback",
  candidates: [
    {
      labelKey: "system.item.choice.named",
      labelArgs: ["Diamond", "钻石"],
      action: "system:item_query",
      input: { query: "minecraft:diamond", page: 0 },
    },
    { labelKey: "system.selection.me", labelArgs: [], action: "system:player_query", input: {} },
  ],
};

describe("SelectionCardData", () => {
  it("round-trips through the card registry and builds one button per candidate", () => {
    const cards = new CardRegistry();
    cards.register(SELECTION_CARD);
    cards.freeze();
    const presentation = cards.encode(SELECTION_CARD.card(data));
    expect(presentation.type).toBe("system:selection");
    // what is persisted and sent: the type and the encoded data (the typed card stays in the process)
    const decoded = cards.decode(
      JSON.parse(JSON.stringify({ type: presentation.type, data: presentation.data })),
    );
    expect(decoded.success && decoded.value.data).toEqual(data);
    const view = buildCard(SELECTION_CARD.card(data)).build();
    expect(view.template).toBe("system.selection.fallback");
    expect(view.buttons).toEqual([
      {
        labelKey: "system.item.choice.named",
        labelArgs: ["Diamond", "钻石"],
        action: "system:item_query",
        args: ['{"query":"minecraft:diamond","page":0}'],
      },
      { labelKey: "system.selection.me", action: "system:player_query", args: ["{}"] },
    ]);
  });

  it("labels each button with what it does in the reader's language", () => {
    const languages = Languages.load("resources");
    const [button] = buildCard(SELECTION_CARD.card(data)).build().buttons;
    const label = (locale: string) =>
      languages.format(locale, button?.labelKey ?? "", [...(button?.labelArgs ?? [])]);
    expect(label("en_us")).toBe("Look up: Diamond");
    expect(label("zh_cn")).toBe("查询：钻石");
  });

  it("refuses malformed card data", () => {
    expect(SELECTION_CARD.codec.decode({ promptKey: "", candidates: [] }).success).toBe(false);
    expect(
      SELECTION_CARD.codec.decode({ promptKey: "k", candidates: [{ labelKey: "k", action: "a" }] }).success,
    ).toBe(false);
  });

  it("has every routing key in both languages", () => {
    const languages = Languages.load("resources");
    for (const key of [
      "system.command.usage",
      "system.selection.fallback",
      "system.selection.clarify",
      "system.selection.choice",
      "system.selection.item",
      "system.selection.me",
      "system.selection.help",
      "system.item.choice.named",
    ])
      for (const locale of ["en_us", "zh_cn"])
        expect(languages.has(locale, key), `${locale} ${key}`).toBe(true);
  });
});
