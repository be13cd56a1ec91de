import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { ServerMods } from "../../../game/data/server-mods.js";
import { ItemTextIndex } from "../../../game/tools/item-text-index.js";
import { itemTools } from "../../../game/tools/item-tools.js";
import { modsTool } from "../../../game/tools/mod-tools.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { ITEM_CARD, ITEM_NOT_FOUND_CARD } from "./item-cards.js";
import { ItemQueryModule } from "./item-query-module.js";
import { MOD_CARD, MOD_NOT_FOUND_CARD, MODS_CARD } from "./mods-cards.js";
import { ModsModule } from "./mods-module.js";

/** The data-pack config of `system:item_query` (nothing yet; unknown fields are refused). */
export type ItemQueryConfig = Record<string, never>;

/**
 * `system:item_query` feature type. Needs ITEM_CATALOG and ITEM_SOURCES (installation fails without them, so
 * the feature appears nowhere); registers its cards in CARDS when present. Its workflows: one item
 * (`system:item_query`) and the server's mods (`system:mods`).
 */
export const ITEM_QUERY_FEATURE: ServerModuleType<ItemQueryConfig> = {
  id: Identifier.parse("system:item_query"),
  config: codec(z.object({}).strict() as z.ZodType<ItemQueryConfig>),
  create: (id): ServerModule => ({
    id,
    type: ITEM_QUERY_FEATURE.id,
    enabledByDefault: true,
    toolModule: false,
    install(context: ServerModuleContext): void {
      const catalog = context.services.get(GameContextTypes.ITEM_CATALOG);
      const sources = context.services.get(GameContextTypes.ITEM_SOURCES);
      const cards = context.services.get(GameContextTypes.CARDS);
      registerCardType(cards, ITEM_CARD);
      registerCardType(cards, ITEM_NOT_FOUND_CARD);
      registerCardType(cards, MODS_CARD);
      registerCardType(cards, MOD_CARD);
      registerCardType(cards, MOD_NOT_FOUND_CARD);
      const tools = itemTools({ catalog, sources, owner: context.id });
      // one index of the item names for both workflows (it takes memory on a big pack)
      const index = new ItemTextIndex(catalog);
      context.engine.registerModule(new ItemQueryModule({ owner: context.id, catalog, tools, index }));
      // the server's mods (`/system mods`): what its content says, beside the items it adds
      const mods = new ServerMods(catalog);
      context.engine.registerModule(
        new ModsModule({
          owner: context.id,
          mods,
          tool: modsTool({ mods, owner: context.id }),
          items: index,
        }),
      );
    },
    storages: (): readonly AnyModuleStorage[] => [],
  }),
};
