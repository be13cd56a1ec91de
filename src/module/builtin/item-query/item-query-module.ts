import { z } from "zod";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { ChoiceLabel } from "../../../agent/routing/suggestions.js";
import type { AnyTool, Tool } from "../../../agent/tool/tool.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import type { ItemSourcesInfo } from "../../../game/data/item-sources.js";
import { ItemTextIndex } from "../../../game/tools/item-text-index.js";
import {
  ITEM_LOOKUP,
  ITEM_SOURCES_TOOL,
  type ItemLookupOutput,
  type ItemView,
} from "../../../game/tools/item-tools.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { ordersToAct } from "../core/own-read.js";
import { ITEM_CARD, ITEM_NOT_FOUND_CARD, ITEM_QUERY_ACTION_ID, type ItemCardData } from "./item-cards.js";
import { itemSuggestions } from "./item-suggestions.js";
import { recipeStation } from "./recipe-station.js";

/** The recipe type of a crafting grid, as minecraft-data's recipes (which carry none) are made. */
const GRID = "minecraft:crafting_shaped";

/** What to look up: an item id or an item name (en_us or zh_cn), or a sentence naming one. */
export interface ItemQueryInput {
  readonly query: string;
}
export const ITEM_QUERY_ACTION = ActionType.of<ItemQueryInput>(
  ITEM_QUERY_ACTION_ID,
  codec(z.object({ query: z.string().trim().min(1).max(256) })),
);

/** How players ask about one item: questions, imperatives, colloquial forms, names and ids (item → `<item>`). */
const ITEM_QUERY_SAMPLES = {
  zh: [
    "查询物品 minecraft:diamond",
    "钻石怎么获得",
    "铁锭的合成配方是什么",
    "哪里能弄到火药",
    "工作台怎么做",
    "怎么合成火把",
    "金苹果的配方",
    "红石粉从哪来",
    "末影珍珠去哪刷",
    "什么怪会掉烈焰棒",
    "下界合金锭要怎么制作",
    "查一下熔炉",
    "绿宝石有什么用",
    "怎样才能得到鞘翅",
    "史莱姆球怎么搞到",
    "铜锭如何获取",
    "书架的合成表",
    "介绍一下三叉戟",
    "钻石在哪里挖",
    "在哪能找到紫水晶碎片",
    "怎么弄到附魔金苹果",
    "用金锭可以合成哪些物品",
    "金锭能用来做什么",
    "皮革可以用来合成什么",
  ],
  en: [
    "Look up item minecraft:diamond",
    "how do I get diamonds",
    "what is the recipe for an iron ingot",
    "how to craft a crafting table",
    "where can I find ender pearls",
    "what drops blaze rods",
    "recipe for golden apple",
    "how do you make torches",
    "where does redstone come from",
    "tell me about the elytra",
    "how to obtain netherite ingots",
    "item info for emerald",
    "which mob drops gunpowder",
    "crafting recipe of a furnace",
    "show me how to make a shield",
    "how can i get slimeballs",
    "what is an observer used for",
    "which items are crafted from gold ingots",
    "which recipes use string",
  ],
} as const;

/** Logs and stems (not stripped ones, which an axe makes): items that grow in the world as trees. */
const TREE_PARTS = /^minecraft:(?!stripped_)[a-z_]+_(?:log|wood|stem|hyphae)$/u;

const LIMITS = { recipes: 4, blocks: 6, entities: 6, ingredients: 4, usedIn: 8 } as const;

export interface ItemQueryModuleOptions {
  readonly owner: Identifier;
  readonly catalog: ItemCatalog;
  /** The item mentions to read texts with (one per catalog: it indexes every name); a new one without it. */
  readonly index?: ItemTextIndex;
  readonly tools: {
    readonly lookup: Tool<{ query: string }, ItemLookupOutput>;
    readonly sources: Tool<{ item: string }, ItemSourcesInfo>;
  };
}

/**
 * `system:item_query`: one item's ids, names, stack size and sources, as a card. Read-only (two read tools,
 * no write steps), so the local semantic router may run it directly for "钻石怎么获得".
 */
export class ItemQueryModule extends AbstractAgentModule<ItemQueryInput> {
  readonly #index: ItemTextIndex;

  constructor(private readonly options: ItemQueryModuleOptions) {
    const index = options.index ?? new ItemTextIndex(options.catalog);
    super({
      action: ITEM_QUERY_ACTION,
      writes: "none",
      description:
        "Look up a Minecraft item: id, English and Chinese names, stack size, crafting recipes and drops.",
      tools: [options.tools.lookup, options.tools.sources] as unknown as readonly AnyTool[],
      owner: options.owner,
      routing: ModuleRouting.defaults<ItemQueryInput>()
        .command(
          AgentCommand.argument<ItemQueryInput>(
            { spec: "<query>", suggest: itemSuggestions(options.catalog) },
            (text) => (text.trim() === "" ? undefined : { query: text.trim() }),
            "item",
            "查询物品",
            "物品",
          ),
        )
        .semantic(
          RoutingProfile.read<ItemQueryInput>(
            (text) => {
              // "remove bread from the shop", "给我一把钻石剑": orders, not questions about the item
              if (ordersToAct(text)) return undefined;
              const item = index.find(text);
              return item === undefined ? undefined : { query: item.id };
            },
            ITEM_QUERY_SAMPLES.zh,
            ITEM_QUERY_SAMPLES.en,
          ).guessing((text) => {
            // "where do I get steel": a button for Steel Ingot on the choice card, never a direct route
            if (ordersToAct(text)) return undefined;
            const item = index.guess(text);
            return item === undefined ? undefined : { query: item.id };
          }),
        )
        .choice("system.item.choice"),
    });
    this.#index = index;
  }

