import { z } from "zod";
import { GameContextTypes } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { CORE_SERVICES } from "../core/core-services.js";
import { DeliveriesModule } from "./deliveries-module.js";
import { DELIVERIES, HELD_EFFECTS } from "./deliveries-service.js";
import { EventsModule } from "./events-module.js";

/**
 * `system:deliveries` feature type: the admin commands `/system deliveries` over unconfirmed deliveries (and, on a
 * network, HELD_EFFECTS: the shared outbox's effects held for an admin) and `/system events [player]` over recent
 * event tasks. Needs DELIVERIES (the EventExecutor), CORE_SERVICES (player names), ITEM_CATALOG and CLOCK.
 * Infrastructure like the core commands: its workflow has no owner, so no grant can take it from an admin.
 */
export const DELIVERIES_FEATURE: ServerModuleType<Record<string, never>> = {
  id: Identifier.parse("system:deliveries"),
  config: codec(z.object({}).strict()) as ServerModuleType<Record<string, never>>["config"],
  create: (id): ServerModule => ({
    id,
    type: DELIVERIES_FEATURE.id,
    enabledByDefault: true,
    toolModule: false,
    infrastructure: true,
    install(context: ServerModuleContext): void {
      const services = context.services;
      const core = services.get(CORE_SERVICES);
      context.engine.registerModule(
        new DeliveriesModule({
          deliveries: services.get(DELIVERIES),
          held: services.find(HELD_EFFECTS),
          playerName: (playerId) => core.resolvePlayer(playerId)?.name ?? playerId,
          catalog: services.get(GameContextTypes.ITEM_CATALOG),
          clock: services.get(GameContextTypes.CLOCK),
        }),
      );
      context.engine.registerModule(
        new EventsModule({
          tasks: services.get(DELIVERIES),
          resolvePlayer: (nameOrUuid) => core.resolvePlayer(nameOrUuid),
          clock: services.get(GameContextTypes.CLOCK),
        }),
      );
    },
    storages: () => [],
  }),
};
