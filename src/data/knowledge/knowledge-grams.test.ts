import { describe, expect, it } from "vitest";
import { gramText, gramToken, wordToken } from "./knowledge-grams.js";

describe("short-term index text", () => {
  it("holds every CJK character and adjacent pair within a run, and the words of other scripts", () => {
    expect(gramText("附魔铁砧，用 /TP")).toBe("附 附魔 魔 魔铁 铁 铁砧 砧 用 tp");
    expect(gramText("Use an anvil")).toBe("use an anvil");
    expect(gramText("ｔｐ 钻")).toBe("钻 tp");
  });

  it("looks up 1–2 character CJK terms and short words, and leaves the rest to LIKE", () => {
    expect(gramToken("钻石")).toBe("钻石");
    expect(gramToken("镐")).toBe("镐");
    expect(gramToken("XP")).toBe("xp");
    expect(gramToken("a钻")).toBeUndefined();
    expect(gramToken("?!")).toBeUndefined();
  });

  it("looks up longer words of other scripts as words, never CJK or punctuated terms", () => {
    expect(wordToken("NETHERITE")).toBe("netherite");
    expect(wordToken("ｐｉｃｋａｘｅ")).toBe("pickaxe");
    expect(wordToken("下界合金")).toBeUndefined();
    expect(wordToken("1.20")).toBeUndefined();
  });
});
