import { join } from "node:path";
import { registerCardType } from "../../../agent/card/card-text.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { GAME_EVENTS } from "../../../game/game-events.js";
import { giveItemsTool } from "../../../game/tools/give-items-tool.js";
import { Identifier } from "../../../util/identifier.js";
import { defineFeature } from "../../define-feature.js";
import { SERVER_PATHS } from "../../server-paths.js";
import { itemNamer } from "../check-in/check-in-feature.js";
import { PlayerFilePoints } from "../storage/player-file-points.js";
import { pointsLedgerStorage } from "../storage/points-ledger.js";
import { POINTS_ACCOUNTS } from "../storage/shared-state.js";
import {
  SHOP_ADMIN_CARD,
  SHOP_LIST_CARD,
  SHOP_ORDER_CARD,
  SHOP_ORDERS_CARD,
  SHOP_QUOTE_CARD,
} from "./shop-cards.js";
import { SHOP_CONFIG, ShopCatalog, type ShopConfig } from "./shop-catalog.js";
import { ShopCatalogModule } from "./shop-catalog-module.js";
import { ShopCommerce } from "./shop-commerce.js";
import { ShopCancelModule, ShopConfirmModule, ShopModule, ShopQuoteModule } from "./shop-modules.js";
import { shopOrdersStorage } from "./shop-orders.js";
import { ShopOrdersModule } from "./shop-orders-module.js";
import { SHOP_PURCHASE_EVENT, ShopPurchaseModule } from "./shop-purchase.js";
import { ShopStock } from "./shop-stock.js";

/**
 * `system:shop`: a catalog (the data pack's entries plus the admin's `config/system/shop.json`), quotes, the
 * structured-only payment, orders in the player file and deliveries as durable events; the server-wide stock in
 * `<world>/system/shop-stock.json`. Prices are in points (`system:points`' ledger). At each join, orders still owed
 * are queued again under their fixed event ids (a crash between recording and queueing loses nothing). Needs
 * AGENT_STORE, EVENTS, GAME_BRIDGE, LOGGER, CLOCK, LIFECYCLES and SERVER_PATHS; uses ITEM_CATALOG and CARDS.
 */
export const SHOP_FEATURE = defineFeature<ShopConfig>({
  id: Identifier.parse("system:shop"),
  config: SHOP_CONFIG,
  create: ({ id, config }) => {
    const orders = shopOrdersStorage(id);
    return {
      install(context) {
        const services = context.services;
        const paths = services.get(SERVER_PATHS);
        const logger = services.get(GameContextTypes.LOGGER);
        const items = services.find(GameContextTypes.ITEM_CATALOG);
        const events = services.get(GameContextTypes.EVENTS);
        const catalog = new ShopCatalog({
          pack: config.entries,
          path: join(
            paths.dataDir,
            "config",
            "system",
            id.toString() === "system:shop" ? "shop.json" : `shop-${id.path}.json`,
          ),
          logger,
          items,
        });
        const stock = new ShopStock(join(paths.world, "system", `shop-stock-${id.path}.json`), logger);
        const commerce = new ShopCommerce({
          catalog,
          stock,
          store: services.get(GameContextTypes.AGENT_STORE),
          points:
            services.find(POINTS_ACCOUNTS) ??
            new PlayerFilePoints(services.get(GameContextTypes.AGENT_STORE)),
          orders,
          clock: services.get(GameContextTypes.CLOCK),
          ready: Promise.all([
            catalog.load(),
            stock.load().catch((error: Error) => logger.error(`shop: ${error.message}`)),
          ]).then(() => undefined),
        });
        const cards = services.get(GameContextTypes.CARDS);
        for (const card of [
          SHOP_LIST_CARD,
          SHOP_QUOTE_CARD,
          SHOP_ORDER_CARD,
          SHOP_ORDERS_CARD,
          SHOP_ADMIN_CARD,
        ])
          registerCardType(cards, card as never);
        const options = {
          owner: id,
          commerce,
          events,
          itemName: itemNamer(items),
          gameEvents: services.get(GAME_EVENTS),
          givesItems: () => services.get(GameContextTypes.GAME_BRIDGE).givesItems(),
        };
        context.engine.registerModule(new ShopQuoteModule(options));
        context.engine.registerModule(new ShopConfirmModule(options));
        context.engine.registerModule(new ShopCancelModule(options));
        context.engine.registerModule(new ShopOrdersModule(options));
        context.engine.registerModule(new ShopModule(options));
        context.engine.registerModule(new ShopCatalogModule(options));
        context.engine.registerEventType(SHOP_PURCHASE_EVENT);
        const purchases = new ShopPurchaseModule(
          options,
          giveItemsTool({ bridge: services.get(GameContextTypes.GAME_BRIDGE), owner: id }),
        );
        context.engine.registerModule(purchases);
        // an order charged whose delivery attempt a crash recorded but never queued is queued at the next join
        services
          .get(GameContextTypes.LIFECYCLES)
          .register({ onJoin: (playerId) => purchases.repair(playerId) });
      },
      storages: [orders, pointsLedgerStorage],
    };
  },
});
