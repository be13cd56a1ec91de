import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import type { Tool } from "../../../agent/tool/tool.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import {
  DATABASE_QUERY,
  type DatabaseQueryInput,
  type DatabaseQueryOutput,
  databaseQueryTool,
} from "../knowledge/database-query-tool.js";
import { KNOWLEDGE_STORE } from "../knowledge/knowledge-module.js";
import { WEB_ACCESS } from "../search/web-access.js";
import { WEB_SEARCH } from "../search/web-tools.js";
import { ANSWER_CARD } from "./answer-card.js";
import { CHAT_CARD, ChatModule } from "./chat-module.js";
import { PLAYER_SWITCHES } from "./player-switches.js";
import { QuestionModule } from "./question-module.js";
import { PROMPT_SOURCE } from "./question-services.js";
import { RecipeQuestions } from "./recipe-question.js";

const WEB_REQUESTS = "system:web_request";
const WEB_SAMPLES = RoutingProfile.hints(
  ["上网搜一下", "帮我在网上查查", "百度一下", "用谷歌搜索", "网上搜最新的版本更新", "搜一下网上的攻略"],
  [
    "search the web for",
    "google it",
    "look it up online",
    "search online for the latest update",
    "find a website about",
    "what does the internet say about",
  ],
);

export const QUESTION_CONFIG = codec(z.object({}).passthrough());

/**
 * The question feature: registers `system:question` with the shared `database.query` (the knowledge feature's
 * instance, or one over the injected store) and the injected WebAccess, player switches and prompts.
 */
export class QuestionSystemModule implements ServerModule {
  readonly type = QUESTION_MODULE_TYPE_ID;
  readonly enabledByDefault = true;
  readonly toolModule = false;

  constructor(readonly id: Identifier) {}

  install(context: ServerModuleContext): void {
    const { engine, services } = context;
    registerCardType(services.get(GameContextTypes.CARDS), ANSWER_CARD);
    registerCardType(services.get(GameContextTypes.CARDS), CHAT_CARD);
    // extension chat: the routing mode's one plain reply when no workflow fits
    engine.registerModule(new ChatModule(context.id, services.get(PROMPT_SOURCE)));
    const catalog = services.find(GameContextTypes.ITEM_CATALOG);
    const registered = engine.tools.get(DATABASE_QUERY.id);
    const store = services.find(KNOWLEDGE_STORE);
    const databaseQuery =
      (registered as unknown as Tool<DatabaseQueryInput, DatabaseQueryOutput> | undefined) ??
      (store === undefined ? undefined : databaseQueryTool(store));
    if (databaseQuery === undefined)
      throw new Error("system:question needs the knowledge feature or a knowledge store");
    engine.registerModule(
      new QuestionModule({
        owner: context.id,
        databaseQuery,
        switches: services.get(PLAYER_SWITCHES),
        prompts: services.get(PROMPT_SOURCE),
        access: services.get(WEB_ACCESS),
        searchOwner: () => engine.tools.get(WEB_SEARCH.id)?.owner?.toString(),
        recipes: catalog === undefined ? undefined : new RecipeQuestions(catalog),
      }),
    );
    // Web searches are asked for with /search; in plain text they never route directly to the knowledge base.
    if (!engine.modules().routes.rejects().has(WEB_REQUESTS))
      engine.modules().reject(WEB_REQUESTS, WEB_SAMPLES);
  }

  storages(): readonly AnyModuleStorage[] {
    return [];
  }
}

export const QUESTION_MODULE_TYPE_ID = Identifier.parse("system:question");

/** The `system:question` module type the built-in type registry lists. */
export const QUESTION_MODULE_TYPE: ServerModuleType<unknown> = {
  id: QUESTION_MODULE_TYPE_ID,
  config: QUESTION_CONFIG,
  create: (id) => new QuestionSystemModule(id),
};
