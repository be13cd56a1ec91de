import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import { customFailure } from "../../../agent/failure.js";
import { FtbProgressFiles, inspectServerFolder } from "../../../data/quests/ftb-server-folder.js";
import { QuestBook } from "../../../data/quests/quest-book.js";
import { findQuestFolder, loadQuestBook } from "../../../data/quests/quest-loader.js";
import { readTeamProgress, type TeamProgressRead } from "../../../data/quests/team-progress.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { GAME_EVENTS } from "../../../game/game-events.js";
import { KILL_INTERESTS } from "../../../game/kill-interests.js";
import { giveItemsTool } from "../../../game/tools/give-items-tool.js";
import { takeItemsTool } from "../../../game/tools/player-write-tools.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { Logger } from "../../../util/logger.js";
import { defineFeature } from "../../define-feature.js";
import type { FeatureAbsence } from "../../server-module.js";
import { SERVER_PATHS, type ServerPaths } from "../../server-paths.js";
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

/** What a player who types a quest command is told while the server has no quest files. */
const NO_QUEST_BOOK = customFailure("NO_QUEST_BOOK", "system.quests.no_book");

/** The book of a server without quest files: no chapter, no quest. */
const emptyBook = (): QuestBook => new QuestBook({ key: "" }, [], new Map(), new Map(), "en_us");

/**
 * `system:ftb_quests`: an FTB Quests book read from `<data-dir>/config/ftbquests/quests/` (configurable), with
 * progress System tracks per player, the tools `system:ftb.query|find|detail` (read-only, offered to reasoning)
 * and the workflows `/system quests`, `/system quest <…>` and the checkmark button. Without quest files it waits
 * (`unavailable`): it appears nowhere, its commands say the server has no quest book, and the `/system reload`
 * that finds quest files installs it. Needs GAME_BRIDGE, AGENT_STORE, EVENTS, CORE_SERVICES, LOGGER, CLOCK and SERVER_PATHS; uses ITEM_CATALOG, CARDS.
 */
export const QUESTS_FEATURE = defineFeature<QuestsConfig>({
  id: Identifier.parse("system:ftb_quests"),
  config: QUESTS_CONFIG,
  create: ({ id, config }) => {
    const storage = questProgressStorage(id);
    let stopKills: (() => void) | undefined;
    let stopInterest: (() => void) | undefined;
    let absence: FeatureAbsence | undefined;
    return {
      unavailable: () => absence,
      install(context) {
        const services = context.services;
        const paths = services.get(SERVER_PATHS);
        // in front of a game server (the gateway's serverDir) its files are read there, else in the data directory
        const base = paths.serverDir ?? paths.dataDir;
        const resolve = (path: string): string => (isAbsolute(path) ? path : join(base, path));
        const configured = resolve(config.folder);
        const folder = findQuestFolder(configured);
        const logger = services.get(GameContextTypes.LOGGER);
        const keeper = folder === undefined ? undefined : progressKeeper(paths, config, resolve, logger);
        // without quest files the workflows are registered all the same (over an empty book), so that the
        // reload which finds the files can swap the real ones in; until then no player has the feature
        if (folder === undefined)
          absence = { reason: `no FTB Quests files (data.snbt) in ${configured}`, failure: NO_QUEST_BOOK };
        const book = folder === undefined ? emptyBook() : loadBook(folder, logger);
        const teams =
          keeper === undefined || keeper.mod !== undefined ? undefined : readTeams(keeper.world, logger);
        const clock = services.get(GameContextTypes.CLOCK);
        const service = new QuestService({
          book,
          store: services.get(GameContextTypes.AGENT_STORE),
          storage,
          bridge: services.get(GameContextTypes.GAME_BRIDGE),
          catalog: services.find(GameContextTypes.ITEM_CATALOG),
          languages: services.find(GameContextTypes.LANGUAGES),
          teamProgress:
            teams === undefined || teams.players.size === 0 ? undefined : new TeamProgressImport(book, teams),
          modProgress: keeper?.mod,
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
        context.engine.slots(questTitleSlots(book));
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
        if (folder !== undefined)
          stopInterest = services
            .find(KILL_INTERESTS)
            ?.register((playerId) => service.huntedEntities(playerId));
        context.engine.registerEventType(QUEST_REWARD_EVENT);
        const claimModule = new QuestClaimModule(claims);
        context.engine.registerModule(claimModule);
        // what a crash left between two writes is finished at the next join: a claim recorded whose delivery
        // was never queued, and a completion announced whose game event was never reported
        if (folder !== undefined) {
          const lifecycles = services.get(GameContextTypes.LIFECYCLES);
          lifecycles.register({ onJoin: (playerId) => claimModule.requeue(playerId) });
          lifecycles.register({ onJoin: (playerId) => service.reportPending(playerId) });
        }
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
        stopInterest?.();
        stopInterest = undefined;
      },
      storages: [storage],
    };
  },
});

/** The quest book of a folder; what could not be read is logged (file and line) and the rest loads. */
const loadBook = (folder: string, logger: Logger): QuestBook => {
  const loaded = loadQuestBook(folder);
  for (const error of loaded.errors.slice(0, 20))
    logger.warn(`quests ${error.file}:${error.line}: ${error.message}`);
  const counts = loaded.book.counts();
  logger.info(
    `quests: ${counts.chapters} chapters, ${counts.quests} quests from ${folder}${loaded.errors.length === 0 ? "" : ` (${loaded.errors.length} errors)`}`,
  );
  return loaded.book;
};

/**
 * Who keeps quest progress: the FTB Quests mod when System stands in front of a server whose folder holds it (its
 * progress is then read from the world, read-only, again after each save), else System (importing the FTB team
 * progress a world folder holds once per player). The choice is logged as the start line says it.
 */
const progressKeeper = (
  paths: ServerPaths,
  config: QuestsConfig,
  resolve: (path: string) => string,
  logger: Logger,
): { readonly world: string; readonly mod?: FtbProgressFiles } => {
  const server = paths.serverDir === undefined ? undefined : inspectServerFolder(paths.serverDir);
  const world = config.progress === undefined ? (server?.world ?? paths.world) : resolve(config.progress);
  if (server === undefined) return { world };
  if (server.progress === "system") {
    logger.info(`quests: System keeps quest progress and rewards (no FTB Quests mod in ${server.serverDir})`);
    return { world };
  }
  logger.info(
    `quests: the FTB Quests mod keeps quest progress and rewards; System reads it from ${world} (read-only) and delivers no quest reward`,
  );
  const mod = new FtbProgressFiles(world, (read) => {
    for (const error of read.errors.slice(0, 20))
      logger.warn(
        `quest progress ${error.file}${error.line === undefined ? "" : `:${error.line}`}: ${error.message}`,
      );
  });
  return { world, mod };
};

/** FTB team progress to import from a folder (the world's by default); unreadable files are logged. */
const readTeams = (folder: string, logger: Logger): TeamProgressRead => {
  const teams = readTeamProgress(folder);
  for (const error of teams.errors.slice(0, 20))
    logger.warn(
      `quest progress ${error.file}${error.line === undefined ? "" : `:${error.line}`}: ${error.message}`,
    );
  if (teams.players.size > 0)
    logger.info(`quests: FTB team progress of ${teams.players.size} players to import from ${folder}`);
  return teams;
};
