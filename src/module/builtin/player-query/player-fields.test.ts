import { describe, expect, it } from "vitest";
import { extractPlayerQuery } from "./player-fields.js";

describe("extractPlayerQuery", () => {
  it("finds the field a player asks about, in both languages", () => {
    expect(extractPlayerQuery("我的血量是多少")).toEqual({ field: "health" });
    expect(extractPlayerQuery("我饿不饿")).toEqual({ field: "food" });
    expect(extractPlayerQuery("我现在几级")).toEqual({ field: "level" });
    expect(extractPlayerQuery("我在哪")).toEqual({ field: "position" });
    expect(extractPlayerQuery("查看我的背包")).toEqual({ field: "inventory" });
    expect(extractPlayerQuery("where am I")).toEqual({ field: "position" });
    expect(extractPlayerQuery("what's in my inv")).toEqual({ field: "inventory" });
    expect(extractPlayerQuery("what gamemode am i in")).toEqual({ field: "game_mode" });
    expect(extractPlayerQuery("show my status")).toEqual({});
  });

  it("answers only about the speaker", () => {
    expect(extractPlayerQuery("how much health does steve have")).toBeUndefined();
    expect(extractPlayerQuery("他的血量是多少")).toBeUndefined();
    expect(extractPlayerQuery("show me steve's inventory")).toBeUndefined();
    expect(extractPlayerQuery("where is the spawn")).toBeUndefined();
  });

  it("reads 'where' as the speaker's position only in 'where am I'", () => {
    expect(extractPlayerQuery("where am I right now")).toEqual({ field: "position" });
    expect(extractPlayerQuery("我现在在哪里")).toEqual({ field: "position" });
    expect(extractPlayerQuery("where are my coords")).toEqual({ field: "position" });
    expect(extractPlayerQuery("where is my location")).toEqual({ field: "position" });
    // where to get, go or do something, or where something was: not the speaker's state now
    for (const text of [
      "where do I get steel",
      "where do i farm xp",
      "where did i die",
      "where should I build my base",
      "我在哪里能找到钢",
      "我该去哪",
    ])
      expect(extractPlayerQuery(text), text).toBeUndefined();
  });
});
