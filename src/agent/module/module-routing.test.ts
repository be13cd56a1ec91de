import { describe, expect, it } from "vitest";
import {
  FixtureModule,
  ITEM_QUERY,
  type ItemQueryInput,
  routingModules,
  SHOP,
} from "../../../test/support/routing-modules.js";
import { AgentEngine } from "../execution/agent-engine.js";
import { ModuleRouting } from "./module-routing.js";
import { RoutingProfile } from "./routing-profile.js";

describe("ModuleRouting and the registry", () => {
  it("declares immutably: each builder call returns a new declaration", () => {
    const base = ModuleRouting.defaults<ItemQueryInput>();
    const withChoice = base.choice("system.selection.item");
    expect(base.choiceKey).toBeUndefined();
    expect(withChoice.choiceKey).toBe("system.selection.item");
    expect(ModuleRouting.explicitOnly().selection).toBe("explicit_only");
    expect(ModuleRouting.structuredOnly().selection).toBe("structured_only");
    expect(() =>
      base.semantic(RoutingProfile.hints(["a"], [])).semantic(RoutingProfile.hints(["b"], [])),
    ).toThrow();
  });

  it("registers reject samples without an entry point and refuses id conflicts", () => {
    const engine = new AgentEngine();
    const { item } = routingModules();
    engine.registerModule(item);
    const modules = engine.modules();
    expect(() => modules.reject("system:item_query", RoutingProfile.hints(["你好"], []))).toThrow(/conflict/);
    modules.reject("system:chitchat", RoutingProfile.hints(["你好"], ["hello"]));
    expect(() => modules.reject("system:chitchat", RoutingProfile.hints(["嗨"], []))).toThrow(/conflict/);
    expect(() =>
      modules.reject(
        "system:other",
        RoutingProfile.read(() => ({}), ["你好"], []),
      ),
    ).toThrow(/hints/);
    engine.start();
    expect(() => modules.reject("system:late", RoutingProfile.hints(["x"], []))).toThrow(/frozen/);
    expect(modules.routes.entries().find((entry) => entry.target === "system:chitchat")).toMatchObject({
      reject: true,
    });
    expect(modules.get("system:chitchat")).toBeUndefined();
  });

  it("refuses RoutingProfile.read on explicitOnly modules and shortcuts that fail the codec", () => {
    const engine = new AgentEngine();
    const explicit = new FixtureModule<ItemQueryInput>({
      action: ITEM_QUERY,
      description: "x",
      routing: ModuleRouting.explicitOnly<ItemQueryInput>().semantic(
        RoutingProfile.read(() => ({ query: "a", page: 0 }), ["查询物品"], []),
      ),
    });
    expect(() => engine.registerModule(explicit)).toThrow(/defaults/);
    const badShortcut = new FixtureModule<ItemQueryInput>({
      action: ITEM_QUERY,
      description: "x",
      routing: ModuleRouting.defaults<ItemQueryInput>().shortcut("system.selection.item", {
        query: "",
        page: -1,
      }),
    });
    expect(() => engine.registerModule(badShortcut)).toThrow(/shortcut/);
  });

  it("suggests read-only candidates parsed from this text, else generic shortcuts, filtered by features", () => {
    const engine = new AgentEngine();
    for (const module of Object.values(routingModules())) engine.registerModule(module);
    engine.start();
    const modules = engine.modules();
    const alice = { features: new Set([SHOP.toString()]) };
    const parsed = modules.suggestions("minecraft:diamond 多少钱", alice);
    // Only modules related to the text whose extractor parsed it; the player and help modules share no words.
    expect(parsed.map((candidate) => candidate.action)).toEqual(["system:item_query"]);
    expect(parsed[0]).toMatchObject({
      labelKey: "system.selection.item",
      input: { query: "minecraft:diamond", page: 0 },
    });
    // Ordered by similarity when scores are given.
    const ordered = modules.suggestions("minecraft:diamond", alice, {
      scores: new Map([
        ["system:help", 0.9],
        ["system:item_query", 0.5],
      ]),
    });
    expect(ordered.map((candidate) => candidate.action)).toEqual(["system:help", "system:item_query"]);
    // Nothing related: the generic shortcuts.
    expect(modules.suggestions("随便聊聊吧", alice).map((candidate) => candidate.labelKey)).toEqual([
      "system.selection.me",
      "system.selection.help",
    ]);
    // The shop (write) and payment confirmation (structuredOnly, write) are never candidates.
    expect(parsed.map((candidate) => candidate.action)).not.toContain("system:shop_buy");
    expect(modules.suggestions("x", alice, { limit: 1 })).toHaveLength(1);
  });
});
