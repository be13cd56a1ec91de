import { describe, expect, it } from "vitest";
import { runRoute } from "./route-cli-support.js";

interface Decision {
  path: string;
  moduleId: string | null;
  input: unknown;
  candidates: { moduleId: string; similarity: number }[];
  margin: number;
  coverage: number;
  guards: string[];
}

const run = runRoute;

const decide = async (args: string[]): Promise<Decision> => {
  const { code, out } = await run(args);
  expect(code).toBe(0);
  expect(out.trim().split("\n")).toHaveLength(1);
  return JSON.parse(out) as Decision;
};

describe("npx system route", () => {
  it("routes an item question to the item query and a rules question to the question workflow, both locally", async () => {
    const item = await decide(["钻石怎么获得", "--locale", "zh_cn"]);
    expect(item.path).toBe("semantic");
    expect(item.moduleId).toBe("system:item_query");
    expect(item.input).toEqual({ query: "minecraft:diamond" });
    const rules = await decide(["what are the server rules"]);
    expect(rules.path).toBe("semantic");
    expect(rules.moduleId).toBe("system:question");
    expect(rules.input).toEqual({ text: "what are the server rules", allowWeb: false });
  });

  it("treats `查询物品 钻石` as its command alias and `查询物品钻石` as a semantic direct route", async () => {
    const command = await decide(["查询物品 钻石", "--locale", "zh_cn", "--player", "Alex"]);
    expect(command.path).toBe("command");
    expect(command.moduleId).toBe("system:item_query");
    expect(command.input).toEqual({ query: "钻石" });
    const semantic = await decide(["查询物品钻石", "--locale", "zh_cn", "--player", "Alex"]);
    expect(semantic.path).toBe("semantic");
    expect(semantic.moduleId).toBe("system:item_query");
    expect(semantic.input).toEqual({ query: "minecraft:diamond" });
    expect(semantic.coverage).toBeGreaterThan(0);
  });

  it("routes free Chinese text semantically with candidates, margin and coverage", async () => {
    const decision = await decide(["查看我的背包", "--locale", "zh_cn"]);
    expect(decision.path).toBe("semantic");
    expect(decision.moduleId).toBe("system:player_query");
    expect(decision.candidates[0]?.moduleId).toBe("system:player_query");
    expect(decision.candidates[0]?.similarity).toBeGreaterThan(0);
    expect(decision.margin).toBeGreaterThan(0);
    expect(decision.coverage).toBeGreaterThan(0);
  });

  it("does not route a negated request directly and explains the guard", async () => {
    const decision = await decide(["不要查询物品钻石", "--locale", "zh_cn"]);
    expect(decision.path).not.toBe("semantic");
    expect(decision.path).toBe("local_fallback");
    expect(decision.guards.join(",")).toMatch(/negat/i);
  });

  it("reports an exact command with path command", async () => {
    const decision = await decide(["/system item minecraft:diamond"]);
    expect(decision.path).toBe("command");
    expect(decision.moduleId).toBe("system:item_query");
    expect(decision.input).toEqual({ query: "minecraft:diamond" });
  });

  it("reports an unknown command with path none", async () => {
    const decision = await decide(["/system nosuchthing"]);
    expect(decision.path).toBe("none");
    expect(decision.moduleId).toBeNull();
  });

  it("rejects bad usage with exit code 2", async () => {
    expect((await run([])).code).toBe(2);
    const bad = await run(["hello", "--locale", "fr_fr"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/usage: system route/);
  });
});
