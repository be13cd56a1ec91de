import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GameHarness } from "../../../../test/support/game-harness.js";
import { contentStub } from "../../../../test/support/server-content-stub.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { HybridRouter } from "../../../agent/routing/hybrid-router.js";
import { DEFAULT_SEMANTIC_SETTINGS } from "../../../agent/routing/semantic-config.js";
import type { ServerContent } from "../../../game/data/server-content.js";
import { MOD_CARD, MODS_CARD } from "./mods-cards.js";
import { MODS_ACTION } from "./mods-module.js";

/** A pack of `count` mods, mod N adding `itemsOf(N)` items (N by default). */
const pack = (count: number, itemsOf = (mod: number) => mod): ServerContent => {
  const mods = Array.from({ length: count }, (_, index) => ({
    id: `mod${index + 1}`,
    name: `Mod ${String(index + 1).padStart(2, "0")}`,
    version: "1.0",
    loader: "neoforge",
  }));
  const items = mods.flatMap((mod, index) =>
    Array.from({ length: itemsOf(index + 1) }, (_, item) => ({
      id: `${mod.id}:thing_${item}`,
      mod: mod.id,
      modName: mod.name,
      names: { en_us: `${mod.name} Thing ${item}` },
    })),
  );
  return contentStub({ items: () => items, mods: () => mods });
};

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

  it("pages a big pack's list, the mods with the most items first", async () => {
    // the assembled server's catalog, as content loading hands the pack over at start
    harness.parts.infrastructure.catalog.useContent(pack(20));
    const first = harness.render(await harness.command(STEVE, "/system mods"));
    const lines = first.text.split("\n");
    expect(lines[0]).toBe("Mods on this server (20), page 1 of 2:");
    expect(lines.slice(1, 3)).toEqual(["Mod 20 1.0 — items: 20", "Mod 19 1.0 — items: 19"]);
    expect(lines).toHaveLength(16);
    const next = first.buttons.at(-1);
    expect(next?.label).toBe("More mods");
    const second = await harness.run(MODS_ACTION.action(JSON.parse(next?.args[0] ?? "null")), STEVE);
    expect(harness.render(second).text).toMatch(
      /^Mods on this server \(20\), page 2 of 2:\nMod 05 1\.0 — items: 5\n/,
    );
    expect(harness.render(second).buttons.map((button) => button.label)).not.toContain("More mods");
    // a page past the end shows the last one
    const past = await harness.run(MODS_ACTION.action({ page: 9 }), STEVE);
    expect(harness.render(past).text).toMatch(/page 2 of 2/);
    const one = harness.render(await harness.command(STEVE, "/system mods mod 07"));
    expect(one.text).toBe(
      "Mod 07 1.0 (mod7 · NeoForge)\nItems (7): Mod 07 Thing 0, Mod 07 Thing 1, Mod 07 Thing 2, Mod 07 Thing 3, Mod 07 Thing 4, Mod 07 Thing 5, Mod 07 Thing 6",
    );
  });

  it("shows a big pack's biggest mods first, wherever their names sort", async () => {
    // 320 mods: the last 20 by name ("Mod 80" to "Mod 99", after "Mod 320") add 3 items each, the others 1
    harness.parts.infrastructure.catalog.useContent(pack(320, (mod) => (mod >= 80 && mod <= 99 ? 3 : 1)));
    const first = harness.render(await harness.command(STEVE, "/system mods"));
    expect(first.text.split("\n").slice(0, 3)).toEqual([
      "Mods on this server (320), page 1 of 22:",
      "Mod 80 1.0 — items: 3",
      "Mod 81 1.0 — items: 3",
    ]);
    const last = harness.render(await harness.run(MODS_ACTION.action({ page: 22 }), STEVE));
    expect(last.text).toMatch(/^Mods on this server \(320\), page 22 of 22:\n/);
    expect(last.text.split("\n")).toHaveLength(1 + 5);
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
    for (const text of [
      "who are the mods",
      "are mods allowed here",
      "which mod adds diamonds",
      "how do I install the mods",
      "how do mods work",
      "which mods are client side",
      "怎么安装模组",
      "为什么模组不显示",
    ])
      expect((await route(text)).action?.type.id.toString(), text).not.toBe("system:mods");
  });
});

describe("the mods cards", () => {
  it("list each mod with its version and items, a page at a time, with buttons to a mod's items and the next page", () => {
    const card = MODS_CARD.card({
      mods: [
        { id: "create", name: "Create", version: "0.5.1.f", items: 4 },
        { id: "flywheel", name: "Flywheel", version: "0.6.10", items: 0 },
      ],
      page: 1,
      pages: 2,
      total: 17,
    });
    const view = harness.render(AgentResult.success(undefined, present(card)));
    expect(view.text).toBe(
      "Mods on this server (17), page 1 of 2:\nCreate 0.5.1.f — items: 4\nFlywheel 0.6.10",
    );
    // a library mod (no items) gets no button
    expect(view.buttons.map((button) => button.label)).toEqual(["Items of Create", "More mods"]);
    expect(view.buttons.map((button) => JSON.parse(button.args[0] ?? "null"))).toEqual([
      { mod: "create" },
      { page: 2 },
    ]);
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
