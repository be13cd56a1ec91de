import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { PLAYER_SWITCHES } from "../question/player-switches.js";
import { PROMPT_SOURCE } from "../question/question-services.js";
import { FREE_CHAT_CARD } from "./free-chat-card.js";
import { FreeChatModule } from "./free-chat-module.js";
import { cardRenderer } from "./workflow-outcome.js";

/** The free-chat feature: registers `system:free_chat` over the engine's installed workflows. */
export class FreeChatFeature implements ServerModule {
  readonly type = FREE_CHAT_FEATURE_TYPE_ID;
  readonly enabledByDefault = true;
  readonly toolModule = false;

  constructor(readonly id: Identifier) {}

  install(context: ServerModuleContext): void {
    const { engine, services } = context;
    const cards = services.get(GameContextTypes.CARDS);
    registerCardType(cards, FREE_CHAT_CARD);
    engine.registerModule(
      new FreeChatModule({
        owner: context.id,
        modules: () => engine.modules(),
        workflows: services.get(GameContextTypes.WORKFLOWS),
        availability: services.get(GameContextTypes.AVAILABILITY),
        notices: services.get(GameContextTypes.PLAYER_NOTICES),
        render: cardRenderer(cards, services.get(GameContextTypes.LANGUAGES)),
        switches: services.get(PLAYER_SWITCHES),
        prompts: services.get(PROMPT_SOURCE),
      }),
    );
  }

  storages(): readonly AnyModuleStorage[] {
    return [];
  }
}

export const FREE_CHAT_FEATURE_TYPE_ID = Identifier.parse("system:free_chat");

/** The `system:free_chat` feature type the built-in type registry lists. */
export const FREE_CHAT_FEATURE: ServerModuleType<unknown> = {
  id: FREE_CHAT_FEATURE_TYPE_ID,
  config: codec(z.object({}).passthrough()),
  create: (id) => new FreeChatFeature(id),
};
