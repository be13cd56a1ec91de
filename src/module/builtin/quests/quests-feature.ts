import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import { findQuestFolder, loadQuestBook } from "../../../data/quests/quest-loader.js";
import { readTeamProgress } from "../../../data/quests/team-progress.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { GAME_EVENTS } from "../../../game/game-events.js";
import { giveItemsTool } from "../../../game/tools/give-items-tool.js";
import { takeItemsTool } from "../../../game/tools/player-write-tools.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import { defineFeature } from "../../define-feature.js";
import { FeatureUnavailableError } from "../../server-module.js";
import { SERVER_PATHS } from "../../server-paths.js";
import { CORE_SERVICES } from "../core/core-services.js";
import { QUEST_ANNOUNCE_CARD, QuestAnnounceModule } from "./quest-announce.js";
import { QUEST_DETAIL_CARD, QUEST_LIST_CARD } from "./quest-cards.js";
import { QUEST_REWARD_EVENT, QuestClaimModule, QuestDeliveryModule } from "./quest-claim.js";
import { QUEST_CLAIM_CARD } from "./quest-claim-card.js";
import { TeamProgressImport } from "./quest-import.js";
import { forwardKills, QUEST_KILL_EVENT, QuestKillModule } from "./quest-kill.js";
import {
  QuestCheckModule,
  QuestCompleteModule,
  QuestDetailModule,
  QuestListModule,
} from "./quest-modules.js";
import { questProgressStorage } from "./quest-progress.js";
import { questTitleSlots } from "./quest-routing.js";
import { QuestService } from "./quest-service.js";
import {
  QUEST_HAND_IN_EVENT,
  QUEST_SUBMIT_CARD,
  QuestHandInModule,
  QuestSubmitModule,
} from "./quest-submit.js";
import { questTools } from "./quest-tools.js";

/** The data-pack config: where the pack's quest files are (relative to the data directory). */
export interface QuestsConfig {
  readonly folder: string;
  /** The folder holding FTB team progress (`ftbquests/`, `ftbteams/`); the world folder when absent. */
  readonly progress?: string | undefined;
}

const QUESTS_CONFIG = codec(
  z
    .object({
      folder: z.string().min(1).default("config/ftbquests/quests"),
      progress: z.string().min(1).optional(),
    })
    .strict() as z.ZodType<QuestsConfig>,
);

/**
 * `system:ftb_quests`: an FTB Quests book read from `<data-dir>/config/ftbquests/quests/` (configurable), with
 * progress System tracks per player, the tools `system:ftb.query|find|detail` (read-only, offered to reasoning)
 * and the workflows `/system quests`, `/system quest <…>` and the checkmark button. Without quest files it is not
 * installed and appears nowhere. Needs GAME_BRIDGE, AGENT_STORE, EVENTS, CORE_SERVICES, LOGGER, CLOCK and SERVER_PATHS; uses ITEM_CATALOG, CARDS.
 */
