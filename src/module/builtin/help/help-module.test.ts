import { afterEach, describe, expect, it } from "vitest";
import { GameHarness } from "../../../../test/support/game-harness.js";
import { Identifier } from "../../../util/identifier.js";
import { Languages } from "../../../util/language.js";
import { HELP_ACTION, HelpModule } from "./help-module.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const LISTED = ["system:item_query"];
let harness: GameHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const helpText = async (locale = "en_us"): Promise<string> => {
  const result = await (harness as GameHarness).command(
    STEVE,
    locale === "zh_cn" ? "帮助" : "/system help",
    locale,
  );
  expect(result.isSuccess()).toBe(true);
  // the lines a player can click are the card's buttons, each on a line of its own
  const card = (harness as GameHarness).render(result, locale);
  return [card.text, ...card.buttons.map((button) => `[${button.label}]`)].join("\n");
};

describe("system:help", () => {
  it("lists the commands and descriptions of every installed and enabled feature, in the player's language", async () => {
    harness = await GameHarness.create({
      entries: [
        { id: "system:help" },
        { id: "system:item_query" },
        { id: "system:player_query" },
        { id: "system:check_in" },
        { id: "system:points" },
      ],
    });
    const english = await helpText();
    // one line per feature, the player's own language only, no example lines (a line's button tries it)
    expect(english).toContain(
      "[/system item <query> · mods [mod] — Look up an item (names, stack size, recipes, drops and uses), or the server's mods.]",
    );
    expect(english).toContain("[/system checkin — Daily check-in");
    // a feature of two workflows is described whole
    expect(english).toContain(
      "[/system balance · earn — Your points: the balance and its latest changes, and how to earn more.]",
    );
    expect(english).toContain("/system me");
    expect(english).not.toContain("查询物品");
    expect(english).not.toContain("e.g.");
    const chinese = await helpText("zh_cn");
    expect(chinese).toContain(
      "[/system 查询物品 <query> · 模组 [mod] —— 查询物品（名称、堆叠数、配方、掉落和用途），或本服务器的模组。]",
    );
    expect(chinese).not.toContain("/system item");
    // The delivery workflow runs only as an event: never offered to players.
    expect(english).not.toContain("Deliver a daily check-in reward");
  });

  it("shows nothing of a feature that is not installed", async () => {
    harness = await GameHarness.create({
      entries: [{ id: "system:help" }, { id: "system:player_query" }],
    });
    const text = await helpText();
    expect(text).toContain("/system me");
    expect(text).not.toContain("item");
    expect(text).not.toContain("checkin");
  });

  it("shows nothing of an installed feature the player does not have enabled", async () => {
    harness = await GameHarness.create({
      entries: [{ id: "system:help" }, { id: "system:item_query" }, { id: "system:check_in" }],
    });
    await harness.disable(STEVE, "system:check_in");
    const text = await helpText();
    expect(text).toContain("/system item");
    expect(text).not.toContain("checkin");
    expect(text).not.toContain("Daily check-in");
  });

  it("falls back to the module's English description when no translation exists", async () => {
    harness = await GameHarness.create({
      entries: [{ id: "system:help" }, { id: "custom:lookup", type: "system:item_query" }],
    });
    const engine = harness.engine;
    const bare = new HelpModule({
      owner: Identifier.parse("system:help"),
      modules: () => engine.modules(),
      languages: new Languages(),
      permissionLevel: () => 0,
    });
    const entries = await bare.entries({
      playerId: STEVE,
      features: harness.features(STEVE),
      locale: "en_us",
    });
    // the core's player commands (always on) are listed too
    expect(entries.map((entry) => entry.moduleId)).toEqual(expect.arrayContaining(LISTED));
    // help does not list itself
    const lookup = entries.find((entry) => entry.moduleId === "system:item_query");
    expect(lookup?.descriptionKey).toBeUndefined();
    expect(lookup?.description).toMatch(/^Look up a Minecraft item/);
    const translated = await harness.run(HELP_ACTION.action({}), STEVE);
    const data = translated.presentation?.data as {
      entries: { moduleId: string; descriptionKey?: string }[];
    };
    expect(data.entries.find((entry) => entry.moduleId === "system:item_query")?.descriptionKey).toBe(
      "system.help.module.system.item_query",
    );
  });

  it("applies the host's availability filter (the one routing uses) as well as the features", async () => {
    harness = await GameHarness.create({
      entries: [{ id: "system:help" }, { id: "system:item_query" }],
    });
    const engine = harness.engine;
    const filtered = new HelpModule({
      owner: Identifier.parse("system:help"),
      modules: () => engine.modules(),
      languages: undefined,
      permissionLevel: () => 0,
      availability: (_playerId, moduleId) => moduleId !== "system:item_query",
    });
    const entries = await filtered.entries({
      playerId: STEVE,
      features: harness.features(STEVE),
      locale: "en_us",
    });
    const ids = entries.map((entry) => entry.moduleId);
    expect(ids).toContain("system:mode");
    expect(ids).not.toContain("system:item_query");
  });
});
