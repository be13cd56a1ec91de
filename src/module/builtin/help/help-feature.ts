import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { HELP_CARD } from "./help-card.js";
import { HelpModule } from "./help-module.js";

/** The data-pack config of `system:help` (nothing yet; unknown fields are refused). */
export type HelpConfig = Record<string, never>;

/**
 * `system:help` feature type. Optional services: CARDS (registers `system:help`), LANGUAGES (translated
 * descriptions), PERMISSION_LEVEL (help of op-guarded commands),
 * AVAILABILITY (the host's routing filter).
 */
export const HELP_FEATURE: ServerModuleType<HelpConfig> = {
  id: Identifier.parse("system:help"),
  config: codec(z.object({}).strict() as z.ZodType<HelpConfig>),
  create: (id): ServerModule => ({
    id,
    type: HELP_FEATURE.id,
    enabledByDefault: true,
    toolModule: false,
    install(context: ServerModuleContext): void {
      const services = context.services;
      registerCardType(services.get(GameContextTypes.CARDS), HELP_CARD);
      const level = services.get(GameContextTypes.PERMISSION_LEVEL);
      context.engine.registerModule(
        new HelpModule({
          owner: context.id,
          modules: () => context.engine.modules(),
          languages: services.get(GameContextTypes.LANGUAGES),
          permissionLevel: level,
          availability: services.get(GameContextTypes.AVAILABILITY),
        }),
      );
    },
    storages: (): readonly AnyModuleStorage[] => [],
  }),
};
