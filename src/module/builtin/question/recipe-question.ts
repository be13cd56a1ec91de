import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import { ItemTextIndex } from "../../../game/tools/item-text-index.js";
import { ITEM_LOOKUP, ITEM_SOURCES_TOOL } from "../../../game/tools/item-tools.js";
import { ITEM_CARD } from "../item-query/item-cards.js";
import { itemCardData } from "../item-query/item-query-module.js";

const ENGLISH =
  /^(?:how\s+(?:do|can|could|would|should|are)\s+(?:i|you|we|one|they)\s+|how\s+to\s+|what\s+do\s+i\s+need\s+to\s+)(?:make|craft|build|create)\s+(?:a|an|the|some|more)?\s*(.+)$/iu;
const CHINESE_BEFORE =
  /^(?:我)?(?:要|该|想)?(?:怎么|怎样|如何|咋)(?:才能)?(?:做|合成|制作|造|制造)(?:出)?(?:一个|一把|一块|一些|个|把)?(.+)$/u;
const CHINESE_AFTER =
  /^(.+?)(?:要|该|应该)?(?:怎么|怎样|如何|咋)(?:做|合成|制作|造|制造)(?:的|呢|啊|出来)?$/u;

/** What a "how do I make X" question asks to make ("how do I make a diamond pickaxe", "怎么做钻石镐"); or undefined. */
export const thingToMake = (question: string): string | undefined => {
  const text = question
    .normalize("NFKC")
    .trim()
    .replace(/[?？。.!！]+$/u, "");
  const match = ENGLISH.exec(text) ?? CHINESE_BEFORE.exec(text) ?? CHINESE_AFTER.exec(text);
  const thing = match?.[1]?.trim();
  return thing === undefined || thing === "" ? undefined : thing;
};

/**
 * "How do I make X" about an item the server knows is answered with that item's card (its recipes first), read
 * with the item feature's read-only tools: undefined (the question goes on to the knowledge base) when the
 * question asks for no thing to make, names no known item, or the item feature is not enabled for the player.
 */
export class RecipeQuestions {
  readonly #index: ItemTextIndex;

  constructor(private readonly catalog: ItemCatalog) {
    this.#index = new ItemTextIndex(catalog);
  }

  async answer(question: string, context: ExecutionContext): Promise<AgentResult | undefined> {
    const thing = thingToMake(question);
    if (thing === undefined || !context.canUse(ITEM_LOOKUP) || !context.canUse(ITEM_SOURCES_TOOL))
      return undefined;
    const item = this.catalog.lookup(thing) ?? this.#index.find(thing);
    if (item === undefined) return undefined;
    const found = await context.tool(ITEM_LOOKUP, "item/lookup", { query: item.id });
    if (found.item === undefined) return undefined;
    const sources = await context.tool(ITEM_SOURCES_TOOL, "item/sources", { item: found.item.id });
    const chinese = context.locale.toLowerCase().startsWith("zh");
    return AgentResult.success(
      undefined,
      present(ITEM_CARD.card(itemCardData(this.catalog, found.item, sources, chinese))),
    );
  }
}
