import { randomUUID } from "node:crypto";
import { AgentFailure } from "../../../agent/agent-failure.js";
import type { Failure } from "../../../agent/failure.js";
import type { AgentStore } from "../../../agent/storage/agent-store.js";
import type { ModuleStorage } from "../../../agent/storage/module-storage.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { PointsAccounts } from "../../../data/player-state/points-accounts.js";
import type { GameClock } from "../../../game/context-types.js";
import { localDay } from "../check-in/local-day.js";
import { type PointsLedger, pointsLedgerStorage } from "../storage/points-ledger.js";
import type { ShopCatalog, ShopEntry } from "./shop-catalog.js";
import type { ShopOrders, ShopOrdersData } from "./shop-orders.js";
import type { ShopStock } from "./shop-stock.js";

/** How long a quote can be confirmed. */
export const QUOTE_MILLIS = 60_000;
/** The most units one quote may buy. */
export const MAX_COUNT = 640;

/**
 * CommerceCosts.Prepared of the seeds: a price is always shown; only the rejection is optional (insufficient
 * balance, daily limit reached, out of stock).
 */
export interface Prepared {
  readonly entry: ShopEntry;
  readonly count: number;
  /** Items delivered: count × the entry's pack size. */
  readonly items: number;
  readonly unit: number;
  readonly total: number;
  readonly balance: number;
  readonly rejection?: Failure;
}

/** A quote a player may confirm: bound to the player, the catalog version and a deadline. */
export interface Quote {
  readonly id: string;
  readonly playerId: string;
  readonly entry: string;
  readonly count: number;
  readonly total: number;
  readonly version: string;
  readonly expires: number;
}

/**
 * The shop's commerce: prices and rejections (Prepared), quotes (in memory, 60 s, per player and catalog version),
 * and the purchase transaction: with points in the player files, the charge and the order commit in ONE
 * player-storage transaction; with a network's shared points, the debit (one statement keyed by `order:<id>`)
 * comes first and the order is committed after it, so a run repeated after a crash finds the debit recorded and
 * pays nothing twice.
 */
export class ShopCommerce {
  readonly #quotes = new Map<string, Quote>();

  constructor(
    readonly options: {
      readonly catalog: ShopCatalog;
      readonly stock: ShopStock;
      readonly store: AgentStore;
      /** Where balances are read and charges go (the player files, or a network's shared points). */
      readonly points: PointsAccounts;
      readonly orders: ModuleStorage<ShopOrdersData, ShopOrders>;
      readonly clock: GameClock;
      /** Resolves once the catalog and stock files are read. */
      readonly ready: Promise<void>;
    },
  ) {}

  get catalog(): ShopCatalog {
    return this.options.catalog;
  }

  today(): string {
    return localDay(this.options.clock.now(), this.options.clock.timeZone);
  }

  /** Resolves once the catalog and stock files are read (every workflow waits for it first). */
  ready(): Promise<void> {
    return this.options.ready;
  }

  balance(playerId: string): Promise<number> {
    return this.options.points.balance(playerId);
  }

  /** The price of `count` units of an entry for a player now, with the rejection that applies, if any. */
  async prepare(playerId: string, entry: ShopEntry, count: number): Promise<Prepared> {
    const day = this.today();
    const bought = await this.options.store.read(playerId, (data) =>
      ModuleData.get(data, this.options.orders).bought(day, entry.id),
    );
    const balance = await this.balance(playerId);
    const items = count * entry.count;
    const total = count * entry.price;
    const available = this.options.stock.available(entry);
    const rejection =
      available !== undefined && available < items
        ? AgentFailure.OUT_OF_STOCK.with(available)
        : entry.daily_limit !== undefined && bought + items > entry.daily_limit
          ? AgentFailure.LIMIT_REACHED.with(entry.daily_limit, bought)
          : balance < total
            ? AgentFailure.INSUFFICIENT_BALANCE.with(total, balance)
            : undefined;
    const prepared = { entry, count, items, unit: entry.price, total, balance };
    return rejection === undefined ? prepared : { ...prepared, rejection };
  }

