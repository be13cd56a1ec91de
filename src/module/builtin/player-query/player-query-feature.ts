import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { playerInfoTool } from "../../../game/tools/player-tools.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { PLAYER_CARD } from "./player-card.js";
import { PlayerQueryModule } from "./player-query-module.js";

/** The data-pack config of `system:player_query` (nothing yet; unknown fields are refused). */
export type PlayerQueryConfig = Record<string, never>;

/**
 * `system:player_query` feature type. Needs GAME_BRIDGE; uses ITEM_CATALOG (item names) and CARDS when present.
 */
export const PLAYER_QUERY_FEATURE: ServerModuleType<PlayerQueryConfig> = {
  id: Identifier.parse("system:player_query"),
  config: codec(z.object({}).strict() as z.ZodType<PlayerQueryConfig>),
  create: (id): ServerModule => ({
    id,
    type: PLAYER_QUERY_FEATURE.id,
    enabledByDefault: true,
    toolModule: false,
    install(context: ServerModuleContext): void {
      const bridge = context.services.get(GameContextTypes.GAME_BRIDGE);
      registerCardType(context.services.get(GameContextTypes.CARDS), PLAYER_CARD);
      context.engine.registerModule(
        new PlayerQueryModule({
          owner: context.id,
          tool: playerInfoTool({ bridge, owner: context.id }),
          catalog: context.services.get(GameContextTypes.ITEM_CATALOG),
        }),
      );
    },
    storages: (): readonly AnyModuleStorage[] => [],
  }),
};
