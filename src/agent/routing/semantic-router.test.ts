import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  FixtureModule,
  ITEM_QUERY,
  type ItemQueryInput,
  routingModules,
  SHOP,
} from "../../../test/support/routing-modules.js";
import { codec } from "../../util/codec.js";
import { CommandArguments } from "../command/command-arguments.js";
import { AgentEngine } from "../execution/agent-engine.js";
import { SIMPLE_POLICY } from "../execution/policy-defaults.js";
import { ActionType } from "../module/action-type.js";
import { ModuleRouting } from "../module/module-routing.js";
import { RoutingProfile } from "../module/routing-profile.js";
import { DEFAULT_SEMANTIC_SETTINGS, type SemanticSettings } from "./semantic-config.js";
import { SemanticRouter } from "./semantic-router.js";

const GIFT = ActionType.of("system:gift_claim", ITEM_QUERY.codec);
const EMPTY = codec(z.object({}).strict() as z.ZodType<Record<string, never>>);
const BALANCE = ActionType.of<Record<string, never>>("system:balance", EMPTY);
const QUEST_BRIEF = ActionType.of<Record<string, never>>("system:quest_brief", EMPTY);
const idExtractor = (text: string): ItemQueryInput | undefined => {
  const id = CommandArguments.singleItemId(text);
  return id === undefined ? undefined : { query: id, page: 0 };
};

/** A read workflow without arguments, routed by these samples. */
const readFixture = (
  action: ActionType<Record<string, never>>,
  description: string,
  profile: RoutingProfile<Record<string, never>>,
) =>
  new FixtureModule<Record<string, never>>({
    action,
    description,
    routing: ModuleRouting.defaults<Record<string, never>>().semantic(profile),
  });

/** The semantic router over a started engine's modules, at the shipped thresholds. */
const routerOf = (engine: AgentEngine): SemanticRouter =>
  new SemanticRouter({ modules: engine.modules(), settings: () => DEFAULT_SEMANTIC_SETTINGS });

const setup = (settings: Partial<SemanticSettings> = {}) => {
  const engine = new AgentEngine();
  for (const module of Object.values(routingModules())) engine.registerModule(module);
  // A misdeclared write workflow that asks for direct routing: the registry must still refuse it.
  engine.registerModule(
    new FixtureModule<ItemQueryInput>({
      action: GIFT,
      description: "Claim a gift item.",
      policy: { ...SIMPLE_POLICY, writeSteps: 1 },
      routing: ModuleRouting.defaults<ItemQueryInput>().semantic(
        RoutingProfile.read(idExtractor, ["领取礼包 minecraft:chest"], ["claim gift minecraft:chest"]),
      ),
    }),
  );
  // A setting: it changes state without a tool or a write budget, and says so; the declaration alone refuses it.
  engine.registerModule(
    new FixtureModule<ItemQueryInput>({
      action: ActionType.of("system:favourite_set", ITEM_QUERY.codec),
      description: "Set the player's favourite item.",
      writes: "state",
      routing: ModuleRouting.defaults<ItemQueryInput>().semantic(
        RoutingProfile.read(idExtractor, ["设为最爱 minecraft:apple"], ["set favourite minecraft:apple"]),
      ),
    }),
  );
  engine
    .modules()
    .reject(
      "system:chitchat",
      RoutingProfile.hints(["你好", "今天天气怎么样"], ["hello there", "how are you"]),
    );
  engine.start();
  const router = new SemanticRouter({
    modules: engine.modules(),
    settings: () => ({ ...DEFAULT_SEMANTIC_SETTINGS, ...settings }),
    policyOf: (module) => engine.policyOf(module),
  });
  const features = new Set([SHOP.toString(), "system:ftbq"]);
  const all = (module: { owner: { toString(): string } | undefined }) =>
    module.owner === undefined || features.has(module.owner.toString());
  return { engine, router, all };
};

