import { describe, expect, it } from "vitest";
import { aboutSomeoneElse, ordersToAct, ownRead, ownReadProfile } from "./own-read.js";

describe("reading one's own data", () => {
  it("tells another player's data from the speaker's", () => {
    for (const text of [
      "how many points does steve have",
      "steve's orders",
      "steve的订单",
      "alex有多少积分",
      "他的积分",
      "their balance",
    ])
      expect(aboutSomeoneElse(text), text).toBe(true);
    for (const text of [
      "how many points do I have",
      "what's my balance",
      "我的订单",
      "has my order been delivered",
      "what does the shop sell",
      "the shop's prices",
      "商店的价格表",
    ])
      expect(aboutSomeoneElse(text), text).toBe(false);
  });

  it("knows an order to act from a question", () => {
    for (const text of [
      "kick the guy griefing my house",
      "give me 64 diamonds",
      "给我一把钻石剑",
      "领取奖励",
    ])
      expect(ordersToAct(text), text).toBe(true);
    for (const text of ["how do I get diamonds", "给我讲讲服务器规则", "给我看看背包", "where is spawn"])
      expect(ordersToAct(text), text).toBe(false);
  });

  it("routes a read on its topic with the empty input, and nothing else", () => {
    const profile = ownReadProfile(
      { topic: /积分|\bpoints?\b/, changes: /\bgive\b|转给/ },
      { zh: ["我有多少积分"], en: ["how many points do I have"] },
    );
    expect(profile.kind).toBe("read");
    expect(profile.onTopic("how many hearts do i have")).toBe(false);
    expect(profile.onTopic("how many points do i have")).toBe(true);
    expect(profile.extractor?.("how many points do i have")).toEqual({});
    expect(profile.extractor?.("give me 100 points")).toBeUndefined();
    expect(profile.extractor?.("把积分转给小明")).toBeUndefined();
    expect(profile.extractor?.("how many points does steve have")).toBeUndefined();
    expect(ownRead("我的积分", /转给/)).toBe(true);
  });
});