  /** What a selection button for this input says: "Look up: Iron Ingot" / "查询：铁锭". */
  choiceLabel(input: unknown): ChoiceLabel | undefined {
    const query = (input as Partial<ItemQueryInput> | undefined)?.query;
    const item = typeof query === "string" ? this.options.catalog.lookup(query) : undefined;
    return item === undefined
      ? undefined
      : {
          labelKey: "system.item.choice.named",
          labelArgs: [item.names.en_us, item.names.zh_cn ?? item.names.en_us],
        };
  }

  override async run(input: ItemQueryInput, context: ExecutionContext): Promise<AgentResult> {
    context.checkInput(input.query);
    const query =
      this.options.catalog.lookup(input.query) !== undefined
        ? input.query
        : (this.#index.find(input.query)?.id ?? input.query);
    const found = await context.tool(ITEM_LOOKUP, "lookup", { query });
    const chinese = context.locale.toLowerCase().startsWith("zh");
    const nameOf = (item: ItemView): string =>
      chinese ? (item.names.zh_cn ?? item.names.en_us) : item.names.en_us;
    if (found.item === undefined)
      return AgentResult.error(AgentFailure.NOT_FOUND.with(input.query)).withPresentation(
        present(
          ITEM_NOT_FOUND_CARD.card({
            query: input.query,
            suggestions: found.suggestions.map((item) => ({ id: item.id, name: nameOf(item) })),
          }),
        ),
      );
    const sources = await context.tool(ITEM_SOURCES_TOOL, "sources", { item: found.item.id });
    return AgentResult.success(
      undefined,
      present(ITEM_CARD.card(itemCardData(this.options.catalog, found.item, sources, chinese))),
    );
  }
}

/** One item's card for a reader of one language: names, recipes, drops and sources, each list bounded. */
export const itemCardData = (
  catalog: ItemCatalog,
  item: ItemView,
  sources: ItemSourcesInfo,
  chinese: boolean,
): ItemCardData => {
  const locale = chinese ? "zh_cn" : "en_us";
  const itemName = (id: string): string => {
    const info = catalog.lookup(id);
    if (info === undefined)
      return id.startsWith("#") ? id : id.includes(":") ? catalog.nameOf("block", id, locale) : id;
    return chinese ? (info.names.zh_cn ?? info.names.en_us) : info.names.en_us;
  };
  const modName = catalog.lookup(item.id)?.mod?.name;
  // a placed block that simply drops itself again ("Oak Planks: 1 (100%)") is no source of the item
  const drops = sources.blocks.filter(
    (drop) => !(drop.block === item.id && !drop.silkTouch && (drop.condition ?? "none") === "none"),
  );
  const entityName = (id: string): string => catalog.nameOf("entity", id, chinese ? "zh_cn" : "en_us");
  const shown = sources.recipes.slice(0, LIMITS.recipes);
  // minecraft-data's grids have no type: beside a furnace or a machine recipe they say they are crafted
  const mixed = shown.some((recipe) => recipe.type !== undefined);
  const recipes = shown.map((recipe) => {
    const station = recipeStation(recipe.type ?? (mixed ? GRID : undefined), catalog.content, locale);
    return {
      resultCount: recipe.resultCount,
      ingredients: recipe.ingredients.map((ingredient) => {
        const options = ingredient.options ?? [];
        // a tag stands for its items: one item is named as itself, several as "any of"
        const id = options.length === 1 ? options[0]! : ingredient.item;
        const name = options.length >= 1 ? itemName(options[0]!) : itemName(ingredient.item);
        return {
          id,
          name,
          count: ingredient.count,
          ...(options.length > 1 ? { options: options.slice(0, 4).map(itemName) } : {}),
        };
      }),
      ...(station === undefined ? {} : { station }),
    };
  });
  const ingredients = new Map<string, string>();
  for (const recipe of recipes)
    for (const ingredient of recipe.ingredients)
      if (
        !ingredient.id.startsWith("#") &&
        ingredient.id !== item.id &&
        ingredients.size < LIMITS.ingredients
      )
        ingredients.set(ingredient.id, ingredient.name);
  const usedIn = sources.usedIn ?? [];
  const usedInTotal = sources.usedInTotal ?? usedIn.length;
  return {
    id: item.id,
    en_us: item.names.en_us,
    ...(item.names.zh_cn === undefined ? {} : { zh_cn: item.names.zh_cn }),
    stackSize: item.stackSize,
    ...(modName === undefined ? {} : { mod: modName }),
    recipes,
    blocks: drops.slice(0, LIMITS.blocks).map((drop) => ({
      id: drop.block,
      name: itemName(drop.block),
      min: drop.min,
      max: drop.max,
      chance: drop.chance,
      silkTouch: drop.silkTouch,
      condition: drop.condition,
      fortune: drop.fortune,
    })),
    entities: sources.entities.slice(0, LIMITS.entities).map((drop) => ({
      id: drop.entity,
      name: entityName(drop.entity),
      min: drop.min,
      max: drop.max,
      chance: drop.chance,
      playerKill: drop.playerKill,
      looting: drop.looting,
    })),
    more: {
      recipes: Math.max(0, sources.recipes.length - LIMITS.recipes),
      blocks: Math.max(0, drops.length - LIMITS.blocks),
      entities: Math.max(0, sources.entities.length - LIMITS.entities),
    },
    ingredients: [...ingredients].map(([id, name]) => ({ id, name })),
    ...(usedIn.length === 0
      ? {}
      : {
          usedIn: usedIn.slice(0, LIMITS.usedIn).map((id) => ({ id, name: itemName(id) })),
          usedInMore: Math.max(0, usedInTotal - LIMITS.usedIn),
        }),
    ...(TREE_PARTS.test(item.id) ? { trees: true } : {}),
  };
};
