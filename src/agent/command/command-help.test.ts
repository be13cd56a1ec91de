import { describe, expect, it } from "vitest";
import { identity, routingModules, SHOP } from "../../../test/support/routing-modules.js";
import { AgentEngine } from "../execution/agent-engine.js";
import { commandHelp } from "./command-help.js";

describe("commandHelp", () => {
  it("lists only commands the player may use, from installed modules", () => {
    const engine = new AgentEngine();
    const { item, help, shop, reload } = routingModules();
    for (const module of [item, help, shop, reload]) engine.registerModule(module);
    engine.start();
    const commands = engine.modules().commands();
    const ids = (features: string[], level = 0) =>
      commandHelp(commands, identity("p", features, level)).map((entry) => entry.moduleId);

    expect(ids([])).toEqual(["system:item_query", "system:help"]);
    expect(ids([SHOP.toString()])).toContain("system:shop_buy");
    expect(ids([], 2)).toContain("system:reload");
    // system:player_query is not installed on this engine: it never appears.
    expect(ids([SHOP.toString()], 4)).not.toContain("system:player_query");
    const itemHelp = commandHelp(commands, identity("p")).find(
      (entry) => entry.moduleId === "system:item_query",
    );
    expect(itemHelp?.usages).toEqual([
      "/system item <query>",
      "/system 物品 <query>",
      "/system 查询物品 <query>",
    ]);
    const helpHelp = commandHelp(commands, identity("p")).find((entry) => entry.moduleId === "system:help");
    expect(helpHelp?.usages[0]).toBe("/system help [topic]");
  });
});
