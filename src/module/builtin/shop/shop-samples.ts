import type { ReadWords } from "../core/own-read.js";

/** How players ask about their own shop orders (a read: cancelling, paying or confirming one is not). */
export const ORDERS_SAMPLES = {
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
    "where is my stuff",
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
export const ORDER_WORDS: ReadWords = {
  topic:
    /订单|买|购|下的单|发货|到货|送到|送达|货|收到|\borders?\b|\bordered\b|\bpurchase[sd]?\b|\bbought\b|\bbuy\b|\bdeliver|\barriv|\bstuff\b/,
  changes:
    /^\s*(?:please\s+|pls\s+)?(?:buy|purchase|get me|order\s+(?:a|an|some|me|\d))\b|\b(?:i|i'd|id|we)\s+(?:want|wanna|would like|like|need)\s+to\s+(?:buy|purchase|order)|(?:我要|我想|帮我|给我)\s*(?:买|购买)|\b(?:cancel|cancels|refund|return|pay|confirm|place|redo|delete)\b|取消|退款|退货|退掉|退钱|付款|支付|确认|撤销|删除|下单/,
};
