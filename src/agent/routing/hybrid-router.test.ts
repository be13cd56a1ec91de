import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { identity, routingModules, SHOP } from "../../../test/support/routing-modules.js";
import { ScriptedModelServer } from "../../../test/support/scripted-model-server.js";
import { testGateway } from "../../../test/support/test-model.js";
import { codec } from "../../util/codec.js";
import { AgentResult } from "../agent-result.js";
import { candidateButtonArgs } from "../card/selection-card.js";
import { AgentEngine } from "../execution/agent-engine.js";
import type { ExecutionContext } from "../execution/execution-context.js";
import { SIMPLE_POLICY } from "../execution/policy-defaults.js";
import type { ModelPort } from "../model/model-client.js";
import { AbstractAgentModule } from "../module/abstract-agent-module.js";
import { ActionType } from "../module/action-type.js";
import { HybridRouter, type RouteRequest } from "./hybrid-router.js";
import type { RoutingPlayer } from "./routing-player.js";
import { DEFAULT_SEMANTIC_SETTINGS } from "./semantic-config.js";

const ASK = ActionType.of<{ question: string }>("system:ask", codec(z.object({ question: z.string() })));
/** A one-shot model workflow (SIMPLE policy: one model call in total). */
class AskModule extends AbstractAgentModule<{ question: string }> {
  constructor() {
    super({ action: ASK, description: "Answer a question.", policy: SIMPLE_POLICY });
  }
  async run(input: { question: string }, context: ExecutionContext): Promise<AgentResult> {
    await context.model({ system: "answer", user: { question: input.question } });
    return AgentResult.success();
  }
}

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await ScriptedModelServer.start();
});
afterEach(async () => {
  await server.close();
});

const ROUTER_PROMPT = "You are the request router.";

const setup = (model: ModelPort | undefined) => {
  const engine = new AgentEngine(model === undefined ? {} : { model });
  for (const module of Object.values(routingModules())) engine.registerModule(module);
  engine.registerModule(new AskModule());
  engine.start();
  const router = new HybridRouter({
    modules: engine.modules(),
    settings: () => DEFAULT_SEMANTIC_SETTINGS,
    model,
    system: () => ROUTER_PROMPT,
    policyOf: (module) => engine.policyOf(module),
  });
  return { engine, router };
};

const player = (
  playerId: string,
  features: string[] = [SHOP.toString()],
  aiEnabled = true,
): RoutingPlayer => ({
  ...identity(playerId, features),
  locale: "zh_cn",
  aiEnabled,
  generation: 0,
});
let sequence = 0;
const request = (text: string, who: RoutingPlayer = player("alice")): RouteRequest => ({
  requestId: `r${++sequence}`,
  text,
  player: who,
});
const reply = (value: unknown) => ({
  text: JSON.stringify(value),
  usage: { promptTokens: 50, completionTokens: 10 },
});