export const QUESTS_FEATURE = defineFeature<QuestsConfig>({
  id: Identifier.parse("system:ftb_quests"),
  config: QUESTS_CONFIG,
  create: ({ id, config }) => {
    const storage = questProgressStorage(id);
    let stopKills: (() => void) | undefined;
    return {
      install(context) {
        const services = context.services;
        const paths = services.get(SERVER_PATHS);
        const resolve = (path: string): string => (isAbsolute(path) ? path : join(paths.dataDir, path));
        const configured = resolve(config.folder);
        const folder = findQuestFolder(configured);
        if (folder === undefined)
          throw new FeatureUnavailableError(`no FTB Quests files (data.snbt) in ${configured}`);
        const loaded = loadQuestBook(folder);
        const logger = services.get(GameContextTypes.LOGGER);
        for (const error of loaded.errors.slice(0, 20))
          logger.warn(`quests ${error.file}:${error.line}: ${error.message}`);
        const counts = loaded.book.counts();
        logger.info(
          `quests: ${counts.chapters} chapters, ${counts.quests} quests from ${folder}${loaded.errors.length === 0 ? "" : ` (${loaded.errors.length} errors)`}`,
        );
        const progressFolder = config.progress === undefined ? paths.world : resolve(config.progress);
        const teams = readTeamProgress(progressFolder);
        for (const error of teams.errors.slice(0, 20))
          logger.warn(
            `quest progress ${error.file}${error.line === undefined ? "" : `:${error.line}`}: ${error.message}`,
          );
        if (teams.players.size > 0)
          logger.info(
            `quests: FTB team progress of ${teams.players.size} players to import from ${progressFolder}`,
          );
        const clock = services.get(GameContextTypes.CLOCK);
        const service = new QuestService({
          book: loaded.book,
          store: services.get(GameContextTypes.AGENT_STORE),
          storage,
          bridge: services.get(GameContextTypes.GAME_BRIDGE),
          catalog: services.find(GameContextTypes.ITEM_CATALOG),
          languages: services.find(GameContextTypes.LANGUAGES),
          teamProgress: teams.players.size === 0 ? undefined : new TeamProgressImport(loaded.book, teams),
          now: () => clock.now(),
          gameEvents: services.get(GAME_EVENTS),
        });
        const cards = services.get(GameContextTypes.CARDS);
        registerCardType(cards, QUEST_LIST_CARD);
        registerCardType(cards, QUEST_DETAIL_CARD);
        registerCardType(cards, QUEST_CLAIM_CARD);
        registerCardType(cards, QUEST_ANNOUNCE_CARD);
        context.engine.registerModule(new QuestAnnounceModule(id, service));
        const tools = questTools(service);
        context.engine.registerModule(new QuestListModule(service, tools));
        context.engine.registerModule(new QuestDetailModule(service, tools));
        context.engine.slots(questTitleSlots(loaded.book));
        context.engine.registerModule(new QuestCheckModule(service));
        context.engine.registerModule(new QuestCompleteModule(service, services.get(CORE_SERVICES)));
        const claims = {
          owner: id,
          service,
          store: services.get(GameContextTypes.AGENT_STORE),
          storage,
          events: services.get(GameContextTypes.EVENTS),
          random: Math.random,
        };
        registerCardType(cards, QUEST_SUBMIT_CARD);
        const submits = { ...claims, now: () => clock.now() };
        context.engine.registerEventType(QUEST_HAND_IN_EVENT);
        context.engine.registerModule(new QuestSubmitModule(submits));
        context.engine.registerModule(
          new QuestHandInModule(
            submits,
            takeItemsTool({ bridge: services.get(GameContextTypes.GAME_BRIDGE), owner: id }),
          ),
        );
        context.engine.registerEventType(QUEST_KILL_EVENT);
        context.engine.registerModule(new QuestKillModule(service));
        stopKills = forwardKills({
          owner: id,
          service,
          events: services.get(GameContextTypes.EVENTS),
          onKill: (listener) => services.get(GameContextTypes.GAME_BRIDGE).onKill(listener),
          failed: (error) => logger.warn(`a kill was not counted: ${String(error)}`),
        });
        context.engine.registerEventType(QUEST_REWARD_EVENT);
        const claimModule = new QuestClaimModule(claims);
        context.engine.registerModule(claimModule);
        // what a crash left between two writes is finished at the next join: a claim recorded whose delivery
        // was never queued, and a completion announced whose game event was never reported
        const lifecycles = services.get(GameContextTypes.LIFECYCLES);
        lifecycles.register({ onJoin: (playerId) => claimModule.requeue(playerId) });
        lifecycles.register({ onJoin: (playerId) => service.reportPending(playerId) });
        context.engine.registerModule(
          new QuestDeliveryModule(
            claims,
            giveItemsTool({ bridge: services.get(GameContextTypes.GAME_BRIDGE), owner: id }),
          ),
        );
      },
      close() {
        stopKills?.();
        stopKills = undefined;
      },
      storages: [storage],
    };
  },
});
