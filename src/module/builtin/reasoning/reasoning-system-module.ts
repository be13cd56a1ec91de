import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { PLAYER_SWITCHES } from "../question/player-switches.js";
import { PROMPT_SOURCE } from "../question/question-services.js";
import { REASONING_CARD } from "./reasoning-card.js";
import { ReasoningModule } from "./reasoning-module.js";

export const REASONING_CONFIG = codec(z.object({}).passthrough());

/** The reasoning feature: registers `system:reasoning` over the engine's reasoning tools. */
export class ReasoningSystemModule implements ServerModule {
  readonly type = REASONING_MODULE_TYPE_ID;
  readonly enabledByDefault = true;
  readonly toolModule = false;

  constructor(readonly id: Identifier) {}

  install(context: ServerModuleContext): void {
    const { engine, services } = context;
    registerCardType(services.get(GameContextTypes.CARDS), REASONING_CARD);
    engine.registerModule(
      new ReasoningModule({
        owner: context.id,
        tools: engine.tools,
        switches: services.get(PLAYER_SWITCHES),
        prompts: services.get(PROMPT_SOURCE),
      }),
    );
  }

  storages(): readonly AnyModuleStorage[] {
    return [];
  }
}

export const REASONING_MODULE_TYPE_ID = Identifier.parse("system:reasoning");

/** The `system:reasoning` module type the built-in type registry lists. */
export const REASONING_MODULE_TYPE: ServerModuleType<unknown> = {
  id: REASONING_MODULE_TYPE_ID,
  config: REASONING_CONFIG,
  create: (id) => new ReasoningSystemModule(id),
};
