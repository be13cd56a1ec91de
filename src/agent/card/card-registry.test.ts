import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import { literal, translatable } from "../text.js";
import { CardBuilder } from "./card-builder.js";
import { formatCardRef, newCardRef, parseCardRef } from "./card-ref.js";
import { CardRegistry } from "./card-registry.js";
import { buildCard, CardType } from "./card-type.js";
import { cardForResult, MESSAGE_CARD } from "./message-card.js";
import { SELECTION_CARD } from "./selection-card.js";

const ITEM_CARD = CardType.of<{ id: string; page: number }>(
  "example:item",
  codec(z.object({ id: z.string(), page: z.number().int() })),
  (data) =>
    CardBuilder.of("system.card.message", literal(data.id))
      .button("system.card.message", "system:item_query", data.id, String(data.page + 1))
      .withSpeech(literal(data.id)),
);

const registry = (): CardRegistry => {
  const cards = new CardRegistry();
  cards.register(MESSAGE_CARD);
  cards.register(SELECTION_CARD);
  cards.register(ITEM_CARD);
  cards.freeze();
  return cards;
};

describe("CardRegistry", () => {
  it("encodes card data as a Presentation and decodes it back by type id", () => {
    const cards = registry();
    const presentation = cards.encode(ITEM_CARD.card({ id: "minecraft:diamond", page: 0 }));
    expect({ type: presentation.type, data: presentation.data }).toEqual({
      type: "example:item",
      data: { id: "minecraft:diamond", page: 0 },
    });
    // in this process the typed card travels along, so presenting it needs no decode; it is never persisted
    expect(cards.cardOf(presentation)).toEqual({ success: true, value: presentation.card });
    expect(AgentResult.success(undefined, presentation).encode().presentation).toEqual({
      type: "example:item",
      data: { id: "minecraft:diamond", page: 0 },
    });
    const decoded = cards.decode(JSON.parse(JSON.stringify(presentation)));
    if (!decoded.success) throw new Error(decoded.error);
    const view = buildCard(decoded.value).build();
    expect(view.buttons).toEqual([
      { labelKey: "system.card.message", action: "system:item_query", args: ["minecraft:diamond", "1"] },
    ]);
    expect(view.speech).toEqual({ text: literal("minecraft:diamond") });
  });

  it("registers the selection card of the routing layer", () => {
    const cards = registry();
    const card = SELECTION_CARD.card({
      promptKey: "system.card.message",
      candidates: [{ labelKey: "system.card.message", labelArgs: [], action: "system:help", input: {} }],
    });
    const decoded = cards.decode(cards.encode(card));
    expect(decoded.success && buildCard(decoded.value).build().buttons[0]?.action).toBe("system:help");
    expect(cards.registry.numericId("system:selection")).toBeTypeOf("number");
  });

  it("refuses unknown types and invalid data as values", () => {
    const cards = registry();
    expect(cards.decode({ type: "example:nope", data: {} }).success).toBe(false);
    expect(cards.decode({ type: "example:item", data: { id: 3 } }).success).toBe(false);
    expect(cards.decode(null).success).toBe(false);
    const unregistered = CardType.of("example:other", MESSAGE_CARD.codec, MESSAGE_CARD.build);
    expect(() => cards.encode(unregistered.card({ message: literal("x"), failed: false }))).toThrow(
      /not registered/,
    );
    expect(() => cards.register(ITEM_CARD)).toThrow();
  });

  it("gives every result a card: its own, else a message card, none for silent results", () => {
    const cards = registry();
    const own = AgentResult.success(literal("x")).withPresentation(
      cards.encode(ITEM_CARD.card({ id: "a", page: 0 })),
    );
    expect(cardForResult(own, cards)?.buttons).toHaveLength(1);
    const failed = cardForResult(AgentResult.error(AgentFailure.BUSY), cards)?.build();
    expect(failed).toEqual({
      template: "system.card.failure",
      arguments: [translatable("system.error.busy")],
      buttons: [],
    });
    expect(cardForResult(AgentResult.silent(), cards)).toBeUndefined();
  });

  it("formats and parses card refs for click commands", () => {
    const ref = { ...newCardRef(), version: 12 };
    expect(parseCardRef(formatCardRef(ref))).toEqual(ref);
    expect(parseCardRef("not-a-ref@1")).toBeUndefined();
    expect(parseCardRef(`${ref.id}@-1`)).toBeUndefined();
  });
});