describe("SemanticRouter", () => {
  it("routes a close Chinese or English request to a read-only module with the argument from the text", async () => {
    const { router, all } = setup();
    const zh = await router.match("查询物品 minecraft:gold_ingot", all);
    expect(zh.refusal).toBeUndefined();
    expect(zh.direct?.module.id.toString()).toBe("system:item_query");
    expect(zh.direct?.action.input).toEqual({ query: "minecraft:gold_ingot", page: 0 });
    expect(zh.candidates[0]).toMatchObject({ moduleId: "system:item_query" });
    expect(zh.margin).toBeGreaterThanOrEqual(DEFAULT_SEMANTIC_SETTINGS.minMargin);
    const en = await router.match("Look up item MINECRAFT:STICK", all);
    expect(en.direct?.action.input).toEqual({ query: "minecraft:stick", page: 0 });
    expect((await router.match("我的状态", all)).direct?.module.id.toString()).toBe("system:player_query");
    // Full-width text is normalised before matching.
    expect(
      (await router.match("ｓｈｏｗ ｍｙ ｐｌａｙｅｒ ｉｎｆｏ", all)).direct?.module.id.toString(),
    ).toBe("system:player_query");
  });

  it("never routes a negated request directly", async () => {
    const { router, all } = setup();
    for (const text of [
      "不要查询物品 minecraft:diamond",
      "别查询物品 minecraft:diamond",
      "don't look up item minecraft:diamond",
    ]) {
      const match = await router.match(text, all);
      expect(match.direct, text).toBeUndefined();
      expect(match.guards, text).toContain("negation");
      expect(match.refusal, text).toBe("guard");
    }
    // 区别 contains 别 but is not a negation.
    expect((await router.match("物品信息 minecraft:stone 区别", all)).guards).toEqual([]);
  });

  it("never routes several intents or a capability question directly", async () => {
    const { router, all } = setup();
    const multi = await router.match("查询物品 minecraft:diamond 然后购买", all);
    expect(multi.direct).toBeUndefined();
    expect(multi.guards).toContain("multi_intent");
    expect((await router.match("look up item minecraft:diamond and then buy it", all)).guards).toContain(
      "multi_intent",
    );
    const capability = await router.match("你能查询物品 minecraft:diamond 吗？", all);
    expect(capability.direct).toBeUndefined();
    expect(capability.guards).toContain("capability_question");
    expect((await router.match("can you look up item minecraft:diamond?", all)).guards).toContain(
      "capability_question",
    );
  });

  it("does not hold a guard against a text phrased like its closest sample", async () => {
    const { router, all } = setup();
    for (const text of ["你能做什么？", "What can you do?"]) {
      const match = await router.match(text, all);
      expect(match.direct?.module.id.toString(), text).toBe("system:help");
      expect(match.guards, text).toEqual([]);
    }
  });

  it("never routes a text naming an item to a workflow without an item slot", async () => {
    const { router, all } = setup();
    // close to the player's own "我的状态" / "my status", but it names an item the player workflow cannot take
    for (const text of ["我的状态 minecraft:diamond", "my status minecraft:diamond"]) {
      const match = await router.match(text, all);
      expect(match.candidates[0]?.moduleId, text).toBe("system:player_query");
      expect(match.candidates[0]?.uncovered, text).toContain("<id>");
      expect(match.direct, text).toBeUndefined();
      expect(match.refusal, text).toBe("uncovered_mention");
    }
    // the same words without a mention still route directly
    expect((await router.match("my status", all)).direct?.module.id.toString()).toBe("system:player_query");
  });

  it("never routes a text that shares only question words with a workflow's samples", async () => {
    const engine = new AgentEngine();
    engine.registerModule(
      readFixture(
        BALANCE,
        "Where the player is.",
        RoutingProfile.read(
          () => ({}),
          ["我在哪个世界", "我的坐标"],
          ["what world am I in", "what are my coordinates", "where am I"],
        ),
      ),
    );
    engine.start();
    const router = routerOf(engine);
    // "what", "I", "in" and "my" in common, "cook soups" and "feed horse" nowhere in the samples
    for (const text of ["what do I cook soups in", "what do I feed my horse"]) {
      const match = await router.match(text, () => true);
      expect(match.candidates[0]?.moduleId, text).toBe("system:balance");
      expect(match.coverage, text).toBeGreaterThanOrEqual(DEFAULT_SEMANTIC_SETTINGS.minCoverage);
      expect(match.direct, text).toBeUndefined();
      expect(match.refusal, text).toBe("off_topic");
    }
    // a word of the samples' own topic in common still routes directly, question words or not
    for (const text of ["what world am I in now", "where am I right now"])
      expect((await router.match(text, () => true)).direct?.module.id.toString(), text).toBe(
        "system:balance",
      );
  });

  it("never routes a write module directly, even one that declared RoutingProfile.read", async () => {
    const { router, all } = setup();
    const gift = await router.match("领取礼包 minecraft:chest", all);
    expect(gift.candidates[0]?.moduleId).toBe("system:gift_claim");
    expect(gift.direct).toBeUndefined();
    expect(gift.refusal).toBe("writes");
    const favourite = await router.match("设为最爱 minecraft:apple", all);
    expect(favourite.candidates[0]?.moduleId).toBe("system:favourite_set");
    expect(favourite.direct).toBeUndefined();
    expect(favourite.refusal).toBe("writes");
    const shop = await router.match("购买物品 minecraft:diamond", all);
    expect(shop.candidates[0]?.moduleId).toBe("system:shop_buy");
    expect(shop.direct).toBeUndefined();
    expect(shop.refusal).toBe("no_read_profile");
  });

  it("does not route when the extractor finds no argument in this text", async () => {
    const { router, all } = setup({ minSimilarity: 0.3, minCoverage: 0.3 });
    const match = await router.match("查询物品", all);
    expect(match.candidates[0]?.moduleId).toBe("system:item_query");
    expect(match.direct).toBeUndefined();
    expect(match.refusal).toBe("no_arguments");
  });

  it("lets reject samples win and keeps unavailable modules out", async () => {
    const { router, all } = setup();
    const hello = await router.match("你好", all);
    expect(hello.candidates[0]).toMatchObject({ moduleId: "system:chitchat", reject: true });
    expect(hello.direct).toBeUndefined();
    expect(hello.refusal).toBe("reject");
    const none = await router.match("查询物品 minecraft:diamond", () => false);
    expect(none.refusal).toBe("unavailable");
  });

  it("applies the configured thresholds", async () => {
    const strict = setup({ minSimilarity: 1.01 });
    expect((await strict.router.match("查询物品 minecraft:diamond", strict.all)).refusal).toBe("similarity");
    const margin = setup({ minMargin: 1 });
    expect((await margin.router.match("查询物品 minecraft:diamond", margin.all)).refusal).toBe("margin");
    const coverage = setup({ minCoverage: 1 });
    const partial = await coverage.router.match("查询物品 minecraft:diamond 谢谢", coverage.all);
    expect(partial.coverage).toBeLessThan(1);
    expect(partial.refusal).toBe("coverage");
  });

  it("drops a module whose topic the text does not name: it neither wins nor narrows another's margin", async () => {
    const build = (topic: boolean) => {
      const engine = new AgentEngine();
      for (const module of Object.values(routingModules())) engine.registerModule(module);
      const profile = RoutingProfile.read(
        () => ({}),
        ["我的积分", "我的积分还剩多少", "查看我的积分"],
        ["my points", "show my points", "my points left"],
      );
      engine.registerModule(
        readFixture(BALANCE, "The player's points.", topic ? profile.about(/积分|\bpoints?\b/) : profile),
      );
      engine.start();
      return routerOf(engine);
    };
    // "my status" shares "my" with every balance sample: without a topic the balance narrows the margin
    const plain = await build(false).match("show my status", () => true);
    const topical = await build(true).match("show my status", () => true);
    expect(plain.candidates.map((candidate) => candidate.moduleId)).toContain("system:balance");
    expect(topical.candidates.map((candidate) => candidate.moduleId)).not.toContain("system:balance");
    expect(topical.margin).toBeGreaterThan(plain.margin);
    expect(topical.direct?.module.id.toString()).toBe("system:player_query");
    expect((await build(true).match("show my points", () => true)).direct?.module.id.toString()).toBe(
      "system:balance",
    );
  });

  it("names each candidate's closest sample and the words its samples lack", async () => {
    const { router, all } = setup();
    const match = await router.match("查询物品 minecraft:diamond 谢谢", all);
    expect(match.candidates[0]).toMatchObject({
      moduleId: "system:item_query",
      sample: "查询物品 minecraft:diamond",
      uncovered: ["谢谢"],
    });
  });

  it("marks argument names of a feature's slot recognizer in samples and queries alike", async () => {
    const engine = new AgentEngine();
    for (const module of Object.values(routingModules())) engine.registerModule(module);
    const told: boolean[] = [];
    engine.modules().routes.addSlots((samples) => {
      // a name that is a sample's word is never marked
      told.push(samples.has("help"), samples.has("timber"));
      return {
        mark: (text) => text.replace(/\b(?:timber|help)\b/g, (name) => (name === "help" ? name : "<quest>")),
      };
    });
    engine.registerModule(
      readFixture(
        QUEST_BRIEF,
        "One quest.",
        RoutingProfile.read(
          () => ({}),
          ["<quest>任务详情"],
          ["what does <quest> need", "details of <quest>"],
        ),
      ),
    );
    engine.start();
    const router = routerOf(engine);
    const match = await router.match("what does timber need", () => true);
    expect(told).toEqual([true, false]);
    expect(match.direct?.module.id.toString()).toBe("system:quest_brief");
    expect(match.coverage).toBe(1);
    expect(() => engine.modules().routes.addSlots(() => ({ mark: (text) => text }))).toThrow("frozen");
  });
});
