import { describe, expect, it } from "vitest";
import { CardBuilder } from "../agent/card/card-builder.js";
import { literal, type Text, translatable } from "../agent/text.js";
import { narrationOf, spokenSummary } from "./narration.js";

describe("narration", () => {
  it("uses a card's own speech (with its priority), else the narration of its kind, else nothing", () => {
    const own = CardBuilder.of("system.quests.announce.quest")
      .withSpeech(literal("Quest complete: Timber!"), { priority: "high" })
      .build();
    expect(narrationOf(own)).toEqual({ text: literal("Quest complete: Timber!"), priority: "high" });
    const checkIn = CardBuilder.of(
      "system.check_in.card.done",
      literal("3"),
      literal("5"),
      literal("Bread × 3"),
    ).build();
    expect(narrationOf(checkIn)).toEqual({ text: translatable("system.speech.check_in", literal("3")) });
    // the card counts days in words ("1 day", "5 days"): the narration says the day's number
    const counted = (streak: Text) =>
      narrationOf(
        CardBuilder.of("system.check_in.card.done", streak, literal("5 days"), literal("Bread × 3")).build(),
      );
    expect(counted(translatable("system.check_in.days.one"))).toEqual({
      text: translatable("system.speech.check_in", 1),
    });
    expect(counted(translatable("system.check_in.days.other", literal("5")))).toEqual({
      text: translatable("system.speech.check_in", literal("5")),
    });
    expect(narrationOf(CardBuilder.of("system.help.list").build())).toBeUndefined();
    const answer = CardBuilder.of(
      "system.question.card.knowledge",
      literal("Deep. Near lava."),
      literal("1. Ores"),
    ).build();
    expect(narrationOf(answer)).toEqual({ text: literal("Deep. Near lava.") });
  });

  it("keeps a spoken summary to its first sentence", () => {
    expect(spokenSummary("Diamonds are deep underground. Mine at y -58.")).toBe(
      "Diamonds are deep underground.",
    );
    expect(spokenSummary("钻石在地下深处。用铁镐挖。")).toBe("钻石在地下深处。");
    expect(spokenSummary("x".repeat(300), 10)).toBe(`${"x".repeat(9)}…`);
    expect(spokenSummary("Diamonds\nDiamonds are deep. Mine at y -58.\nFrom the knowledge base")).toBe(
      "Diamonds are deep.",
    );
    expect(spokenSummary("Checked in")).toBe("Checked in");
  });
});
