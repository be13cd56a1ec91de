import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ItemCatalog } from "../../game/data/item-catalog.js";
import { ItemTextIndex } from "../../game/tools/item-text-index.js";
import { codec } from "../../util/codec.js";
import { Languages } from "../../util/language.js";
import type { AgentResult } from "../agent-result.js";
import { AbstractAgentModule } from "../module/abstract-agent-module.js";
import { ActionType } from "../module/action-type.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import { ModuleRouting } from "../module/module-routing.js";
import { RoutingProfile } from "../module/routing-profile.js";
import { buildSuggestions, type ChoiceLabel, type ChoiceLabeller } from "./suggestions.js";

const catalog = ItemCatalog.forVersion("1.21.4");
const index = new ItemTextIndex(catalog);
const LOOKUP = ActionType.of<{ query: string }>("test:lookup", codec(z.object({ query: z.string() })));

/** A read-only item lookup; `labelled` decides whether it names the item on its button. */
class LookupModule extends AbstractAgentModule<{ query: string }> implements ChoiceLabeller {
  constructor(
    private readonly labelled: boolean,
    guessing = false,
  ) {
    const profile = RoutingProfile.read<{ query: string }>(
      (text) => {
        const item = index.find(text);
        return item === undefined ? undefined : { query: item.id };
      },
      ["钻石怎么获得"],
      ["how do I get diamonds"],
    );
    super({
      action: LOOKUP,
      description: "Look up an item.",
      routing: ModuleRouting.defaults<{ query: string }>()
        .semantic(
          guessing
            ? profile.guessing((text) => {
                const item = index.guess(text);
                return item === undefined ? undefined : { query: item.id };
              })
            : profile,
        )
        .choice("system.item.choice"),
    });
  }

  choiceLabel(input: unknown): ChoiceLabel | undefined {
    if (!this.labelled) return undefined;
    const item = catalog.lookup((input as { query: string }).query);
    return item === undefined
      ? undefined
      : { labelKey: "system.item.choice.named", labelArgs: [item.names.en_us, item.names.zh_cn ?? ""] };
  }

  override run(): Promise<AgentResult> {
    throw new Error("not run in these tests");
  }
}

const suggest = (text: string, module: AnyAgentModule) =>
  buildSuggestions({
    text,
    modules: [module],
    routingOf: (candidate) => (candidate as LookupModule).routing() as never,
    available: () => true,
    limit: 4,
  });

describe("buildSuggestions", () => {
  it("labels a button with what it does, in the reader's language", () => {
    const languages = Languages.load("resources");
    for (const [text, english, chinese] of [
      ["iron", "Look up: Iron Ingot", "查询：铁锭"],
      ["铁", "Look up: Iron Ingot", "查询：铁锭"],
      ["钻石怎么获得", "Look up: Diamond", "查询：钻石"],
    ] as const) {
      const [candidate] = suggest(text, new LookupModule(true));
      expect(candidate?.input, text).toEqual({ query: expect.any(String) });
      const label = (locale: string) =>
        languages.format(locale, candidate?.labelKey ?? "", candidate?.labelArgs ?? []);
      expect(label("en_us")).toBe(english);
      expect(label("zh_cn")).toBe(chinese);
    }
  });

  it("keeps the module's choice key when it does not label by input", () => {
    const [candidate] = suggest("iron", new LookupModule(false));
    expect(candidate).toMatchObject({
      labelKey: "system.item.choice",
      input: { query: "minecraft:iron_ingot" },
    });
  });

  it("offers nothing parsed for text that names no item", () => {
    expect(suggest("hello there", new LookupModule(true))).toEqual([]);
  });

  it("offers a profile's guess when its extractor reads nothing, and only then", () => {
    expect(suggest("where do I get copper", new LookupModule(true))).toEqual([]);
    const guessed = suggest("where do I get copper", new LookupModule(true, true));
    expect(guessed.map((candidate) => candidate.input)).toEqual([{ query: "minecraft:copper_ingot" }]);
    // the extractor's own reading comes first
    expect(suggest("how do I get diamonds", new LookupModule(true, true)).map((c) => c.input)).toEqual([
      { query: "minecraft:diamond" },
    ]);
  });
});
