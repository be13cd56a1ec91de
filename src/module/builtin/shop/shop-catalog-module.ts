import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { codec } from "../../../util/codec.js";
import { ownReadProfile, type ReadWords } from "../core/own-read.js";
import { SHOP_LIST_CARD } from "./shop-cards.js";
import type { ShopModuleOptions } from "./shop-modules.js";

/** How players ask what the shop sells (a read: buying and changing the shop are not). */
const CATALOG_SAMPLES = {
  zh: [
    "商店里有什么",
    "打开商店",
    "商店卖什么",
    "看看商店",
    "商店清单",
    "商店有什么可以买的",
    "商品价格",
    "查看商店商品",
    "商店里的东西多少积分",
    "我能用积分买什么",
    "积分商店",
    "有什么东西可以兑换",
    "商店目录",
    "商店今天卖啥",
    "逛逛商店",
    "兑换列表",
    "商店货架",
    "商店里都有哪些物品",
    "商店价格",
    "商城",
    "商店东西贵不贵",
    "能兑换哪些东西",
    "商店出售的物品",
    "商店在卖什么",
  ],
  en: [
    "what does the shop sell",
    "open the shop",
    "show me the shop",
    "what can I buy",
    "shop catalog",
    "browse the shop",
    "what is on sale",
    "items in the shop",
    "shop item prices",
    "what can I spend my points on",
    "list the shop items",
    "what does the store have",
    "view shop",
    "show the shop entries",
    "prices in the shop",
    "points shop",
    "store",
    "shop menu",
    "what is available in the shop",
    "what can points buy",
    "how much does stuff cost in the shop",
    "things for sale",
    "what is sold here",
    "price list",
  ],
} as const;

/**
 * The shop is the subject (what one already bought is the orders'). A purchase ("buy 2 bread", "用积分买面包": the quote workflow's, confirmed with a
 * button) or a change of the shop (add, remove, price) is never a direct read of the list; asking what one can buy
 * is ("我能用积分买什么", "what can I buy with my points").
 */
const CATALOG_WORDS: ReadWords = {
  topic:
    // what one bought is the orders' ("what did i buy", "我买过什么"), not the list's
    /^(?!.*(?:\b(?:did|have) i (?:buy|order|purchase)|\bi (?:bought|ordered|purchased)\b|买过|买了|买的|购买的|我下的))(?=.*(?:商店|商城|商品|店|卖|买|兑换|换|价格|价钱|多少钱|售|\bshop|\bstores?\b|\bsale\b|\bsell|\bsold\b|\bbuy\b|\bpurchas|\bprices?\b|\bcosts?\b|\bcatalog|\bspend\b|\bmarket))/,
  changes:
    /^\s*(?:please\s+|pls\s+)?(?:buy|purchase|order|spend|get me)\b|\b(?:buy|purchase)\s+(?!(?:with|here|in|from|at|using|there|anything|something|stuff|things|today|now|for)\b)[\w']|\b(?:i|i'd|id|we)\s+(?:want|wanna|would like|like|need)\s+to\s+(?:buy|purchase)|\b(?:add|remove|delete|set|change|raise|lower|restock)\b|(?:买|购买)(?!什么|啥|些|哪|的|得|到什么|吗|呢|$)|上架|下架|添加|删除|改成|改为|设为|调成|涨价|降价/,
};

type CatalogInput = Record<string, never>;
export const SHOP_CATALOG_ACTION = ActionType.of<CatalogInput>(
  "system:shop_catalog",
  codec(z.object({}).strict() as z.ZodType<CatalogInput>),
);

/** The shop's entries with prices, stock and daily limits, and the player's balance, as the list card. */
export const shopList = async (
  options: ShopModuleOptions,
  context: ExecutionContext,
): Promise<AgentResult> => {
  await options.commerce.ready();
  const { commerce, itemName } = options;
  const balance = await commerce.balance(context.playerId);
  const entries = commerce.catalog.entries().map((entry) => {
    const stock = commerce.options.stock.available(entry);
    return {
      id: entry.id,
      name: itemName(entry.item, context.locale),
      count: entry.count,
      price: entry.price,
      ...(stock === undefined ? {} : { stock }),
      ...(entry.daily_limit === undefined ? {} : { limit: entry.daily_limit }),
    };
  });
  return AgentResult.success(undefined, present(SHOP_LIST_CARD.card({ balance, entries })));
};

/**
 * `system:shop_catalog`: what the shop sells, as plain language reaches it ("what does the shop sell",
 * "商店里有什么"), directly without a model. The same list as `/system shop`, whose module also holds the admin
 * changes and so may not be routed directly.
 */
export class ShopCatalogModule extends AbstractAgentModule<CatalogInput> {
  constructor(private readonly options: ShopModuleOptions) {
    super({
      action: SHOP_CATALOG_ACTION,
      writes: "none",
      description: "What the shop sells: every entry with its price in points, and the player's balance.",
      routing: ModuleRouting.defaults<CatalogInput>().semantic(
        ownReadProfile(CATALOG_WORDS, CATALOG_SAMPLES),
      ),
    });
  }

  override async run(_input: CatalogInput, context: ExecutionContext): Promise<AgentResult> {
    return shopList(this.options, context);
  }
}
