import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";
import { ORDER_STATES } from "./shop-orders.js";

export const SHOP_QUOTE_ACTION_ID = "system:shop_quote";
export const SHOP_CONFIRM_ACTION_ID = "system:shop_confirm";
export const SHOP_CANCEL_ACTION_ID = "system:shop_cancel";

const BUTTONS = 8;
const n = (value: number): Text => literal(String(value));
/** An order's short reference as players see it (the start of its quote id). */
const short = (order: string): Text => literal(order.replace(/^shop\//, "").slice(0, 8));

const failureSchema = z.object({ key: z.string(), args: z.array(z.string()).max(4) });
const failureText = (failure: z.infer<typeof failureSchema>): Text =>
  translatable(failure.key, ...failure.args.map((arg) => literal(arg)));

const listSchema = z.object({
  balance: z.number().int(),
  entries: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        count: z.number().int(),
        price: z.number().int(),
        stock: z.number().int().optional(),
        limit: z.number().int().optional(),
      }),
    )
    .max(200),
});

/** `system:shop`: every entry with its price, a buy button per entry (a quote for one). */
export const SHOP_LIST_CARD = CardType.of<z.infer<typeof listSchema>>(
  "system:shop",
  codec(listSchema),
  (data) => {
    if (data.entries.length === 0) return CardBuilder.of("system.shop.empty");
    const lines = data.entries.map((entry) =>
      translatable(
        "system.shop.line",
        literal(entry.id),
        literal(entry.name),
        entry.count,
        entry.price,
        entry.stock === undefined ? literal("") : translatable("system.shop.stock", entry.stock),
        entry.limit === undefined ? literal("") : translatable("system.shop.limit", entry.limit),
      ),
    );
    const builder = CardBuilder.of("system.shop.list", joinLines(lines), n(data.balance));
    for (const entry of data.entries.slice(0, BUTTONS))
      builder.labelledButton({
        labelKey: "system.shop.button.buy",
        labelArgs: [entry.name],
        hoverKey: "system.shop.button.buy.hover",
        hoverArgs: [entry.name, String(entry.count), String(entry.price)],
        action: SHOP_QUOTE_ACTION_ID,
        args: [JSON.stringify({ item: entry.id, count: 1 })],
      });
    return builder;
  },
);

const quoteSchema = z.object({
  quote: z.string().optional(),
  entry: z.string(),
  name: z.string(),
  count: z.number().int(),
  items: z.number().int(),
  unit: z.number().int(),
  total: z.number().int(),
  balance: z.number().int(),
  /** Why it cannot be bought (the price is shown anyway). */
  rejection: failureSchema.optional(),
});
export type ShopQuoteData = z.infer<typeof quoteSchema>;

/** `system:shop_quote`: item, count, unit and total price, balance after; Confirm / Cancel unless rejected. */
export const SHOP_QUOTE_CARD = CardType.of<ShopQuoteData>("system:shop_quote", codec(quoteSchema), (data) => {
  const builder = CardBuilder.of(
    data.rejection === undefined ? "system.shop.quote" : "system.shop.quote_rejected",
    literal(data.name),
    n(data.items),
    n(data.unit),
    n(data.total),
    n(data.balance),
    n(data.balance - data.total),
    data.rejection === undefined ? literal("") : failureText(data.rejection),
  );
  if (data.rejection === undefined && data.quote !== undefined) {
    builder.labelledButton({
      labelKey: "system.shop.button.confirm",
      labelArgs: [String(data.total)],
      hoverKey: "system.shop.button.confirm.hover",
      hoverArgs: [data.name, String(data.items), String(data.total)],
      action: SHOP_CONFIRM_ACTION_ID,
      args: [JSON.stringify({ quote: data.quote })],
    });
    builder.labelledButton({
      labelKey: "system.shop.button.cancel",
      hoverKey: "system.shop.button.cancel.hover",
      action: SHOP_CANCEL_ACTION_ID,
      args: [JSON.stringify({ quote: data.quote })],
    });
  }
  return builder;
});

const orderSchema = z.object({
  order: z.string(),
  name: z.string(),
  items: z.number().int(),
  total: z.number().int(),
  /** placed: confirmed, paying and delivering; the others are the order's state. */
  status: z.enum(["placed", "cancelled", ...ORDER_STATES]),
  reason: failureSchema.optional(),
  balance: z.number().int().optional(),
});
export type ShopOrderData = z.infer<typeof orderSchema>;

/** `system:shop_order`: one order's outcome (confirmed, delivered, refunded, rejected, unconfirmed). */
export const SHOP_ORDER_CARD = CardType.of<ShopOrderData>("system:shop_order", codec(orderSchema), (data) => {
  const builder = CardBuilder.of(
    `system.shop.order.${data.status.toLowerCase()}`,
    short(data.order),
    literal(data.name),
    n(data.items),
    n(data.total),
    data.reason === undefined ? literal("") : failureText(data.reason),
    data.balance === undefined ? literal("") : translatable("system.shop.balance_now", data.balance),
  );
  if (data.status === "DELIVERED")
    builder.withSpeech(translatable("system.shop.order.speech", literal(data.name)));
  return builder;
});

const ordersSchema = z.object({
  balance: z.number().int(),
  orders: z
    .array(
      z.object({
        order: z.string(),
        name: z.string(),
        items: z.number().int(),
        total: z.number().int(),
        state: z.enum(ORDER_STATES),
      }),
    )
    .max(20),
});

/** `system:shop_orders`: the player's latest orders with their states. */
export const SHOP_ORDERS_CARD = CardType.of<z.infer<typeof ordersSchema>>(
  "system:shop_orders",
  codec(ordersSchema),
  (data) => {
    if (data.orders.length === 0) return CardBuilder.of("system.shop.orders.none", n(data.balance));
    const lines = data.orders.map((order) =>
      translatable(
        "system.shop.orders.line",
        short(order.order),
        literal(order.name),
        order.items,
        order.total,
        translatable(`system.shop.state.${order.state.toLowerCase()}`),
      ),
    );
    return CardBuilder.of("system.shop.orders", joinLines(lines), n(data.balance));
  },
);

const adminSchema = z.object({
  result: z.enum(["added", "removed", "priced", "unknown", "invalid_file"]),
  entry: z.string(),
  detail: z.string().default(""),
});

/** `system:shop_admin`: what an admin's catalog change did. */
export const SHOP_ADMIN_CARD = CardType.of<z.infer<typeof adminSchema>>(
  "system:shop_admin",
  codec(adminSchema),
  (data) => CardBuilder.of(`system.shop.admin.${data.result}`, literal(data.entry), literal(data.detail)),
);
