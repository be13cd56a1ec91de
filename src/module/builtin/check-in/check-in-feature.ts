import { join } from "node:path";
import { registerCardType } from "../../../agent/card/card-text.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { GameContextTypes } from "../../../game/context-types.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import { GAME_EVENTS } from "../../../game/game-events.js";
import { giveItemsTool } from "../../../game/tools/give-items-tool.js";
import { Identifier } from "../../../util/identifier.js";
import { silentLogger } from "../../../util/logger.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { SERVER_PATHS } from "../../server-paths.js";
import { CheckInLedger } from "../storage/check-in-ledger.js";
import { checkInStorage } from "../storage/check-in-storage.js";
import { pointsLedgerStorage } from "../storage/points-ledger.js";
import { DAILY_CHECK_IN, POINTS_SOURCES } from "../storage/points-sources.js";
import { CHECK_IN_CLAIMS } from "../storage/shared-state.js";
import { CHECK_IN_CARD } from "./check-in-card.js";
import { CHECK_IN_CONFIG, type CheckInConfig } from "./check-in-config.js";
import { CheckInDeliveryModule, DELIVER_REWARD_EVENT } from "./check-in-delivery-module.js";
import { CheckInModule } from "./check-in-module.js";

/** An item's name in a locale (zh_cn when known), else its id. */
export const itemNamer =
  (catalog: ItemCatalog | undefined) =>
  (item: string, locale: string): string => {
    const info = catalog?.lookup(item);
    if (info === undefined) return item;
    return locale.toLowerCase().startsWith("zh") ? (info.names.zh_cn ?? info.names.en_us) : info.names.en_us;
  };

/** `check-in-ledger.json` for `system:check_in`; other instances get their own (`<namespace>_<path>`). */
export const ledgerFileName = (id: Identifier): string =>
  id.toString() === "system:check_in"
    ? "check-in-ledger.json"
    : `check-in-ledger-${id.toString().replace(/[^a-z0-9_.-]/g, "_")}.json`;

/**
 * `system:check_in` feature type. Needs AGENT_STORE, EVENTS, GAME_BRIDGE and LIFECYCLES (at each join, rewards
 * still owed are queued again under their fixed event ids); uses CLOCK (else the system
 * clock), ITEM_CATALOG (item names), CARDS and SERVER_PATHS when present; the reward ledger, which a player reset
 * keeps, is `<world>/system/check-in-ledger.json` (in memory without SERVER_PATHS). Registers the event type `system:deliver_reward`
 * handled by `system:check_in_delivery`; the server's EventRules must allow that pair. Each check-in credits
 * `points` to the shared points ledger (`system:points`), which it lists among its storages too.
 */
export const CHECK_IN_FEATURE: ServerModuleType<CheckInConfig> = {
  id: Identifier.parse("system:check_in"),
  config: CHECK_IN_CONFIG,
  create: (id, config): ServerModule => {
    const storage = checkInStorage(id);
    return {
      id,
      type: CHECK_IN_FEATURE.id,
      enabledByDefault: true,
      toolModule: false,
      install(context: ServerModuleContext): void {
        const services = context.services;
        const store = services.get(GameContextTypes.AGENT_STORE);
        const events = services.get(GameContextTypes.EVENTS);
        const bridge = services.get(GameContextTypes.GAME_BRIDGE);
        const clock = services.get(GameContextTypes.CLOCK);
        const itemName = itemNamer(services.get(GameContextTypes.ITEM_CATALOG));
        registerCardType(services.get(GameContextTypes.CARDS), CHECK_IN_CARD);
        const giveItems = giveItemsTool({ bridge, owner: context.id });
        const world = services.find(SERVER_PATHS)?.world;
        const ledger = new CheckInLedger(
          world === undefined ? undefined : join(world, "system", ledgerFileName(context.id)),
        );
        // a network's shared days decide when storage.json names a database
        const claims = services.find(CHECK_IN_CLAIMS);
        context.engine.registerEventType(DELIVER_REWARD_EVENT);
        const checkIn = new CheckInModule({
          owner: context.id,
          config,
          store,
          events,
          gameEvents: services.get(GAME_EVENTS),
          clock,
          storage,
          itemName,
          ledger,
          ...(claims === undefined ? {} : { claims }),
          logger: silentLogger,
          givesItems: () => bridge.givesItems(),
        });
        context.engine.registerModule(checkIn);
        // the earning card's line for this check-in's points (a reinstall with a new config replaces it)
        services.find(POINTS_SOURCES)?.set(context.id.toString(), () =>
          config.points > 0
            ? [
                {
                  event: DAILY_CHECK_IN,
                  points: config.points,
                  conditions: {},
                  repeat: "daily",
                  feature: context.id.toString(),
                },
              ]
            : [],
        );
        // a reward recorded just before a crash, whose delivery was never queued, is queued at the next join
        services
          .get(GameContextTypes.LIFECYCLES)
          .register({ onJoin: (playerId) => checkIn.repair(playerId) });
        context.engine.registerModule(
          new CheckInDeliveryModule({ owner: context.id, store, events, storage, giveItems, itemName }),
        );
      },
      // the points ledger is shared with system:points (its owner): check-in credits it in its own transaction
      storages: (): readonly AnyModuleStorage[] => [storage, pointsLedgerStorage],
    };
  },
};
