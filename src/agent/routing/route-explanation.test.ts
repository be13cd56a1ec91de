import { describe, expect, it } from "vitest";
import { identity, routingModules } from "../../../test/support/routing-modules.js";
import { AgentEngine } from "../execution/agent-engine.js";
import { HybridRouter } from "./hybrid-router.js";
import { explainDecision } from "./route-explanation.js";
import { DEFAULT_SEMANTIC_SETTINGS } from "./semantic-config.js";

describe("explainDecision", () => {
  it("prints each decision as one JSON object with its path, candidates and figures", async () => {
    const engine = new AgentEngine();
    for (const module of Object.values(routingModules())) engine.registerModule(module);
    engine.start();
    const router = new HybridRouter({ modules: engine.modules(), settings: () => DEFAULT_SEMANTIC_SETTINGS });
    const player = { ...identity("admin"), locale: "en_us", aiEnabled: true, generation: 0 };
    const explain = async (text: string) =>
      JSON.parse(JSON.stringify(explainDecision(await router.route({ requestId: "r", text, player }))));

    const semantic = await explain("物品信息 minecraft:gold_ingot");
    expect(semantic).toMatchObject({
      path: "semantic",
      moduleId: "system:item_query",
      input: { query: "minecraft:gold_ingot", page: 0 },
      steps: ["command:none", "semantic:direct"],
    });
    expect(semantic.candidates[0]).toMatchObject({
      moduleId: "system:item_query",
      similarity: expect.any(Number),
    });
    expect(semantic.margin).toBeGreaterThan(0);
    expect(semantic.coverage).toBe(1);

    expect(await explain("/system item Stone")).toMatchObject({
      path: "command",
      input: { query: "Stone", page: 0 },
    });
    expect(await explain("/system nope")).toMatchObject({
      path: "none",
      failure: { code: "UNKNOWN_COMMAND" },
    });
    const fallback = await explain("不要查询物品 minecraft:diamond");
    expect(fallback).toMatchObject({ path: "local_fallback", moduleId: null, guards: ["negation"] });
    expect(fallback.steps).toEqual(["command:none", "semantic:guard", "cache:miss", "model:not_configured"]);
  });
});
