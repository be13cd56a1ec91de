import { afterEach, describe, expect, it } from "vitest";
import { AgentFailure } from "../../src/agent/agent-failure.js";
import { DEFAULT_POLICIES } from "../../src/agent/execution/policy-defaults.js";
import { BUILTIN_PACK_ROOT } from "../../src/data/prompts/prompt-store.js";
import { Languages } from "../../src/util/language.js";
import { cardOf, FEATURES, type Harness, PLAYER, reply, startHarness } from "./knowledge-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type UserJson = { tools: { type: string }[]; observations: unknown[] };
const userOf = (h: Harness, index: number): UserJson => h.model.requests[index]?.user as UserJson;

describe("system:reasoning", () => {
  it("runs a loop over exactly the enabled reasoning tools (never the web) and answers", async () => {
    harness = await startHarness();
    harness.database.add({ title: "钻石", body: "钻石在深板岩层最常见。", source: "file" });
    harness.model.script(
      reply({ type: "system:database.query", input: { query: "钻石" } }),
      reply({ type: "answer", text: "去深板岩层挖钻石。" }),
    );
    const result = await harness.reason("我要做钻石镐，去哪里找材料");
    expect(result.isSuccess()).toBe(true);
    expect(cardOf(result)).toEqual({
      text: "去深板岩层挖钻石。",
      steps: [{ tool: "system:database.query", found: ["钻石"] }],
      incomplete: false,
    });
    // search is installed and enabled for this player, but reasoning never offers it
    expect(userOf(harness, 0).tools.map((tool) => tool.type)).toEqual(["system:database.query"]);
    expect(harness.web.requests).toHaveLength(0);
  });

  it("leaves out tools of features the player does not have", async () => {
    harness = await startHarness();
    await harness.setFeature("system:knowledge", false);
    harness.model.script(
      reply({ type: "system:database.query", input: { query: "x" } }),
      reply({ type: "answer", text: "ok" }),
    );
    await harness.reason("analyse my base");
    expect(userOf(harness, 0).tools).toEqual([]);
    expect(userOf(harness, 1).observations).toEqual([]);
  });

  it("keeps what it looked up and says the analysis is incomplete when finalization fails; no tool JSON shown", async () => {
    harness = await startHarness();
    harness.database.add({ title: "Quest rules", body: "Quests need diamonds.", source: "file" });
    harness.model.script(
      reply({ type: "system:database.query", input: { query: "quests" } }),
      { text: "not json" },
      { text: "still not json" },
    );
    const result = await harness.reason("what does my quest need");
    expect(result.isPartial()).toBe(true);
    expect(result.failure?.code).toBe(AgentFailure.MODEL_INVALID_OUTPUT.code);
    expect(cardOf(result)).toEqual({
      text: "",
      steps: [{ tool: "system:database.query", found: ["Quest rules"] }],
      incomplete: true,
    });
    expect(JSON.stringify(result.encode())).not.toContain("snippet");
  });

  it("refuses without AI and uses the 3/4/8/14/60 s/12 s default policy", async () => {
    harness = await startHarness();
    await harness.setAi(false);
    expect((await harness.reason("anything")).failure?.code).toBe(AgentFailure.AI_DISABLED.code);
    const module = harness.engine.modules().get("system:reasoning");
    expect(module?.policy).toMatchObject({
      reactIterations: 3,
      modelCalls: 4,
      toolCalls: 8,
      steps: 14,
      ttlMillis: 60_000,
      modelTimeoutMillis: 12_000,
      writeSteps: 0,
    });
    expect(harness.model.requests).toHaveLength(0);
  });
});

describe("entries", () => {
  const identity = { playerId: PLAYER, permissionLevel: 0, features: new Set<string>(FEATURES) };

  it("/question never grants the web, /search does, `分析` and /reason run reasoning", async () => {
    harness = await startHarness();
    const commands = harness.engine.modules().commands();
    const question = await commands.parse("/question 钻石怎么获得", identity);
    const search = await commands.parse("/search netherite template", identity);
    const reason = await commands.parse("分析 我的任务需要什么", identity);
    const slash = await commands.parse("/reason what do I need", identity);
    expect(question.kind === "action" && question.action.input).toEqual({
      text: "钻石怎么获得",
      allowWeb: false,
    });
    expect(search.kind === "action" && search.action.input).toEqual({
      text: "netherite template",
      allowWeb: true,
    });
    expect(reason.kind === "action" && reason.action.input).toEqual({ request: "我的任务需要什么" });
    expect(slash.kind === "action" && slash.module.id.toString()).toBe("system:reasoning");
  });

  it("question uses the system:question default budget (6 rounds, 6 model, 9 tools, 20 steps, 90 s, 20 s)", async () => {
    harness = await startHarness();
    expect(harness.engine.modules().get("system:question")?.policy).toEqual(
      DEFAULT_POLICIES["system:question"],
    );
    expect(DEFAULT_POLICIES["system:question"]).toMatchObject({
      reactIterations: 6,
      modelCalls: 6,
      toolCalls: 9,
      steps: 20,
      ttlMillis: 90_000,
      modelTimeoutMillis: 20_000,
    });
  });

  it("semantic samples never grant the web", async () => {
    harness = await startHarness();
    const profile = harness.engine.modules().get("system:question")?.routing?.().profile;
    expect(profile?.kind).toBe("read");
    expect(profile?.extractor?.("search the internet for netherite")).toEqual({
      text: "search the internet for netherite",
      allowWeb: false,
    });
  });

  it("every card template is translated in both languages", () => {
    const languages = Languages.load(BUILTIN_PACK_ROOT);
    for (const locale of ["en_us", "zh_cn"])
      for (const key of [
        "system.question.card.summary",
        "system.question.card.stored",
        "system.question.card.web",
        "system.question.card.web_partial",
        "system.question.citations_removed",
        "system.reasoning.card.answer",
        "system.reasoning.card.incomplete",
      ])
        expect(languages.has(locale, key), `${locale} ${key}`).toBe(true);
  });
});
