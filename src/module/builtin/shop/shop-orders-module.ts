import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import { codec } from "../../../util/codec.js";
import { ownReadProfile, type ReadWords } from "../core/own-read.js";
import { SHOP_ORDERS_CARD } from "./shop-cards.js";
import type { ShopModuleOptions } from "./shop-modules.js";

/** How players ask about their own shop orders (a read: cancelling, paying or confirming one is not). */
const ORDERS_SAMPLES = {
  zh: [
    "我的订单",
    "我买的东西到了吗",
    "查看订单",
    "购物记录",
    "订单记录",
    "我最近的订单",
    "我的订单发货了吗",
    "看看我的订单",
    "我买的东西什么时候到",
    "订单查询",
    "我下过哪些订单",
    "我的购买历史",
    "买的东西到哪了",
    "我在商店买了什么",
    "订单进度",
    "我的货到了没有",
    "订单详情",
    "我买的东西还没到",
    "发货了没",
    "最近买了什么",
    "购买的物品到了没",
    "交易记录",
    "待发货的订单",
    "订单怎么样了",
  ],
  en: [
    "my orders",
    "did my purchase arrive",
    "show my orders",
    "order history",
    "my recent orders",
    "where are the items I bought",
    "what have I ordered",
    "is my purchase delivered yet",
    "view orders",
    "my shop orders",
    "what did I order from the shop",
    "status of my purchase",
    "pending orders",
    "purchases I made",
    "when will my order arrive",
    "list of my purchases",
    "my order status",
    "orders I placed",
    "where is the stuff I bought",
    "have my items arrived",
    "what I bought",
    "recent purchases",
    "delivery of my order",
    "order list",
  ],
} as const;

/**
 * Orders and purchases are the subject; cancelling, refunding, paying for or confirming one is a change, never a
 * direct read of the orders.
 */
const ORDER_WORDS: ReadWords = {
  topic:
    /订单|买|购|下的单|发货|到货|送到|送达|货|收到|\borders?\b|\bordered\b|\bpurchase[sd]?\b|\bbought\b|\bbuy\b|\bdeliver|\barriv/,
  changes:
    /^\s*(?:please\s+|pls\s+)?(?:buy|purchase|get me|order\s+(?:a|an|some|me|\d))\b|\b(?:i|i'd|id|we)\s+(?:want|wanna|would like|like|need)\s+to\s+(?:buy|purchase|order)|(?:我要|我想|帮我|给我)\s*(?:买|购买)|\b(?:cancel|cancels|refund|return|pay|confirm|place|redo|delete)\b|取消|退款|退货|退掉|退钱|付款|支付|确认|撤销|删除|下单/,
};

type OrdersInput = Record<string, never>;
const SHOP_ORDERS_ACTION = ActionType.of<OrdersInput>(
  "system:shop_orders",
  codec(z.object({}).strict() as z.ZodType<OrdersInput>),
);

/** `/system orders` (订单): the player's latest orders and their states, and the balance. */
export class ShopOrdersModule extends AbstractAgentModule<OrdersInput> {
  constructor(private readonly options: ShopModuleOptions) {
    super({
      action: SHOP_ORDERS_ACTION,
      writes: "none",
      description: "The player's shop orders and their states.",
      routing: ModuleRouting.defaults<OrdersInput>()
        .command(AgentCommand.literal<OrdersInput>({}, "orders", "订单"))
        .semantic(ownReadProfile(ORDER_WORDS, ORDERS_SAMPLES)),
    });
  }

  override async run(_input: OrdersInput, context: ExecutionContext): Promise<AgentResult> {
    await this.options.commerce.ready();
    const { commerce, itemName } = this.options;
    const orders = await commerce.options.store.read(context.playerId, (data) =>
      ModuleData.get(data, commerce.options.orders).list().slice(0, 20),
    );
    const balance = await commerce.balance(context.playerId);
    return AgentResult.success(
      undefined,
      present(
        SHOP_ORDERS_CARD.card({
          balance,
          orders: orders.map(({ id, order }) => ({
            order: id,
            name: itemName(order.item, context.locale),
            items: order.count,
            total: order.total,
            state: order.state,
          })),
        }),
      ),
    );
  }
}