describe("HybridRouter", () => {
  it("answers command errors itself: an unknown slash command never reaches the model", async () => {
    const { router } = setup(testGateway(server));
    const unknown = await router.route(request("/system teleport home"));
    expect(unknown).toMatchObject({ source: "COMMAND", failure: { code: "UNKNOWN_COMMAND" } });
    const syntax = await router.route(request("/system item"));
    expect(syntax).toMatchObject({ source: "COMMAND", failure: { code: "INPUT_INVALID" } });
    const exact = await router.route(request("/system item Diamond Sword"));
    expect(exact).toMatchObject({
      source: "COMMAND",
      action: { input: { query: "Diamond Sword", page: 0 } },
    });
    expect(server.requests).toHaveLength(0);
  });

  it("routes a close read request locally without a model call", async () => {
    const { router } = setup(testGateway(server));
    const decision = await router.route(request("物品信息 minecraft:gold_ingot"));
    expect(decision.source).toBe("SEMANTIC");
    expect(decision.action?.input).toEqual({ query: "minecraft:gold_ingot", page: 0 });
    expect(decision.evidence.path).toEqual(["command:none", "semantic:direct"]);
    expect(decision.evidence.candidates[0]?.moduleId).toBe("system:item_query");
    expect(server.requests).toHaveLength(0);
  });

  it("sends the model the catalog this player can select now and decodes its choice", async () => {
    const { router } = setup(testGateway(server));
    server.script(
      reply({ capabilityId: "system:item_query", input: { query: "minecraft:diamond", page: 0 } }),
    );
    const decision = await router.route(request("钻石在哪能找到", player("bob", [])));
    expect(decision.source).toBe("MODEL");
    expect(decision.action?.input).toEqual({ query: "minecraft:diamond", page: 0 });
    expect(decision.counters.modelCalls).toBe(1);
    expect(decision.counters.routingCalls).toBe(1);
    const sent = server.requests[0]!;
    expect(sent.system).toBe(ROUTER_PROMPT);
    const user = sent.user as { request: string; capabilities: string[] };
    expect(user.request).toBe("钻石在哪能找到");
    // one line per capability: `!` for explicit-only, the id without the default namespace, then its input
    const entry = (lines: string[], id: string): string | undefined =>
      lines.find((line) => line.replace(/^!/, "").split(/[{:]/)[0] === id);
    const ids = user.capabilities.map((line) => line.replace(/^!/, "").split(/[{:]/)[0]);
    expect(ids).toEqual(["item_query", "player_query", "help", "ask", "clarify"]);
    // bob has neither the shop nor quests; structuredOnly modules are never offered.
    const alice = await (async () => {
      server.script(reply({ capabilityId: "clarify" }));
      await router.route(request("钻石在哪能找到"));
      return server.requests[1]!.user as typeof user;
    })();
    expect(entry(alice.capabilities, "quest_detail")).toBeUndefined();
    const withQuests = player("carol", [SHOP.toString(), "system:ftbq"]);
    server.script(reply({ capabilityId: "clarify" }));
    await router.route(request("钻石在哪能找到", withQuests));
    const carol = server.requests[2]!.user as typeof user;
    expect(entry(carol.capabilities, "quest_detail")?.startsWith("!")).toBe(true);
    expect(entry(carol.capabilities, "shop_buy")?.startsWith("!")).toBe(false);
    expect(entry(carol.capabilities, "pay_confirm")).toBeUndefined();
    expect(entry(carol.capabilities, "reload")).toBeUndefined();
  });

  it("says on the fallback card why the model did not decide: quota, model down, unreadable reply, not understood", async () => {
    const prompt = async (model: ModelPort | undefined, text = "minecraft:diamond 多少钱") =>
      (await setup(model).router.route(request(text))).selection?.promptKey;
    server.script({ status: 500 }, { text: "not a JSON reply" });
    expect(await prompt(testGateway(server))).toBe("system.selection.model_unavailable");
    expect(await prompt(testGateway(server))).toBe("system.selection.model_invalid");
    const exhausted = testGateway(server, { dailyCalls: 1 });
    server.script(reply({ capabilityId: "clarify" }));
    expect(await prompt(exhausted)).toBe("system.selection.clarify");
    expect(await prompt(exhausted)).toBe("system.selection.quota");
    // without a model the card says nothing about one
    expect(await prompt(undefined)).toBe("system.selection.fallback");
  });

  it("refuses a model reply naming a structuredOnly, absent or disabled module and falls back locally", async () => {
    const { router } = setup(testGateway(server));
    server.script(
      reply({ capabilityId: "system:pay_confirm", input: { order: "o1" } }),
      reply({ capabilityId: "system:teleport", input: {} }),
      reply({ capabilityId: "system:shop_buy", input: { item: "minecraft:diamond", count: 1 } }),
      { text: "I think you want the item query." },
      { status: 500 },
    );
    for (const who of [player("alice"), player("alice"), player("bob", []), player("alice")]) {
      const decision = await router.route(request("minecraft:diamond 多少钱", who));
      expect(decision.source).toBe("LOCAL_FALLBACK");
      expect(decision.action).toBeUndefined();
      expect(decision.evidence.path.at(-1)).toBe("model:invalid");
    }
    const failed = await router.route(request("minecraft:diamond 多少钱"));
    expect(failed.source).toBe("LOCAL_FALLBACK");
    expect(failed.evidence.path.at(-1)).toMatch(/^model:failed:/);
    expect(failed.selection?.candidates.map((candidate) => candidate.action)).toEqual(["system:item_query"]);
    expect(server.requests).toHaveLength(5);
  });

  it("shows this request's candidates when the model asks to clarify", async () => {
    const { router } = setup(testGateway(server));
    server.script(reply({ capabilityId: "clarify", reason: "item or shop?" }));
    const decision = await router.route(request("minecraft:diamond 多少钱"));
    expect(decision.source).toBe("CLARIFY");
    expect(decision.selection?.promptKey).toBe("system.selection.clarify");
    expect(decision.selection?.candidates[0]).toEqual({
      labelKey: "system.selection.item",
      labelArgs: ["system:item_query"],
      action: "system:item_query",
      input: { query: "minecraft:diamond", page: 0 },
    });
    // Write modules are never candidates.
    expect(decision.selection?.candidates.map((candidate) => candidate.action)).not.toContain(
      "system:shop_buy",
    );
  });

  it("falls back to a local selection card without a model, or when AI is off for the player", async () => {
    const { router } = setup(undefined);
    const parsed = await router.route(request("minecraft:diamond 多少钱"));
    expect(parsed.source).toBe("LOCAL_FALLBACK");
    expect(parsed.evidence.path.at(-1)).toBe("model:not_configured");
    expect(parsed.selection?.candidates.map((candidate) => candidate.action)).toEqual(["system:item_query"]);
    const generic = await router.route(request("随便聊聊吧"));
    expect(generic.selection?.candidates.map((candidate) => candidate.labelKey)).toEqual([
      "system.selection.me",
      "system.selection.help",
    ]);
    const withModel = setup(testGateway(server));
    const off = await withModel.router.route(request("随便聊聊吧", player("alice", [], false)));
    expect(off.source).toBe("LOCAL_FALLBACK");
    expect(off.evidence.path.at(-1)).toBe("model:ai_disabled");
    expect(server.requests).toHaveLength(0);
  });

  it("remembers a successful route per player only, and a clicked candidate neither routes nor caches", async () => {
    const { router } = setup(testGateway(server));
    const text = "钻石的资料给我看看";
    server.script(
      reply({ capabilityId: "system:item_query", input: { query: "minecraft:diamond", page: 0 } }),
    );
    const first = request(text);
    const decision = await router.route(first);
    expect(decision.source).toBe("MODEL");
    expect(router.remember(first, decision, AgentResult.success(), 0)).toBe(true);
    const again = await router.route(request(text));
    expect(again.source).toBe("CACHE");
    expect(again.action?.input).toEqual({ query: "minecraft:diamond", page: 0 });
    expect(server.requests).toHaveLength(1);
    // Bob typing the same words is not served from Alice's cache.
    server.script(reply({ capabilityId: "clarify" }));
    expect((await router.route(request(text, player("bob")))).source).toBe("CLARIFY");
    expect(server.requests).toHaveLength(2);
    // A failed run, a stale generation or a model route to a write module is never remembered.
    expect(
      router.remember(request("x"), decision, AgentResult.error({ code: "X", key: "x", args: [] }), 0),
    ).toBe(false);
    expect(router.remember(request("y"), decision, AgentResult.success(), 1)).toBe(false);

    const card = await setup(undefined).router.route(request("minecraft:diamond 多少钱"));
    const candidate = card.selection!.candidates[0]!;
    const clicked = router.structured({
      player: player("dave"),
      action: candidate.action,
      args: candidateButtonArgs(candidate),
    });
    expect(clicked).toMatchObject({
      source: "STRUCTURED",
      action: { input: { query: "minecraft:diamond", page: 0 } },
    });
    expect(
      router.remember(request("minecraft:diamond 多少钱", player("dave")), clicked, AgentResult.success(), 0),
    ).toBe(false);
    expect(router.cache.size("dave")).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(
      router.structured({ player: player("dave"), action: candidate.action, args: ["{"] }).failure?.code,
    ).toBe("INPUT_INVALID");
  });

  it("charges the routing call to the workflow's model budget", async () => {
    const { engine, router } = setup(testGateway(server));
    server.script(reply({ capabilityId: "system:ask", input: { question: "why is the sky blue" } }));
    const decision = await router.route(request("why is the sky blue"));
    expect(decision.source).toBe("MODEL");
    const result = await engine.execute(decision.action!, {
      requestId: "ask",
      playerId: "alice",
      locale: "en_us",
      features: new Set([SHOP.toString()]),
      counters: decision.counters,
    });
    expect(result.failure).toMatchObject({ code: "BUDGET_EXHAUSTED", args: ["modelCalls"] });
    expect(server.requests).toHaveLength(1);
  });
});
