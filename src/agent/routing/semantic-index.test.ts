import { describe, expect, it } from "vitest";
import { SemanticIndex } from "./semantic-index.js";
import { StatementGuard } from "./statement-guard.js";
import { TextAnalyzer } from "./text-analyzer.js";

describe("SemanticIndex", () => {
  it("keeps a target's own word heavy however many samples say it (idf over targets)", () => {
    const nouns = [
      "balance",
      "total",
      "history",
      "left",
      "earned",
      "count",
      "record",
      "change",
      "sum",
      "log",
    ];
    const index = new SemanticIndex([
      {
        target: "balance",
        reject: false,
        samples: nouns.flatMap((noun) => [`points ${noun}`, `${noun} points`]),
      },
      { target: "player", reject: false, samples: ["my status", "my health", "my position"] },
    ]);
    // "my" is said by 3 samples, "points" by 20: counted per sample, "my" would outweigh the balance's own word
    expect(index.search("my points")[0]?.target).toBe("balance");
  });

  it("counts a Chinese word its samples have in their text, and a run no sample has as one word", () => {
    const index = new SemanticIndex([
      { target: "player", reject: false, samples: ["我还有多少血", "我的状态"] },
      { target: "balance", reject: false, samples: ["我还剩多少积分"] },
    ]);
    // the lexicon (from the balance sample) cuts 我还|剩: 我还 is still in the player's sample text
    const left = index.search("我还剩多少血").find((score) => score.target === "player");
    expect(left?.uncovered).toEqual(["剩"]);
    // 当前 is one unknown word, not two
    expect(index.search("当前状态").find((score) => score.target === "player")?.uncovered).toEqual(["当前"]);
  });
});

describe("TextAnalyzer", () => {
  const words = (text: string) => new TextAnalyzer().analyze(text).words;

  it("reads how players write as the samples' words", () => {
    expect(words("what's the server's rules")).toEqual(["what", "server", "rule"]);
    expect(words("does this work")).toEqual(["work"]);
    expect(words("pull up my quests")).toEqual(["show", "my", "quest"]);
    expect(words("let me see the store")).toEqual(["show", "store"]);
  });

  it("normalises Chinese short forms before matching", () => {
    const analyzer = new TextAnalyzer();
    expect(analyzer.normalize("我在哪")).toBe("我在哪里");
    expect(analyzer.normalize("服主是谁")).toBe("服务器主是谁");
    expect(analyzer.normalize("这服能pvp吗")).toBe("这服务器能pvp吗");
    expect(analyzer.normalize("衣服在哪")).toBe("衣服在哪里");
    expect(analyzer.normalize("看下我包里")).toBe("查看我背包里");
    expect(analyzer.normalize("任务1要干嘛")).toBe("任务 <num> 要做什么");
  });
});

describe("StatementGuard", () => {
  const guard = new StatementGuard();

  it("takes 还有 for a second request only after a first clause", () => {
    expect(guard.check("我还有多少积分")).toEqual([]);
    expect(guard.check("还有哪些任务没做")).toEqual([]);
    expect(guard.check("主城在哪，还有铁锭怎么做")).toContain("multi_intent");
  });

  it("does not read 什么 at the end as a yes-no question about a capability", () => {
    expect(guard.check("能买些什么")).toEqual([]);
    expect(guard.check("你能帮我挖矿吗")).toContain("capability_question");
    expect(guard.check("你能帮我挖矿么")).toContain("capability_question");
  });
});
