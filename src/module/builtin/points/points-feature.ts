import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import { defineFeature } from "../../define-feature.js";
import { CORE_SERVICES } from "../core/core-services.js";
import { PlayerFilePoints } from "../storage/player-file-points.js";
import { pointsLedgerStorage } from "../storage/points-ledger.js";
import { POINTS_SOURCES } from "../storage/points-sources.js";
import { POINTS_ACCOUNTS } from "../storage/shared-state.js";
import { POINTS_BONUS_CARD, PointsBonusModule } from "./points-bonus.js";
import { POINTS_ADMIN_CARD, POINTS_BALANCE_CARD } from "./points-cards.js";
import { POINTS_EARNING_CARD, PointsEarningModule } from "./points-earning.js";
import { PointsAdminModule, PointsBalanceModule } from "./points-modules.js";

type PointsConfig = Record<string, never>;

/**
 * `system:points`: a points balance per player kept as a ledger in the player file (`system:points/points_ledger`,
 * which check-in and the shop change too), the workflows `/system balance`, `/system earn` (how points are earned, from POINTS_SOURCES) and the admin's
 * `/system points give|take <player> <n>`. Needs AGENT_STORE, CORE_SERVICES, CLOCK and POINTS_SOURCES; uses CARDS and
 * POINTS_ACCOUNTS (a network's shared points; the player files without it).
 */
export const POINTS_FEATURE = defineFeature<PointsConfig>({
  id: Identifier.parse("system:points"),
  config: codec(z.object({}).strict() as z.ZodType<PointsConfig>),
  create: ({ id }) => ({
    install(context) {
      const services = context.services;
      // the network's shared accounts when storage.json names a database, else this server's player files
      const points =
        services.find(POINTS_ACCOUNTS) ?? new PlayerFilePoints(services.get(GameContextTypes.AGENT_STORE));
      const clock = services.get(GameContextTypes.CLOCK);
      const core = services.get(CORE_SERVICES);
      const cards = services.find(GameContextTypes.CARDS);
      registerCardType(cards, POINTS_BALANCE_CARD);
      registerCardType(cards, POINTS_ADMIN_CARD);
      registerCardType(cards, POINTS_BONUS_CARD);
      registerCardType(cards, POINTS_EARNING_CARD);
      context.engine.registerModule(new PointsBalanceModule({ points, clock }));
      context.engine.registerModule(
        new PointsAdminModule({ points, clock, resolvePlayer: (name) => core.resolvePlayer(name) }),
      );
      context.engine.registerModule(new PointsBonusModule(id, { points, clock }));
      // the server's sources (check-in, advancement rules), provided by the assembly
      const catalog = services.find(GameContextTypes.ITEM_CATALOG);
      context.engine.registerModule(
        new PointsEarningModule(
          services.get(POINTS_SOURCES),
          catalog === undefined ? undefined : (id, locale) => catalog.nameOf("entity", id, locale),
        ),
      );
    },
    storages: [pointsLedgerStorage],
  }),
});
