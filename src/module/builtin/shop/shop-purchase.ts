import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { hadNoEffect, wasDeferred } from "../../../agent/storage/no-effect.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { Tool } from "../../../agent/tool/tool.js";
import type { EventSink } from "../../../game/context-types.js";
import { type GameEventSink, GameEventTypes } from "../../../game/game-events.js";
import { GameFailures } from "../../../game/tools/game-failures.js";
import { GIVE_ITEMS, type GiveInput, type ItemStack } from "../../../game/tools/give-items-tool.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { SHOP_ORDER_CARD, type ShopOrderData } from "./shop-cards.js";
import type { ShopEntry } from "./shop-catalog.js";
import { ShopCommerce } from "./shop-commerce.js";
import type { ShopOrder } from "./shop-orders.js";

/** The durable event type of a confirmed purchase: charge + order commit, then delivery. */
export const SHOP_PURCHASE_EVENT = "system:shop_purchase";

/** The order (and its purchase event) of a confirmed quote: one per quote, so a second click is a duplicate. */
export const shopOrderId = (quoteId: string): string => `shop/${quoteId}`;

/** The purchase event of an order's delivery attempt: the order id itself, then `<order>#<attempt>`. */
export const purchaseEventId = (orderId: string, attempt: number): string =>
  attempt === 0 ? orderId : `${orderId}#${attempt}`;

interface PurchaseInput {
  /** The order id (the first attempt's event id). */
  readonly order: string;
  readonly entry: ShopEntry;
  readonly count: number;
  readonly day: string;
  /** What it delivers (shown to admins in `/system deliveries`). */
  readonly items?: readonly ItemStack[] | undefined;
}
export const SHOP_PURCHASE_ACTION = ActionType.of<PurchaseInput>(
  "system:shop_purchase",
  codec(
    z.object({
      order: z.string().min(1).max(80),
      entry: z.object({
        id: z.string(),
        item: z.string(),
        count: z.number().int().positive(),
        price: z.number().int().nonnegative(),
        daily_limit: z.number().int().positive().optional(),
        stock: z.number().int().nonnegative().optional(),
      }),
      count: z.number().int().positive().max(640),
      day: z.string(),
      items: z
        .array(z.object({ item: z.string(), count: z.number().int().positive() }))
        .max(1)
        .optional(),
    }) as unknown as z.ZodType<PurchaseInput>,
  ),
);

/**
 * The purchase input of a recorded order (its delivery only: the order exists, so nothing is reserved or charged
 * again). Orders of earlier builds carry no quantity: the price tells it, else one pack of the whole count.
 */
const purchaseOf = (orderId: string, order: ShopOrder): PurchaseInput => {
  const quantity =
    order.quantity ??
    (order.unitPrice > 0 && order.total % order.unitPrice === 0 ? order.total / order.unitPrice : 1);
  const exact = order.count % quantity === 0;
  return {
    order: orderId,
    entry: {
      id: order.entry,
      item: order.item,
      count: exact ? order.count / quantity : order.count,
      price: exact ? order.unitPrice : order.total,
    },
    count: exact ? quantity : 1,
    day: order.day,
    items: [{ item: order.item, count: order.count }],
  };
};

/** Attempts after which a delivery stops re-queueing itself (a player who leaves again and again). */
const MAX_ATTEMPTS = 20;

/**
 * `system:shop_purchase`: the durable event of a confirmed quote (its id is the order id). Every stage is safe to
 * run again after a crash: (1) the stock reservation, under the order id; (2) the charge and the order commit in
 * ONE player-storage transaction, once per order id, REJECTED without a charge when the balance or the limit no
 * longer allows it; (3) the give, one durable write step (DONE only once the items are saved; replayed, never given
 * again); (4) a give that could not happen (no room, unknown item) refunds in one transaction; a give interrupted
 * mid-way holds the order UNCONFIRMED for an admin (`/system deliveries`), never given again by itself.
 */