  /** Keeps a quote for the player to confirm within QUOTE_MILLIS. */
  quote(playerId: string, prepared: Prepared): Quote {
    const now = this.options.clock.now();
    for (const [id, old] of this.#quotes) if (old.expires < now) this.#quotes.delete(id);
    const quote: Quote = {
      id: randomUUID(),
      playerId,
      entry: prepared.entry.id,
      count: prepared.count,
      total: prepared.total,
      version: this.options.catalog.version,
      expires: now + QUOTE_MILLIS,
    };
    this.#quotes.set(quote.id, quote);
    return quote;
  }

  /** A quote the player may still confirm: theirs, not expired, the catalog unchanged. */
  valid(playerId: string, quoteId: string): Quote | undefined {
    const quote = this.#quotes.get(quoteId);
    if (quote === undefined || quote.playerId !== playerId) return undefined;
    if (quote.expires < this.options.clock.now() || quote.version !== this.options.catalog.version)
      return undefined;
    return quote;
  }

  cancel(playerId: string, quoteId: string): boolean {
    const quote = this.#quotes.get(quoteId);
    if (quote === undefined || quote.playerId !== playerId) return false;
    return this.#quotes.delete(quoteId);
  }

  /**
   * Charges and commits an order in one transaction, once per order id: PAID (ledger debit + order) or REJECTED
   * (no charge) when the balance or the daily limit no longer allows it. Returns the order's state after.
   */
  async charge(
    playerId: string,
    orderId: string,
    order: { readonly entry: ShopEntry; readonly count: number; readonly day: string },
  ): Promise<"PAID" | "REJECTED" | "existing"> {
    const at = this.options.clock.now();
    const { entry, count, day } = order;
    const items = count * entry.count;
    const total = count * entry.price;
    if (this.options.points.scope === "shared") return this.#chargeShared(playerId, orderId, order, at);
    return this.options.store.transaction(playerId, (data) => {
      const orders = ModuleData.get(data, this.options.orders);
      if (orders.order(orderId) !== undefined) return "existing";
      const ledger: PointsLedger = ModuleData.get(data, pointsLedgerStorage);
      const base = {
        entry: entry.id,
        item: entry.item,
        count: items,
        quantity: count,
        unitPrice: entry.price,
        total,
        day,
        at,
        attempt: 0,
      };
      const reject = (failure: Failure) => {
        orders.place(orderId, { ...base, state: "REJECTED", reason: failure.code });
        return "REJECTED" as const;
      };
      if (entry.daily_limit !== undefined && orders.bought(day, entry.id) + items > entry.daily_limit)
        return reject(AgentFailure.LIMIT_REACHED);
      const paid = total === 0 ? "done" : ledger.debit(`order:${orderId}`, total, `shop:${entry.id}`, at);
      if (paid === "insufficient") return reject(AgentFailure.INSUFFICIENT_BALANCE);
      orders.place(orderId, { ...base, state: "PAID" });
      return "PAID";
    });
  }

  /** The charge with shared points: limit check, then the debit keyed by the order, then the order itself. */
  async #chargeShared(
    playerId: string,
    orderId: string,
    order: { readonly entry: ShopEntry; readonly count: number; readonly day: string },
    at: number,
  ): Promise<"PAID" | "REJECTED" | "existing"> {
    const { entry, count, day } = order;
    const items = count * entry.count;
    const total = count * entry.price;
    const place = (state: "PAID" | "REJECTED", reason?: Failure) =>
      this.options.store.transaction(playerId, (data) => {
        const orders = ModuleData.get(data, this.options.orders);
        if (orders.order(orderId) !== undefined) return "existing" as const;
        const base = {
          entry: entry.id,
          item: entry.item,
          count: items,
          quantity: count,
          unitPrice: entry.price,
        };
        orders.place(orderId, {
          ...base,
          total,
          day,
          at,
          attempt: 0,
          state,
          ...(reason === undefined ? {} : { reason: reason.code }),
        });
        return state;
      });
    const known = await this.options.store.read(playerId, (data) => {
      const orders = ModuleData.get(data, this.options.orders);
      return { exists: orders.order(orderId) !== undefined, bought: orders.bought(day, entry.id) };
    });
    if (known.exists) return "existing";
    if (entry.daily_limit !== undefined && known.bought + items > entry.daily_limit)
      return place("REJECTED", AgentFailure.LIMIT_REACHED);
    const paid =
      total === 0
        ? "done"
        : (
            await this.options.points.debit(playerId, {
              id: `order:${orderId}`,
              amount: total,
              reason: `shop:${entry.id}`,
              at,
            })
          ).outcome;
    // "duplicate": this order's debit was recorded by a run that stopped before the order was
    if (paid === "insufficient") return place("REJECTED", AgentFailure.INSUFFICIENT_BALANCE);
    return place("PAID");
  }

  /** Records an order REJECTED without any charge (sold out), once per order id. */
  async reject(
    playerId: string,
    orderId: string,
    order: { readonly entry: ShopEntry; readonly count: number; readonly day: string },
    reason: Failure,
  ): Promise<"REJECTED" | "existing"> {
    const at = this.options.clock.now();
    const { entry, count, day } = order;
    return this.options.store.transaction(playerId, (data) => {
      const placed = ModuleData.get(data, this.options.orders).place(orderId, {
        entry: entry.id,
        item: entry.item,
        count: count * entry.count,
        quantity: count,
        unitPrice: entry.price,
        total: count * entry.price,
        state: "REJECTED",
        reason: reason.code,
        day,
        at,
        attempt: 0,
      });
      return placed ? "REJECTED" : "existing";
    });
  }

  /** Gives the price back and marks the order REFUNDED, in one transaction (once). */
  async refund(playerId: string, orderId: string, reason: Failure): Promise<void> {
    const at = this.options.clock.now();
    if (this.options.points.scope === "shared") {
      // the credit is keyed by the order: a refund repeated after a crash credits once, then settles
      const order = await this.options.store.read(playerId, (data) =>
        ModuleData.get(data, this.options.orders).order(orderId),
      );
      if (order === undefined || (order.state !== "PAID" && order.state !== "UNCONFIRMED")) return;
      if (order.total > 0)
        await this.options.points.credit(playerId, {
          id: `refund:${orderId}`,
          amount: order.total,
          reason: `refund:${order.entry}`,
          at,
        });
      await this.options.store.transaction(playerId, (data) => {
        ModuleData.get(data, this.options.orders).settle(orderId, "REFUNDED", reason.code);
      });
      return;
    }
    await this.options.store.transaction(playerId, (data) => {
      const orders = ModuleData.get(data, this.options.orders);
      const order = orders.order(orderId);
      if (order === undefined || (order.state !== "PAID" && order.state !== "UNCONFIRMED")) return;
      if (order.total > 0)
        ModuleData.get(data, pointsLedgerStorage).credit(
          `refund:${orderId}`,
          order.total,
          `refund:${order.entry}`,
          at,
        );
      orders.settle(orderId, "REFUNDED", reason.code);
    });
  }

  /** A rejected order's reason decoded from its receipt (unknown names become MODULE_FAILED). */
  static reasonOf(code: string | undefined): Failure | undefined {
    return code === undefined ? undefined : AgentFailure.fromCode(code);
  }
}
