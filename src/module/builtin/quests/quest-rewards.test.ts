import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadQuestBook } from "../../../data/quests/quest-loader.js";
import { ItemCatalog } from "../../../game/data/item-catalog.js";
import { QuestProgress } from "./quest-progress.js";
import { planClaim } from "./quest-rewards.js";

const FIXTURES = join(import.meta.dirname, "../../../../test/fixtures/ftbquests");
const catalog = ItemCatalog.forVersion("1.21.4");

describe("planning a quest's reward claim", () => {
  it("delivers item and experience rewards and never runs commands", () => {
    const { book } = loadQuestBook(join(FIXTURES, "system-basics"));
    const timber = book.quests.get("2000000000000001");
    const stone = book.quests.get("2000000000000003");
    if (timber === undefined || stone === undefined) throw new Error("fixture changed");
    expect(planClaim({ book, quest: timber, catalog, choices: {}, random: () => 0 })).toEqual({
      items: [{ item: "minecraft:bread", count: 2 }],
      experience: { points: 0, levels: 0 },
      rewardIds: ["4000000000000001"],
      skipped: [],
    });
    const plan = planClaim({ book, quest: stone, catalog, choices: {}, random: () => 0 });
    expect(plan.items).toEqual([]);
    expect(plan.experience).toEqual({ points: 0, levels: 3 });
    expect(plan.rewardIds).toEqual(["4000000000000003"]);
    expect(plan.skipped).toEqual([{ rewardId: "4000000000000004", reason: "not_available" }]);
  });

  it("draws loot from the reward table by weight, once per loot_size, and keeps unknown (modded) items out", () => {
    const { book } = loadQuestBook(join(FIXTURES, "flywheel-new-continent"));
    const quest = [...book.quests.values()].find((candidate) =>
      candidate.rewards.some((reward) => reward.type === "loot"),
    );
    if (quest === undefined) throw new Error("fixture changed");
    const low = planClaim({ book, quest, catalog, choices: {}, random: () => 0 });
    const high = planClaim({ book, quest, catalog, choices: {}, random: () => 0.999 });
    const loot = quest.rewards.find((reward) => reward.type === "loot");
    expect(low.rewardIds).toContain(loot?.id);
    // the first and last entries of the table are different draws
    expect(JSON.stringify([...low.items, ...low.skipped])).not.toBe(
      JSON.stringify([...high.items, ...high.skipped]),
    );
  });

  it("asks for a choice first, then delivers the picked entry", () => {
    const { book } = loadQuestBook(join(FIXTURES, "garden-of-glass-qe"));
    const quest = [...book.quests.values()].find((candidate) =>
      candidate.rewards.some((reward) => reward.type === "choice"),
    );
    if (quest === undefined) throw new Error("fixture changed");
    const first = planClaim({ book, quest, catalog, choices: {}, random: () => 0 });
    expect(first.choice?.options.length).toBeGreaterThan(0);
    const option = first.choice?.options[0];
    const picked = planClaim({
      book,
      quest,
      catalog,
      choices: { [first.choice?.rewardId as string]: option?.index as number },
      random: () => 0,
    });
    expect(picked.choice === undefined || picked.choice.rewardId !== first.choice?.rewardId).toBe(true);
    expect(picked.items).toContainEqual(option?.item);
  });
});

describe("QuestProgress claims", () => {
  it("claims a quest once, retries only after an attempt that gave nothing, and settles", () => {
    const progress = new QuestProgress();
    expect(
      progress.startClaim(
        "2000000000000001",
        ["4000000000000001"],
        { items: [{ item: "minecraft:bread", count: 2 }], experience: { points: 0, levels: 3 } },
        1,
      ),
    ).toBe(true);
    expect(
      progress.startClaim(
        "2000000000000001",
        ["4000000000000001"],
        { items: [], experience: { points: 0, levels: 0 } },
        2,
      ),
    ).toBe(false);
    expect(progress.claimed("4000000000000001")).toBe(true);
    expect(progress.nextAttempt("2000000000000001")).toBeUndefined();
    progress.allowRetry("2000000000000001");
    expect(progress.nextAttempt("2000000000000001")).toBe(1);
    progress.settle("2000000000000001", "DELIVERED");
    progress.settle("2000000000000001", "UNCONFIRMED");
    expect(progress.claim("2000000000000001")?.state).toBe("DELIVERED");
    expect(new QuestProgress(progress.toData()).claim("2000000000000001")).toEqual(
      progress.claim("2000000000000001"),
    );
  });

  it("imports FTB team progress once: tasks, completions and claims (delivered there, never paid here)", () => {
    const progress = new QuestProgress();
    const plan = {
      tasks: ["3000000000000001"],
      quests: ["2000000000000001"],
      claims: [{ quest: "2000000000000001", rewards: ["4000000000000001"] }],
    };
    expect(progress.importTeam("8c1e7a4f", plan, 5)).toBe(true);
    expect(progress.importTeam("8c1e7a4f", { tasks: ["3000000000000002"], quests: [], claims: [] }, 6)).toBe(
      false,
    );
    expect(progress.done("3000000000000001")).toBe(true);
    expect(progress.done("3000000000000002")).toBe(false);
    expect(progress.announce("2000000000000001", 7)).toBe(false);
    expect(progress.claim("2000000000000001")?.state).toBe("DELIVERED");
    expect(progress.claimed("4000000000000001")).toBe(true);
    expect(new QuestProgress(progress.toData()).imported()).toBe("8c1e7a4f");
  });
});
