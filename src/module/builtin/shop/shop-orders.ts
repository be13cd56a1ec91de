import { z } from "zod";
import { DataStorage, ModuleStorage } from "../../../agent/storage/module-storage.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";

/**
 * PAID: charged, the items are owed. DELIVERED: in the player's saved inventory. REFUNDED: could not be delivered,
 * the price went back in the same transaction. REJECTED: refused before any charge (balance, limit, stock).
 * UNCONFIRMED: a give was interrupted; an admin resolves it (`/system deliveries`), it is never given again by itself.
 */
export const ORDER_STATES = ["PAID", "DELIVERED", "REFUNDED", "REJECTED", "UNCONFIRMED"] as const;
export type OrderState = (typeof ORDER_STATES)[number];

const orderSchema = z.object({
  entry: z.string(),
  item: z.string(),
  count: z.number().int().positive(),
  /** Units bought (count = quantity × the entry's pack size); absent in orders of earlier builds. */
  quantity: z.number().int().positive().optional(),
  unitPrice: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  state: z.enum(ORDER_STATES),
  /** Why a REJECTED or REFUNDED order was: a failure code (decoded with AgentFailure.fromCode). */
  reason: z.string().optional(),
  /** The local day the order counts against the daily limit. */
  day: z.string(),
  at: z.number(),
  /** The delivery attempt (a new event per attempt when the player was offline at the give). */
  attempt: z.number().int().nonnegative().default(0),
});
export type ShopOrder = z.infer<typeof orderSchema>;

const ordersSchema = z.object({
  orders: z.record(z.string(), orderSchema),
  /** Day → entry id → items bought that day (for per-player daily limits); recent days only. */
  bought: z.record(z.string(), z.record(z.string(), z.number().int().nonnegative())).default({}),
});
export type ShopOrdersData = z.infer<typeof ordersSchema>;

const MAX_ORDERS = 200;
const DAYS_KEPT = 3;

/** A player's shop orders and daily counts. Mutators mark dirty only on a real change. */
export class ShopOrders extends DataStorage<ShopOrdersData> {
  readonly #orders: Map<string, ShopOrder>;
  #bought: Record<string, Record<string, number>>;

  constructor(data?: ShopOrdersData) {
    super();
    this.#orders = new Map(Object.entries(structuredClone(data?.orders ?? {})));
    this.#bought = structuredClone(data?.bought ?? {});
  }

  order(id: string): ShopOrder | undefined {
    const order = this.#orders.get(id);
    return order === undefined ? undefined : structuredClone(order);
  }

  /** Orders newest first. */
  list(): { readonly id: string; readonly order: ShopOrder }[] {
    return [...this.#orders]
      .map(([id, order]) => ({ id, order: structuredClone(order) }))
      .sort((left, right) => right.order.at - left.order.at);
  }

  bought(day: string, entry: string): number {
    return this.#bought[day]?.[entry] ?? 0;
  }

  /** Records a new order (PAID or REJECTED); false when the id exists. PAID counts against the daily limit. */
  place(id: string, order: ShopOrder): boolean {
    if (this.#orders.has(id)) return false;
    this.#orders.set(id, structuredClone(order));
    if (order.state === "PAID") {
      const day = this.#bought[order.day] ?? {};
      day[order.entry] = (day[order.entry] ?? 0) + order.count;
      this.#bought[order.day] = day;
      for (const old of Object.keys(this.#bought).sort().slice(0, -DAYS_KEPT)) delete this.#bought[old];
    }
    this.#evict();
    this.markDirty();
    return true;
  }

  /** Moves a PAID or UNCONFIRMED order on; never out of a final state (DELIVERED, REFUNDED, REJECTED). */
  settle(id: string, state: "DELIVERED" | "REFUNDED" | "UNCONFIRMED", reason?: string): boolean {
    const order = this.#orders.get(id);
    if (order === undefined || order.state === state) return false;
    if (order.state !== "PAID" && order.state !== "UNCONFIRMED") return false;
    order.state = state;
    if (reason !== undefined) order.reason = reason;
    if (state === "REFUNDED") {
      const day = this.#bought[order.day];
      if (day?.[order.entry] !== undefined)
        day[order.entry] = Math.max(0, (day[order.entry] ?? 0) - order.count);
    }
    this.markDirty();
    return true;
  }

  /** The next delivery attempt of a PAID order (the last one found the player offline). */
  nextAttempt(id: string): number | undefined {
    const order = this.#orders.get(id);
    if (order?.state !== "PAID") return undefined;
    order.attempt++;
    this.markDirty();
    return order.attempt;
  }

  /** Keeps the newest orders, never one still owed (PAID, UNCONFIRMED). */
  #evict(): void {
    if (this.#orders.size <= MAX_ORDERS) return;
    const final = [...this.#orders]
      .filter(([, order]) => order.state !== "PAID" && order.state !== "UNCONFIRMED")
      .sort((left, right) => left[1].at - right[1].at);
    for (const [id] of final.slice(0, this.#orders.size - MAX_ORDERS)) this.#orders.delete(id);
  }

  toData(): ShopOrdersData {
    return {
      orders: Object.fromEntries(structuredClone([...this.#orders])),
      bought: structuredClone(this.#bought),
    };
  }
}

/** The orders storage of a shop feature (owner = its data-pack entry id). */
export const shopOrdersStorage = (owner: Identifier): ModuleStorage<ShopOrdersData, ShopOrders> =>
  ModuleStorage.of({
    owner,
    type: "shop_orders",
    codecId: Identifier.parse("system:shop_orders_v1"),
    codec: codec(ordersSchema),
    factory: (data) => new ShopOrders(data),
  });
