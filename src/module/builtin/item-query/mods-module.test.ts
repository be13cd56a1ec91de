import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GameHarness } from "../../../../test/support/game-harness.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { HybridRouter } from "../../../agent/routing/hybrid-router.js";
import { DEFAULT_SEMANTIC_SETTINGS } from "../../../agent/routing/semantic-config.js";
import { MOD_CARD, MODS_CARD } from "./mods-cards.js";
import { MODS_ACTION } from "./mods-module.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
let harness: GameHarness;

beforeEach(async () => {
  harness = await GameHarness.create({ entries: [{ id: "system:item_query" }] });
});
afterEach(async () => {
  await harness.close();
});

describe("system:mods", () => {
  it("says it knows of no mods on a server whose content it has not read, in both languages", async () => {
    const list = await harness.command(STEVE, "/system mods");
    expect(list.isSuccess()).toBe(true);
    expect(harness.render(list).text).toBe(
      "System knows of no mods on this server: it has read none from the server's folder.",
    );
    const zh = await harness.command(STEVE, "模组", "zh_cn");
    expect(harness.render(zh, "zh_cn").text).toMatch(/^System 不知道本服务器有任何模组/);
    // a button's input ({"mod": id}) decodes with the workflow's codec
    const clicked = await harness.run(MODS_ACTION.action({ mod: "create" }), STEVE);
    expect(clicked.failure?.code).toBe("NOT_FOUND");
    expect(harness.render(clicked).text).toBe("No mod on this server matches “create”.");
  });

  it("is reached by the local route for the list, never for moderators, the rules or an item's mod", async () => {
    const router = new HybridRouter({
      modules: harness.engine.modules(),
      settings: () => DEFAULT_SEMANTIC_SETTINGS,
    });
    const route = async (text: string, locale = "en_us") =>
      router.route({
        requestId: "r1",
        text,
        player: {
          playerId: STEVE,
          permissionLevel: 0,
          features: harness.features(STEVE),
          locale,
          aiEnabled: false,
          generation: 0,
        },
      });
    expect((await route("what mods are installed")).action?.type.id.toString()).toBe("system:mods");
    expect((await route("服务器有哪些模组", "zh_cn")).action?.type.id.toString()).toBe("system:mods");
    for (const text of ["who are the mods", "are mods allowed here", "which mod adds diamonds"])
      expect((await route(text)).action?.type.id.toString(), text).not.toBe("system:mods");
  });
});

describe("the mods cards", () => {
  it("list each mod with its version and items, the rest counted, and buttons to a mod's items", () => {
    const card = MODS_CARD.card({
      mods: [
        { id: "create", name: "Create", version: "0.5.1.f", items: 4 },
        { id: "flywheel", name: "Flywheel", version: "0.6.10", items: 0 },
      ],
      more: 3,
      total: 5,
    });
    const view = harness.render(AgentResult.success(undefined, present(card)));
    expect(view.text).toBe(
      "Mods on this server (5):\nCreate 0.5.1.f — items: 4\nFlywheel 0.6.10\n… and 3 more",
    );
    // a library mod (no items) gets no button
    expect(view.buttons.map((button) => button.label)).toEqual(["Items of Create"]);
    expect(JSON.parse(view.buttons[0]?.args[0] ?? "null")).toEqual({ mod: "create" });
    const mod = harness.render(
      AgentResult.success(
        undefined,
        present(
          MOD_CARD.card({
            id: "create",
            name: "Create",
            version: "0.5.1.f",
            loader: "Forge",
            items: 20,
            names: [{ id: "create:andesite_alloy", name: "安山合金" }],
          }),
        ),
      ),
      "zh_cn",
    );
    expect(mod.text).toBe("Create 0.5.1.f（create · Forge）\n物品（20 种）：安山合金……还有 19 种");
    expect(mod.buttons.map((button) => [button.label, button.action])).toEqual([
      ["查询：安山合金", "system:item_query"],
    ]);
  });
});
