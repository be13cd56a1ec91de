import { z } from "zod";
import { codec } from "../../../util/codec.js";
import { ConfigInstance } from "../../../util/config-instance.js";
import type { Logger } from "../../../util/logger.js";
import type { ShopEntry } from "./shop-catalog.js";

const stockSchema = z
  .object({
    /** Entry id → items sold (reserved ones included). */
    sold: z.record(z.string(), z.number().int().nonnegative()).default({}),
    /** Order id → what it holds of the stock until it is delivered (kept) or refunded/rejected (given back). */
    reservations: z
      .record(z.string(), z.object({ entry: z.string(), count: z.number().int().positive() }))
      .default({}),
  })
  .strict();
type StockData = z.infer<typeof stockSchema>;

/**
 * The server-wide stock of entries that have one: `<world>/system/shop-stock.json`, written atomically, one change
 * at a time. A purchase reserves its items under its order id before it is charged (idempotent: a resumed purchase
 * finds its reservation), keeps them once delivered, and gives them back when refused or refunded.
 */
export class ShopStock {
  readonly #file: ConfigInstance<StockData>;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string | undefined, logger: Logger) {
    this.#file = new ConfigInstance({
      path,
      codec: codec(stockSchema as unknown as z.ZodType<StockData>),
      defaults: { sold: {}, reservations: {} },
      logger,
      name: "shop stock",
      onInvalid: "refuse",
    });
  }

  load(): Promise<boolean> {
    return this.#file.reload();
  }

  /** Items of an entry still for sale; undefined when it has no stock limit. */
  available(entry: ShopEntry): number | undefined {
    return entry.stock === undefined
      ? undefined
      : Math.max(0, entry.stock - (this.#file.get().sold[entry.id] ?? 0));
  }

  /** Reserves an order's items; true when reserved now or before, or the entry has no stock; false when sold out. */
  reserve(orderId: string, entry: ShopEntry, count: number): Promise<boolean> {
    return this.#serial(async () => {
      const data = this.#file.get();
      if (data.reservations[orderId] !== undefined || entry.stock === undefined) return true;
      if ((this.available(entry) ?? 0) < count) return false;
      await this.#file.set({
        sold: { ...data.sold, [entry.id]: (data.sold[entry.id] ?? 0) + count },
        reservations: { ...data.reservations, [orderId]: { entry: entry.id, count } },
      });
      return true;
    });
  }

  /** Gives an order's reserved items back (refused or refunded); nothing when it holds none. */
  release(orderId: string): Promise<void> {
    return this.#serial(async () => {
      const data = this.#file.get();
      const held = data.reservations[orderId];
      if (held === undefined) return;
      const reservations = { ...data.reservations };
      delete reservations[orderId];
      await this.#file.set({
        sold: { ...data.sold, [held.entry]: Math.max(0, (data.sold[held.entry] ?? 0) - held.count) },
        reservations,
      });
    });
  }

  /** The order was delivered: its items stay sold and the reservation is dropped. */
  settle(orderId: string): Promise<void> {
    return this.#serial(async () => {
      const data = this.#file.get();
      if (data.reservations[orderId] === undefined) return;
      const reservations = { ...data.reservations };
      delete reservations[orderId];
      await this.#file.set({ sold: data.sold, reservations });
    });
  }

  #serial<R>(work: () => Promise<R>): Promise<R> {
    const run = this.#queue.then(work);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}
