import { argument, greedyString, integer, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { Failure } from "../../../agent/failure.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { ChoiceLabel } from "../../../agent/routing/suggestions.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { EventSink } from "../../../game/context-types.js";
import { GameFailures } from "../../../game/tools/game-failures.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { ADMIN_LEVEL, isAdmin } from "../core/core-services.js";
import { BUYING_NOW, parseBuy, purchaseIn, type QuoteInput } from "./shop-buy-text.js";
import {
  SHOP_ADMIN_CARD,
  SHOP_CANCEL_ACTION_ID,
  SHOP_CONFIRM_ACTION_ID,
  SHOP_ORDER_CARD,
  SHOP_QUOTE_ACTION_ID,
  SHOP_QUOTE_CARD,
} from "./shop-cards.js";
import { shopList } from "./shop-catalog-module.js";
import { MAX_COUNT, type Prepared, type ShopCommerce } from "./shop-commerce.js";
import { SHOP_PURCHASE_ACTION, SHOP_PURCHASE_EVENT, shopOrderId } from "./shop-purchase.js";

/** What the shop workflows share. */
export interface ShopModuleOptions {
  readonly owner: Identifier;
  readonly commerce: ShopCommerce;
  readonly events: EventSink;
  readonly itemName: (item: string, locale: string) => string;
  /** Whether the host can deliver what is bought; when not, nothing is quoted or charged. */
  readonly givesItems: () => boolean;
}

/** Refuses a purchase before any quote or charge on a host that gives no items (the gateway, for now). */
const requireDelivery = (options: ShopModuleOptions): void => {
  if (!options.givesItems()) throw new AgentException(GameFailures.noWorldEffects());
};

const failureData = (failure: Failure) => ({ key: failure.key, args: failure.args.map(String).slice(0, 4) });

export { parseBuy, purchaseIn } from "./shop-buy-text.js";
export const SHOP_QUOTE_ACTION = ActionType.of<QuoteInput>(
  SHOP_QUOTE_ACTION_ID,
  codec(
    z
      .object({
        item: z.string().min(1).max(64).describe("the shop entry id, item id or item name"),
        count: z.number().int().min(1).max(MAX_COUNT).default(1).describe("how many units"),
      })
      .strict() as unknown as z.ZodType<QuoteInput>,
  ),
);

/**
 * `/system buy <entry|item> [count]` (购买), plain language ("我想买10个面包") and the model router: a quote card with
 * the price always, the rejection when one applies, and Confirm / Cancel. Read-only: nothing is paid here.
 */
export class ShopQuoteModule extends AbstractAgentModule<QuoteInput> {
  constructor(private readonly options: ShopModuleOptions) {
    super({
      action: SHOP_QUOTE_ACTION,
      writes: "state",
      description: "Quote buying from the shop (item, count); the player pays with a button.",
      routing: ModuleRouting.defaults<QuoteInput>()
        .command(AgentCommand.argument<QuoteInput>("<product>", parseBuy, "buy", "购买", "买"))
        .semantic(
          RoutingProfile.hints<QuoteInput>(
            ["我想买10个面包", "买一个铁锭", "我要买火把", "帮我买5个面包"],
            ["I want to buy 10 bread", "buy an iron ingot", "I'd like to buy torches", "buy 5 bread"],
          )
            .about(BUYING_NOW)
            // without a model, a confident purchase is offered as a [Quote: Bread × 10] button (nothing is paid)
            .offering((text) => {
              const wanted = purchaseIn(text);
              return wanted !== undefined && options.commerce.catalog.find(wanted.item) !== undefined
                ? wanted
                : undefined;
            }),
        ),
    });
  }

  /** What an offered quote button says: "Quote: Bread × 10" / "报价：面包 × 10". */
  choiceLabel(input: unknown): ChoiceLabel | undefined {
    const wanted = input as Partial<QuoteInput> | undefined;
    const entry =
      typeof wanted?.item === "string" ? this.options.commerce.catalog.find(wanted.item) : undefined;
    if (entry === undefined) return undefined;
    return {
      labelKey: "system.shop.choice",
      labelArgs: [
        this.options.itemName(entry.item, "en_us"),
        this.options.itemName(entry.item, "zh_cn"),
        String(wanted?.count ?? 1),
      ],
    };
  }

  override async run(input: QuoteInput, context: ExecutionContext): Promise<AgentResult> {
    await this.options.commerce.ready();
    requireDelivery(this.options);
    context.checkInput(input.item);
    const { commerce, itemName } = this.options;
    const entry = commerce.catalog.find(input.item);
    if (entry === undefined)
      throw new AgentException({ ...AgentFailure.NOT_FOUND.with(input.item), key: "system.shop.unknown" });
    const prepared = await commerce.prepare(context.playerId, entry, input.count);
    const quote = prepared.rejection === undefined ? commerce.quote(context.playerId, prepared) : undefined;
    return AgentResult.success(
      undefined,
      present(SHOP_QUOTE_CARD.card(quoteData(prepared, itemName(entry.item, context.locale), quote?.id))),
    );
  }
}

const quoteData = (prepared: Prepared, name: string, quote: string | undefined) => ({
  ...(quote === undefined ? {} : { quote }),
  entry: prepared.entry.id,
  name,
  count: prepared.count,
  items: prepared.items,
  unit: prepared.unit,
  total: prepared.total,
  balance: prepared.balance,
  ...(prepared.rejection === undefined ? {} : { rejection: failureData(prepared.rejection) }),
});

interface QuoteRef {
  readonly quote: string;
}
const QUOTE_REF = codec(z.object({ quote: z.string().uuid() }).strict() as z.ZodType<QuoteRef>);
export const SHOP_CONFIRM_ACTION = ActionType.of<QuoteRef>(SHOP_CONFIRM_ACTION_ID, QUOTE_REF);
export const SHOP_CANCEL_ACTION = ActionType.of<QuoteRef>(SHOP_CANCEL_ACTION_ID, QUOTE_REF);

/**
 * `system:shop_confirm`, the payment (structured only: the Confirm button; never offered to the model, never
 * routed from text). It re-checks the quote (the player's, unexpired, same catalog version) and the price, then
 * queues the purchase as ONE durable event whose id is the quote's: a double or replayed click makes one order.
 * The event charges and commits the order in one transaction, then delivers.
 */
export class ShopConfirmModule extends AbstractAgentModule<QuoteRef> {
  constructor(private readonly options: ShopModuleOptions) {
    super({
      action: SHOP_CONFIRM_ACTION,
      writes: "replayable",
      description: "Pay for a shop quote (Confirm button only).",
      routing: ModuleRouting.structuredOnly<QuoteRef>(),
    });
  }

  override async run(input: QuoteRef, context: ExecutionContext): Promise<AgentResult> {
    await this.options.commerce.ready();
    const { commerce, itemName, events, owner } = this.options;
    const orderId = shopOrderId(input.quote);
    const quote = commerce.valid(context.playerId, input.quote);
    if (quote === undefined) {
      // already confirmed (a double click after the quote was used): the same order, nothing new
      const existing = await commerce.options.store.read(context.playerId, (data) =>
        ModuleData.get(data, commerce.options.orders).order(orderId),
      );
      if (existing === undefined) throw new AgentException(AgentFailure.QUOTE_EXPIRED);
      return AgentResult.success(
        undefined,
        present(
          SHOP_ORDER_CARD.card({
            order: orderId,
            name: itemName(existing.item, context.locale),
            items: existing.count,
            total: existing.total,
            status: existing.state,
          }),
        ),
      );
    }
    requireDelivery(this.options);
    const entry = commerce.catalog.entry(quote.entry);
    if (entry === undefined) throw new AgentException(AgentFailure.QUOTE_EXPIRED);
    const prepared = await commerce.prepare(context.playerId, entry, quote.count);
    if (prepared.rejection !== undefined)
      return AgentResult.error(prepared.rejection).withPresentation(
        present(SHOP_QUOTE_CARD.card(quoteData(prepared, itemName(entry.item, context.locale), undefined))),
      );
    const admission = await events.submit({
      id: orderId,
      eventType: SHOP_PURCHASE_EVENT,
      action: SHOP_PURCHASE_ACTION.action({
        order: orderId,
        entry: { ...entry },
        count: quote.count,
        day: commerce.today(),
        items: [{ item: entry.item, count: quote.count * entry.count }],
      }),
      playerId: context.playerId,
      owner: owner.toString(),
    });
    if (!admission.accepted && !admission.duplicate) throw new AgentException(admission.failure);
    commerce.cancel(context.playerId, input.quote);
    return AgentResult.success(
      undefined,
      present(
        SHOP_ORDER_CARD.card({
          order: orderId,
          name: itemName(entry.item, context.locale),
          items: prepared.items,
          total: prepared.total,
          status: "placed",
        }),
      ),
    );
  }
}

/** `system:shop_cancel`: drops a quote (the Cancel button). */
export class ShopCancelModule extends AbstractAgentModule<QuoteRef> {
  constructor(private readonly options: ShopModuleOptions) {
    super({
      action: SHOP_CANCEL_ACTION,
      writes: "replayable",
      description: "Drop a shop quote (Cancel button).",
      routing: ModuleRouting.structuredOnly<QuoteRef>(),
    });
  }

  override async run(input: QuoteRef, context: ExecutionContext): Promise<AgentResult> {
    await this.options.commerce.ready();
    this.options.commerce.cancel(context.playerId, input.quote);
    return AgentResult.success(
      undefined,
      present(
        SHOP_ORDER_CARD.card({ order: input.quote, name: "", items: 0, total: 0, status: "cancelled" }),
      ),
    );
  }
}

interface ShopInput {
  readonly op: "list" | "add" | "remove" | "price";
  readonly entry: string;
  readonly item?: string | undefined;
  readonly count?: number | undefined;
  readonly price?: number | undefined;
}
const SHOP_ACTION = ActionType.of<ShopInput>(
  "system:shop",
  codec(
    z
      .object({
        op: z.enum(["list", "add", "remove", "price"]).default("list"),
        entry: z.string().min(1).max(32).default("-"),
        item: z.string().min(1).max(64).optional(),
        count: z.number().optional(),
        price: z.number().optional(),
      })
      .strict() as unknown as z.ZodType<ShopInput>,
  ),
);

/**
 * `/system shop` (商店): every entry with its price and a buy button, and the player's balance. For admins also
 * `/system shop add <entry> <item> <count> <price>`, `/system shop remove <entry>`, `/system shop price <entry>
 * <price>`: they change `config/system/shop.json`; quotes made before a change can no longer be paid.
 */
export class ShopModule extends AbstractAgentModule<ShopInput> {
  constructor(private readonly options: ShopModuleOptions) {
    super({
      action: SHOP_ACTION,
      writes: "state",
      description:
        "The server shop command: its items and prices in points; admins add, remove and price entries.",
      // plain language reaches the list through system:shop_catalog: this module also writes the catalog
      routing: ModuleRouting.defaults<ShopInput>().command(
        AgentCommand.custom<ShopInput>(["shop", "商店"], (name) =>
          literal<CommandSource>(name)
            .executes(async (context) => {
              context.getSource().action({ op: "list", entry: "-" });
              return 1;
            })
            .then(
              literal<CommandSource>("add")
                .requires(isAdmin)
                .then(
                  argument<CommandSource, string>("entry", word()).then(
                    // `<item> <count> <price>`: an item id has a colon, which a Brigadier word cannot hold
                    argument<CommandSource, string>("product", greedyString()).executes(async (context) => {
                      const [item = "", count = "", price = ""] = String(context.getArgument("product"))
                        .trim()
                        .split(/\s+/);
                      context.getSource().action({
                        op: "add",
                        entry: String(context.getArgument("entry")),
                        item,
                        count: Number(count || 0),
                        price: Number(price || -1),
                      });
                      return 1;
                    }),
                  ),
                ),
            )
            .then(
              literal<CommandSource>("remove")
                .requires(isAdmin)
                .then(
                  argument<CommandSource, string>("entry", word()).executes(async (context) => {
                    context.getSource().action({ op: "remove", entry: String(context.getArgument("entry")) });
                    return 1;
                  }),
                ),
            )
            .then(
              literal<CommandSource>("price")
                .requires(isAdmin)
                .then(
                  argument<CommandSource, string>("entry", word()).then(
                    argument<CommandSource, number>("price", integer(0, 1_000_000)).executes(
                      async (context) => {
                        context.getSource().action({
                          op: "price",
                          entry: String(context.getArgument("entry")),
                          price: Number(context.getArgument("price")),
                        });
                        return 1;
                      },
                    ),
                  ),
                ),
            ),
        ),
      ),
    });
  }

  override async run(input: ShopInput, context: ExecutionContext): Promise<AgentResult> {
    await this.options.commerce.ready();
    if (input.op === "list") return shopList(this.options, context);
    if (context.permissionLevel < ADMIN_LEVEL) throw new AgentException(AgentFailure.PERMISSION_DENIED);
    const catalog = this.options.commerce.catalog;
    const card = (result: "added" | "removed" | "priced" | "unknown" | "invalid_file", detail = "") =>
      AgentResult.success(undefined, present(SHOP_ADMIN_CARD.card({ result, entry: input.entry, detail })));
    const entryId = input.entry.toLowerCase();
    try {
      if (input.op === "remove") return card((await catalog.remove(entryId)) ? "removed" : "unknown");
      if (input.op === "price") {
        const entry = catalog.entry(entryId);
        if (entry === undefined || input.price === undefined) return card("unknown");
        await catalog.put({ ...entry, price: input.price });
        return card("priced", String(input.price));
      }
      const item = (input.item ?? "").includes(":") ? (input.item ?? "") : `minecraft:${input.item ?? ""}`;
      const count = input.count ?? Number.NaN;
      const price = input.price ?? Number.NaN;
      if (
        !/^[a-z0-9_.-]{1,32}$/.test(entryId) ||
        !/^[a-z0-9_.-]+:[a-z0-9_./-]+$/.test(item) ||
        !Number.isInteger(count) ||
        count < 1 ||
        count > 6400 ||
        !Number.isInteger(price) ||
        price < 0 ||
        price > 1_000_000
      )
        throw new AgentException(AgentFailure.INPUT_INVALID.with(`${entryId} ${item}`));
      await catalog.put({ id: entryId, item, count, price });
      return card("added", `${item} × ${count} = ${price}`);
    } catch (error) {
      if (error instanceof AgentException) throw error;
      return card("invalid_file", (error as Error).message);
    }
  }
}
