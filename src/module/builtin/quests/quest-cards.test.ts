import { describe, expect, it } from "vitest";
import { QUEST_DETAIL_CARD, QUEST_LIST_CARD } from "./quest-cards.js";

const detail = {
  id: "2000000000000001",
  title: "Timber!",
  chapter: "Getting Started",
  status: "complete" as const,
  subtitle: "",
  description: [],
  tasks: [],
  rewards: [{ id: "4000000000000001", type: "item", title: "Bread", count: 2 }],
  dependencies: [],
  starterGift: false,
  recorded: 1,
};

describe("quest cards", () => {
  it("neither list nor narrate a completion (the quest_narration rule announces it) and offer the claim button while rewards are unclaimed", () => {
    const card = QUEST_DETAIL_CARD.build({ ...detail, claim: "ready" });
    expect(card.speech).toBeUndefined();
    expect(JSON.stringify(card.arguments)).not.toContain("system.quests.completed");
    expect(card.buttons.map((button) => button.action)).toEqual(["system:quest_claim"]);
    const quiet = QUEST_DETAIL_CARD.build({ ...detail, claim: "claimed" });
    expect(quiet.speech).toBeUndefined();
    expect(quiet.buttons).toEqual([]);
  });

  it("show a gift's contents from the gift list, marking items this server cannot deliver", () => {
    const card = QUEST_DETAIL_CARD.build({
      ...detail,
      starterGift: true,
      claim: "ready",
      gift: {
        entries: [
          { item: "minecraft:bread", name: "Bread", count: 4, deliverable: true },
          { item: "create:wrench", name: "create:wrench", count: 1, deliverable: false },
        ],
        experience: { points: 0, levels: 2 },
      },
    });
    const text = JSON.stringify(card.arguments);
    expect(text).toContain("system.quests.gift");
    expect(text).toContain("system.quests.gift.unknown");
    expect(text).toContain("system.quests.reward.xp_levels");
    expect(card.buttons.map((button) => button.action)).toEqual(["system:quest_claim"]);
  });

  it("offer a hand-in button for a task whose items are held and consumed", () => {
    const card = QUEST_DETAIL_CARD.build({
      ...detail,
      status: "available",
      claim: "none",
      tasks: [{ id: "3100000000000002", type: "item", title: "Oak Log", status: "submit", have: 2, need: 2 }],
    });
    expect(card.buttons.map((button) => button.action)).toEqual(["system:quest_submit"]);
  });

  it("list at most eight quests as buttons", () => {
    const quests = Array.from({ length: 12 }, (_, index) => ({
      id: `20000000000000${String(index).padStart(2, "0")}`,
      number: index + 1,
      title: `Quest ${index}`,
      chapter: "C",
      status: "available" as const,
    }));
    expect(QUEST_LIST_CARD.build({ kind: "available", quests }).buttons).toHaveLength(8);
  });
});
