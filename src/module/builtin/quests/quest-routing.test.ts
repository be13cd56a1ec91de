import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadQuestBook } from "../../../data/quests/quest-loader.js";
import { questExtractors, questProfiles, questTitleSlots } from "./quest-routing.js";

// "Timber!" (砍树！) and "Read the rules" (阅读规则) are visible; "Stone Age" hides until unlocked and
// "Secret Star" is invisible.
const { book } = loadQuestBook(
  join(import.meta.dirname, "../../../../test/fixtures/ftbquests/system-basics"),
);

describe("the quest extractors", () => {
  const { list, detail, names } = questExtractors(book);

  it("read the quest a text names by list number, ordinal, 16-hex id or title", () => {
    expect(detail("show quest 2")).toEqual({ query: "2" });
    expect(detail("what does quest #3 need")).toEqual({ query: "3" });
    expect(detail("tell me about the second quest")).toEqual({ query: "2" });
    expect(detail("第二个任务要做什么")).toEqual({ query: "2" });
    expect(detail("任务12的奖励")).toEqual({ query: "12" });
    expect(detail("3号任务详情")).toEqual({ query: "3" });
    expect(detail("quest 2000000000000001 details")).toEqual({ query: "2000000000000001" });
    // a title as the book writes it, so the workflow's search finds it, in either language
    expect(detail("how do i finish timber")).toEqual({ query: "Timber!" });
    expect(detail("砍树任务怎么完成")).toEqual({ query: "砍树！" });
    expect(detail("what is the read the rules quest")).toEqual({ query: "Read the rules" });
    expect(names("阅读规则这个任务是干嘛的")).toBe(true);
  });

  it("never name a hidden quest, so whether a line routes says nothing about one", () => {
    expect(detail("what does stone age need")).toBeUndefined();
    expect(detail("tell me about secret star")).toBeUndefined();
    expect(detail("秘密之星是什么任务")).toBeUndefined();
  });

  it("leave claims, hand-ins and completions to other entries, and asking how to complete one is a read", () => {
    expect(detail("claim my reward for quest 2")).toBeUndefined();
    expect(detail("complete quest 2 for me")).toBeUndefined();
    expect(detail("帮我完成任务3")).toBeUndefined();
    expect(detail("提交砍树任务的物品")).toBeUndefined();
    expect(detail("how do I complete quest 2")).toEqual({ query: "2" });
    expect(detail("任务6怎么完成")).toEqual({ query: "6" });
  });

  it("take a list request only when it names no single quest, and never someone else's", () => {
    expect(list("what quests can I do")).toEqual({});
    expect(list("我的任务进度")).toEqual({});
    expect(list("看看任务1")).toBeUndefined();
    expect(list("what is the timber quest")).toBeUndefined();
    expect(list("steve's quests")).toBeUndefined();
    expect(list("领取任务奖励")).toBeUndefined();
  });

  it("make the detail a candidate only for a text naming a quest, the list only for one about quests", () => {
    const profiles = questProfiles(book);
    expect(profiles.detail.onTopic("what quests are available")).toBe(false);
    expect(profiles.detail.onTopic("quest 2 rewards")).toBe(true);
    expect(profiles.list.onTopic("where am i")).toBe(false);
    expect(profiles.list.onTopic("我有什么任务")).toBe(true);
  });
});

describe("the quest title slot", () => {
  it("marks the titles of visible quests, after the item mentions and never a sample's own word", () => {
    const slots = questTitleSlots(book)({ has: (phrase) => phrase === "read the rules" });
    expect(slots.mark("砍树任务怎么完成")).toContain("<quest>");
    expect(slots.mark("what do i need for timber!")).toContain("<quest>");
    // a title that is a sample (here "read the rules") is left to that sample's workflow
    expect(slots.mark("read the rules")).toBe("read the rules");
    // hidden quests are not names a player can be told about
    expect(slots.mark("stone age")).toBe("stone age");
    expect(slots.mark("timbers and timberland")).toBe("timbers and timberland");
  });
});
