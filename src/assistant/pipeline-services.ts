import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { EventExecutor } from "../agent/execution/event-executor.js";
import type { AgentAction } from "../agent/module/action-type.js";
import { type ContextType, ServiceContext } from "../agent/module/context-type.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import type { Availability } from "../agent/routing/routing-player.js";
import { type GameClock, GameContextTypes, type PlayerNotices } from "../game/context-types.js";
import { gameData, ItemSources } from "../game/data/index.js";
import type { GameBridge } from "../game/game-bridge.js";
import { GAME_EVENTS, type GameEventSink } from "../game/game-events.js";
import { KILL_INTERESTS, KillInterests } from "../game/kill-interests.js";
import { CORE_SERVICES, type CoreServices } from "../module/builtin/core/core-services.js";
import { DELIVERIES } from "../module/builtin/deliveries/deliveries-service.js";
import { PLAYER_SWITCHES, type PlayerSwitches } from "../module/builtin/question/player-switches.js";
import { PROMPT_SOURCE } from "../module/builtin/question/question-services.js";
import { WEB_ACCESS, WebAccess } from "../module/builtin/search/web-access.js";
import { PlayerFilePoints } from "../module/builtin/storage/player-file-points.js";
import { POINTS_SOURCES, type PointsSources } from "../module/builtin/storage/points-sources.js";
import { CHECK_IN_CLAIMS, POINTS_ACCOUNTS } from "../module/builtin/storage/shared-state.js";
import type { PermissionService } from "../module/permissions/permission-service.js";
import { SERVER_PATHS } from "../module/server-paths.js";
import { type AssistantInfrastructure, GAME_DATA_VERSION } from "./assistant-services.js";
import type { PlayerStandings } from "./player-standing.js";
import type { ModeTargets } from "./request-pipeline.js";

/** The workflows plain text goes to in the `ask` and `full` execution modes (docs/execution-modes.md). */
export const MODE_WORKFLOWS = {
  ask: "system:question",
  full: "system:free_chat",
  chat: "system:chat",
} as const;

/** The game version whose item data System uses (the embedded server's version). */
export { GAME_DATA_VERSION };

/** Everything features may ask for, built before any feature installs; nothing is bound later. */
export interface FeatureServiceParts {
  readonly infrastructure: AssistantInfrastructure;
  readonly bridge: GameBridge;
  readonly clock: GameClock;
  /** Where features report game events (the advancement rules). */
  readonly gameEvents: GameEventSink;
  /** Who gives points and how (the earning card): the rules' bonuses, and each feature's own. */
  readonly pointsSources: PointsSources;
  readonly core: CoreServices;
  readonly events: EventExecutor;
  readonly permissions: PermissionService;
  readonly standings: PlayerStandings;
  readonly availability: Availability;
  /** Shows a card to an online player beside their request's reply. */
  readonly notices: PlayerNotices;
  /** Extension services, by context type. */
  readonly extra: readonly [ContextType<unknown>, unknown][];
}

/** The services features get through ModuleContext: each is the real service, never a stand-in. */
export const featureServices = (parts: FeatureServiceParts): ServiceContext<AgentEngine, ModuleRegistry> => {
  const { infrastructure, permissions, standings } = parts;
  const { engine } = infrastructure;
  const { catalog } = infrastructure;
  const switches: PlayerSwitches = {
    aiEnabled: (playerId) => standings.modelRefusal(permissions.snapshot(playerId)) === undefined,
    externalAllowed: async (playerId) => (await infrastructure.conversation.preferences(playerId)).external,
    featureEnabled: (playerId, featureId) => permissions.snapshot(playerId).features.has(featureId),
  };
  const services = new ServiceContext(engine, engine.modules())
    .provide(CORE_SERVICES, parts.core)
    .provide(SERVER_PATHS, {
      dataDir: infrastructure.paths.dataDir,
      world: infrastructure.paths.world,
      ...(infrastructure.paths.serverDir === undefined ? {} : { serverDir: infrastructure.paths.serverDir }),
    })
    .provide(GameContextTypes.GAME_BRIDGE, parts.bridge)
    .provide(WEB_ACCESS, new WebAccess())
    .provide(PLAYER_SWITCHES, switches)
    .provide(PROMPT_SOURCE, infrastructure.prompts)
    .provide(GameContextTypes.ITEM_CATALOG, catalog)
    .provide(GameContextTypes.ITEM_SOURCES, new ItemSources(gameData(GAME_DATA_VERSION), catalog))
    .provide(GameContextTypes.AGENT_STORE, infrastructure.store)
    .provide(POINTS_ACCOUNTS, infrastructure.storage.points ?? new PlayerFilePoints(infrastructure.store))
    .provide(POINTS_SOURCES, parts.pointsSources)
    .provide(GameContextTypes.EVENTS, parts.events)
    .provide(DELIVERIES, parts.events)
    .provide(GameContextTypes.CARDS, infrastructure.cards)
    .provide(GameContextTypes.LANGUAGES, infrastructure.languages)
    .provide(GameContextTypes.CLOCK, parts.clock)
    .provide(GAME_EVENTS, parts.gameEvents)
    .provide(GameContextTypes.LOGGER, infrastructure.logger)
    .provide(GameContextTypes.PERMISSION_LEVEL, (playerId: string) => permissions.snapshot(playerId).opLevel)
    .provide(GameContextTypes.AVAILABILITY, parts.availability)
    .provide(GameContextTypes.WORKFLOWS, engine)
    .provide(GameContextTypes.LIFECYCLES, infrastructure.lifecycles)
    .provide(GameContextTypes.PLAYER_NOTICES, parts.notices)
    .provide(KILL_INTERESTS, new KillInterests());
  // a network's shared check-in days; on one server check-in keeps them in the player files and its ledger file
  if (infrastructure.storage.checkIns !== undefined)
    services.provide(CHECK_IN_CLAIMS, infrastructure.storage.checkIns);
  for (const [type, service] of parts.extra) services.provide(type, service);
  return services;
};

/**
 * Which actions plain text becomes in the `ask` and `full` modes: the installed workflow with that action id
 * (input `{text}`), or none, and then the pipeline routes the text as in `routing` mode.
 */
export const modeTargets = (engine: AgentEngine): ModeTargets => {
  const target =
    (id: string, input: (text: string) => unknown) =>
    (text: string): AgentAction | undefined => {
      const module = engine.modules().get(id);
      if (module === undefined) return undefined;
      const decoded = module.action.codec.decode(input(text));
      return decoded.success ? module.action.action(decoded.value) : undefined;
    };
  // Plain text never opens the web: workflows that take `allowWeb` get false.
  const question = (text: string) => ({ text, allowWeb: false });
  return {
    ask: target(MODE_WORKFLOWS.ask, question),
    full: target(MODE_WORKFLOWS.full, question),
    chat: target(MODE_WORKFLOWS.chat, (text) => ({ text })),
  };
};