export class ShopPurchaseModule extends AbstractAgentModule<PurchaseInput> {
  constructor(
    private readonly options: {
      readonly owner: Identifier;
      readonly commerce: ShopCommerce;
      readonly events: EventSink;
      readonly itemName: (item: string, locale: string) => string;
      /** Where a delivered order is reported (`system:order_delivered`) for advancement rules. */
      readonly gameEvents: GameEventSink;
    },
    giveItems: Tool<GiveInput, { given: ItemStack[] }>,
  ) {
    super({
      action: SHOP_PURCHASE_ACTION,
      writes: "state",
      description: "Charge and deliver a confirmed shop purchase.",
      tools: [giveItems],
      interactive: false,
      event: true,
      eventTypes: [SHOP_PURCHASE_EVENT],
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 4, steps: 8, writeSteps: 2 },
    });
  }

  override async run(input: PurchaseInput, context: ExecutionContext): Promise<AgentResult> {
    await this.options.commerce.ready();
    const { commerce, itemName } = this.options;
    const playerId = context.playerId;
    const orderId = input.order;
    const { store } = commerce.options;
    const stock = commerce.options.stock;
    const name = itemName(input.entry.item, context.locale);
    const items = input.count * input.entry.count;
    const card = (
      status: ShopOrderData["status"],
      reason?: AgentFailure | ReturnType<AgentFailure["with"]>,
    ) =>
      commerce.balance(playerId).then((balance) =>
        present(
          SHOP_ORDER_CARD.card({
            order: orderId,
            name,
            items,
            total: input.count * input.entry.price,
            status,
            balance,
            ...(reason === undefined
              ? {}
              : { reason: { key: reason.key, args: reason.args.map(String).slice(0, 4) } }),
          }),
        ),
      );
    let order = await store.read(playerId, (data) =>
      ModuleData.get(data, commerce.options.orders).order(orderId),
    );
    if (order === undefined) {
      const reserved = await stock.reserve(orderId, input.entry, items);
      const charged = reserved
        ? await commerce.charge(playerId, orderId, input)
        : await commerce.reject(playerId, orderId, input, AgentFailure.OUT_OF_STOCK);
      order = await store.read(playerId, (data) =>
        ModuleData.get(data, commerce.options.orders).order(orderId),
      );
      if (charged === "REJECTED" || order?.state === "REJECTED") await stock.release(orderId);
    }
    if (order === undefined) throw new AgentException(AgentFailure.MODULE_FAILED);
    // a resumed purchase whose order ended without delivery gives its stock back (idempotent)
    if (order.state === "REJECTED" || order.state === "REFUNDED") await stock.release(orderId);
    if (order.state === "REJECTED") {
      const reason = ShopCommerce.reasonOf(order.reason) ?? AgentFailure.MODULE_FAILED;
      return AgentResult.error(reason).withPresentation(await card("REJECTED", reason));
    }
    if (order.state === "DELIVERED") {
      // a process stopped between the order's DELIVERED and the stock's settle: the reservation is dropped now
      await stock.settle(orderId);
      await this.#reportDelivered(playerId, input);
    }
    if (order.state === "DELIVERED" || order.state === "REFUNDED")
      return AgentResult.success(undefined, await card(order.state));
    try {
      await context.tool(GIVE_ITEMS, "give", { items: [{ item: order.item, count: order.count }] });
    } catch (error) {
      const failure = AgentException.failure(error);
      // nothing given and nothing settled: the order waits until the world can take it
      if (wasDeferred(error)) throw error;
      if (hadNoEffect(error)) {
        if (failure.code === GameFailures.playerOffline().code) {
          await this.#requeue(playerId, orderId, input);
          throw error;
        }
        await commerce.refund(playerId, orderId, failure);
        await stock.release(orderId);
        return AgentResult.error(failure).withPresentation(await card("REFUNDED", failure));
      }
      await store.transaction(playerId, (data) =>
        ModuleData.get(data, commerce.options.orders).settle(orderId, "UNCONFIRMED"),
      );
      const unknown =
        failure.code === AgentFailure.EFFECT_UNKNOWN.code
          ? failure
          : AgentFailure.EFFECT_UNKNOWN.with(failure.code);
      return AgentResult.error(unknown).withPresentation(await card("UNCONFIRMED"));
    }
    await store.transaction(playerId, (data) =>
      ModuleData.get(data, commerce.options.orders).settle(orderId, "DELIVERED"),
    );
    await stock.settle(orderId);
    await this.#reportDelivered(playerId, input);
    return AgentResult.success(undefined, await card("DELIVERED"));
  }

  /** The delivered order as a game event; reported again when a resumed task finds it delivered (the id dedupes). */
  #reportDelivered(playerId: string, input: PurchaseInput): Promise<void> {
    return this.options.gameEvents.emit({
      type: GameEventTypes.ORDER_DELIVERED,
      playerId,
      id: `order_delivered/${input.order}`,
      data: { entry: input.entry.id, order: input.order, quantity: input.count },
    });
  }

  /** The admin found the items given: the order is DELIVERED and its stock stays sold. */
  async effectConfirmed(input: PurchaseInput, playerId: string): Promise<void> {
    await this.options.commerce.ready();
    const { store, orders } = this.options.commerce.options;
    await store.transaction(playerId, (data) =>
      ModuleData.get(data, orders).settle(input.order, "DELIVERED"),
    );
    await this.options.commerce.options.stock.settle(input.order);
    await this.#reportDelivered(playerId, input);
  }

  /**
   * At join: every order still PAID (charged, not delivered) is offered again under its current attempt's event
   * id. A no-op while that event exists, whatever its state; an attempt a crash recorded but never queued (the
   * player left mid-delivery) is queued now, so nothing charged stays owed and nothing is given twice.
   */
  async repair(playerId: string): Promise<void> {
    const { commerce, events, owner } = this.options;
    await commerce.ready();
    const owed = await commerce.options.store.read(playerId, (data) =>
      ModuleData.get(data, commerce.options.orders)
        .list()
        .filter(({ order }) => order.state === "PAID"),
    );
    for (const { id, order } of owed) {
      const admission = await events.submit({
        id: purchaseEventId(id, order.attempt),
        eventType: SHOP_PURCHASE_EVENT,
        action: SHOP_PURCHASE_ACTION.action(purchaseOf(id, order)),
        playerId,
        owner: owner.toString(),
      });
      if (!admission.accepted && !admission.duplicate) throw new AgentException(admission.failure);
    }
  }

  /** The player left before the give: a new attempt (its own event and step ids) waits for them. */
  async #requeue(playerId: string, orderId: string, input: PurchaseInput): Promise<void> {
    const { commerce, events, owner } = this.options;
    const attempt = await commerce.options.store.transaction(playerId, (data) =>
      ModuleData.get(data, commerce.options.orders).nextAttempt(orderId),
    );
    if (attempt === undefined || attempt > MAX_ATTEMPTS) return;
    await events.submit({
      id: purchaseEventId(orderId, attempt),
      eventType: SHOP_PURCHASE_EVENT,
      action: SHOP_PURCHASE_ACTION.action(input),
      playerId,
      owner: owner.toString(),
    });
  }
}
