import { join } from "node:path";
import type { AgentResult } from "../agent/agent-result.js";
import { MESSAGE_CARD } from "../agent/card/message-card.js";
import { SELECTION_CARD } from "../agent/card/selection-card.js";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import { EventExecutor } from "../agent/execution/event-executor.js";
import { EventRules } from "../agent/execution/event-rules.js";
import { InteractiveExecutor } from "../agent/execution/interactive-executor.js";
import { actionIdOfReplayKey } from "../agent/execution/replay-cache.js";
import { PromptNames } from "../agent/model/prompt-source.js";
import type { ContextType, ServiceContext } from "../agent/module/context-type.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import { HybridRouter } from "../agent/routing/hybrid-router.js";
import type { Telemetry } from "../agent/telemetry/telemetry.js";
import type { Text } from "../agent/text.js";
import type { OpenedStorage } from "../data/network/open-storage.js";
import { BUILTIN_PACK_ROOT } from "../data/prompts/prompt-store.js";
import { ChatReplayCache } from "../data/store/chat-replay-cache.js";
import type { GameClock } from "../game/context-types.js";
import type { GameBridge } from "../game/game-bridge.js";
import { GAME_EVENT_TYPES } from "../game/game-events.js";
import { PointsSources } from "../module/builtin/storage/points-sources.js";
import { ModuleManager } from "../module/module-manager.js";
import { PermissionService } from "../module/permissions/permission-service.js";
import type { AnyServerModuleType } from "../module/server-module.js";
import { readSystemModuleEntries } from "../module/system-module-entries.js";
import { SystemModuleTags } from "../module/system-module-tags.js";
import type { Logger } from "../util/logger.js";
import { AdvancementRules } from "./advancement-rules.js";
import {
  type AssistantInfrastructure,
  type AssistantPaths,
  openInfrastructure,
} from "./assistant-services.js";
import { moduleTypeRegistry } from "./builtin-module-types.js";
import { AssistantCoreServices, reloadSummary } from "./core-services-impl.js";
import { tellAdmins } from "./damaged-player-files.js";
import { featureServices, modeTargets } from "./pipeline-services.js";
import { PlayerStandings } from "./player-standing.js";
import { type RequestPayload, RequestPipeline } from "./request-pipeline.js";
import { loadServerContent } from "./server-content.js";
import { ProgressChannel } from "./thinking-indicator.js";

export interface AssistantServerOptions {
  readonly paths: AssistantPaths;
  readonly bridge: GameBridge;
  readonly logger: Logger;
  readonly extraTypes?: readonly AnyServerModuleType[];
  /** Extra services for extension features, by context type. */
  readonly services?: readonly [ContextType<unknown>, unknown][];
  /** Where `SYSTEM_MODEL_*` settings are read; the process environment when absent. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The server clock: days of daily features, usage days, game-event days and playtime (tests move it). */
  readonly clock: GameClock;
  /**
   * The storage the host opened from `storage.json` (open-storage.ts), closed by the host after the assistant;
   * the data folder's files when absent (tests and tools that build an assistant on their own).
   */
  readonly storage?: OpenedStorage;
  /** Hears every `/system reload` an admin runs here (a network tells its other servers). */
  readonly onReload?: () => void;
  /** Records requests as metrics and traces (the host's exporters); nothing when absent. */
  readonly telemetry?: Telemetry;
  /** Hears of a player whose event task began to wait here as they are not online (a network tells the others). */
  readonly onPlayerAway?: (playerId: string) => void;
}

/** The parts `create` builds, in dependency order. */
export interface AssistantParts {
  readonly infrastructure: AssistantInfrastructure;
  readonly modules: ModuleManager;
  readonly permissions: PermissionService;
  readonly router: HybridRouter;
  readonly pipeline: RequestPipeline;
  readonly interactive: InteractiveExecutor<RequestPayload>;
  readonly events: EventExecutor;
  readonly progress: ProgressChannel;
  /** The admin's advancement rules (advancements.json): which workflows game events start. */
  readonly advancements: AdvancementRules;
  readonly clock: GameClock;
  /** The services the core commands use (usage per player and day, access, modes). */
  readonly core: AssistantCoreServices;
  /** What features were installed with (tests of one feature read the services it got). */
  readonly services: ServiceContext<AgentEngine, ModuleRegistry>;
  /** Re-reads config files, prompts, data packs and advancements, as `/system reload` does. */
  readonly reload: () => Promise<Text>;
}

/**
 * Builds every service of one server in dependency order from explicit arguments: configs and stores, the
 * feature manager, permissions and standings, router, pipeline, executors, then the services features get, then
 * the features themselves. Nothing is attached later; a service a feature needs and nobody provides stops the
 * start naming both. `notify` receives settled event results (the event executor starts after assembly).
 */
export const assembleAssistant = async (
  options: AssistantServerOptions,
  notify: (playerId: string, result: AgentResult) => void,
): Promise<AssistantParts> => {
  const infrastructure = await openInfrastructure({
    paths: options.paths,
    logger: options.logger,
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    now: () => options.clock.now(),
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
  });
  const { engine, logger, generations, lifecycles } = infrastructure;
  const packRoots = [BUILTIN_PACK_ROOT, ...options.paths.packRoots];
  const modules = new ModuleManager({
    types: moduleTypeRegistry(options.extraTypes),
    engine,
    switches: infrastructure.features,
    tags: SystemModuleTags.read(packRoots, logger),
    logger,
  });
  const permissions = new PermissionService({ access: infrastructure.access, modules, lifecycles });
  const standings = new PlayerStandings({
    permissions,
    generations,
    modelConfigured: () => infrastructure.modelConfig.configured(),
    externalAllowed: async (playerId) => (await infrastructure.conversation.preferences(playerId)).external,
    quotaRefusal: (playerId) => infrastructure.gateway.quotaRefusal(playerId),
    modules: () => engine.modules(),
  });
  const policyOf = engine.policyOf.bind(engine);
  const availability = standings.availability;
  const router = new HybridRouter({
    modules: engine.modules(),
    settings: () => infrastructure.semanticConfig.get(),
    model: infrastructure.modelPort,
    system: () => infrastructure.prompts.get(PromptNames.ROUTER),
    availability,
    policyOf,
    now: () => options.clock.now(),
  });
  lifecycles.register({
    onPermissionChange: (playerId) => router.cache.invalidate(playerId),
    onRevoke: (playerId) => router.cache.invalidate(playerId),
    // memory follows the players online, not every player the server has seen
    onDisconnect: (playerId) => {
      router.cache.invalidate(playerId);
      permissions.forget(playerId);
    },
  });
  generations.onBump((playerId) => router.cache.invalidate(playerId));
  const progress = new ProgressChannel(infrastructure.languages);
  const pipeline = new RequestPipeline({
    engine,
    router,
    cards: infrastructure.cards,
    modes: modeTargets(engine),
    standings,
    conversation: infrastructure.conversation,
    generations,
    logger,
    progress,
    playerName: (playerId) => infrastructure.players.online(playerId)?.name,
  });
  const interactive = new InteractiveExecutor<RequestPayload>({
    pool: infrastructure.tasks.interactive,
    // repeated lines and history turns are timed by the server clock, like the replay window
    now: () => options.clock.now(),
    generations,
    conversation: infrastructure.conversation,
    // structured requests repeated within the window are answered from the chat file (survives a restart)
    replay: new ChatReplayCache({
      store: infrastructure.store,
      generations,
      windowMillis: () => infrastructure.agentConfig.replayWindowMillis(),
      logger,
      now: () => options.clock.now(),
    }),
    // a repeat reads as the workflow says a repeat reads ("already checked in today"), marked as a replay
    replayView: (key, stored) => engine.modules().get(actionIdOfReplayKey(key))?.replayed?.(stored) ?? stored,
    backgroundHistory: true,
    logger,
    handler: (request, signal, counters, earlierTurns) =>
      pipeline.run({
        earlierTurns,
        requestId: request.requestId,
        text: request.text,
        payload: request.payload ?? { kind: "text", command: { kind: "none" } },
        snapshot: permissions.snapshot(request.playerId),
        locale: request.locale,
        generation: request.generation,
        signal,
        counters,
      }),
  });
  let rules: EventRules | undefined;
  const events = new EventExecutor({
    engine,
    journal: infrastructure.journal,
    ...(infrastructure.claims === undefined ? {} : { claims: infrastructure.claims }),
    ...(options.onPlayerAway === undefined ? {} : { onAway: options.onPlayerAway }),
    pool: infrastructure.tasks.event,
    // features register their event workflows while installing, after the executor exists
    // features register their event workflows while installing; the table is built once the rules file is read
    rules: () => rules ?? new EventRules(),
    isOnline: (playerId) => options.bridge.isOnline(playerId),
    features: (playerId) => permissions.snapshot(playerId).features,
    standing: (playerId) => standings.of(playerId, generations.generation(playerId)),
    locale: (playerId) => infrastructure.players.online(playerId)?.locale ?? "en_us",
    // A task settles only after `events.start()`, which runs once the server below exists.
    onSettled: (task, result) => notify(task.playerId, result),
    // a reward the world cannot take now waits: the player hears it once, not at every attempt
    onDeferred: (task, result) => notify(task.playerId, result),
    logger,
  });
  tellAdmins({ damaged: infrastructure.damaged, players: infrastructure.players, lifecycles, notify });
  const advancements = new AdvancementRules({
    configDir: join(options.paths.dataDir, "config", "system"),
    engine,
    events,
    clock: options.clock,
    logger,
  });
  const reload = async () => {
    const configs = [
      ["system-agent.json", infrastructure.agentConfig],
      ["model.json", infrastructure.modelConfig],
      ["semantic.json", infrastructure.semanticConfig],
      ["access.json", infrastructure.access],
      ["features.json", infrastructure.features],
    ] as const;
    const kept: string[] = [];
    for (const [name, config] of configs) if (!(await config.reload())) kept.push(name);
    await infrastructure.prompts.reload();
    const packs = modules.applyEntries(
      readSystemModuleEntries(packRoots, logger),
      SystemModuleTags.read(packRoots, logger),
    );
    if (packs.applied.length > 0) logger.info(`data packs: ${packs.applied.join(", ")} changed on/off`);
    if (!(await advancements.load())) kept.push("advancements.json");
    rules = advancements.table();
    await loadServerContent({
      serverDir: infrastructure.paths.serverDir,
      world: infrastructure.paths.world,
      catalog: infrastructure.catalog,
      logger,
    });
    if (packs.restart.length > 0)
      logger.warn(
        `data packs: ${packs.restart.join(", ")} changed in a way that takes effect after a restart`,
      );
    await permissions.invalidateAll();
    // A feature a reload switched off ends its running requests like `/system feature disable`.
    pipeline.endFeatures(
      new Set(
        modules
          .installed()
          .flatMap((entry) => (modules.enabled(entry.module.id) ? [] : [entry.module.id.toString()])),
      ),
    );
    await events.resumeWaiting();
    logModel(infrastructure);
    return reloadSummary(
      [
        "config",
        "prompts",
        "access",
        "features",
        "data packs",
        "advancements",
        ...(infrastructure.paths.serverDir === undefined ? [] : ["server content"]),
      ],
      kept,
      packs.restart,
      packs.installed,
    );
  };
  const core = new AssistantCoreServices({
    infrastructure,
    permissions,
    interactive,
    router,
    modules,
    reload: async () => {
      const summary = await reload();
      options.onReload?.();
      return summary;
    },
    endFeatures: (features) => pipeline.endFeatures(features),
    events,
    standings,
  });
  infrastructure.cards.register(MESSAGE_CARD);
  infrastructure.cards.register(SELECTION_CARD);
  // who gives points: check-in sets its own when it installs; the rules' bonuses are read at each request
  const pointsSources = new PointsSources();
  pointsSources.set("advancements", () => advancements.earningWays());
  const services = featureServices({
    infrastructure,
    bridge: options.bridge,
    clock: options.clock,
    gameEvents: advancements,
    pointsSources,
    core,
    events,
    permissions,
    standings,
    availability,
    notices: notify,
    extra: options.services ?? [],
  });
  // game events are the host's and the features' reports; any event workflow may declare them
  for (const eventType of GAME_EVENT_TYPES) engine.registerEventType(eventType);
  modules.install(readSystemModuleEntries(packRoots, logger), services);
  engine.start();
  await advancements.load();
  rules = advancements.table();
  for (const twin of engine.modules().routes.nearDuplicates())
    logger.warn(
      `routing samples of ${twin.target} and ${twin.other} are near-identical (${JSON.stringify(twin.sample)} / ${JSON.stringify(twin.otherSample)}): neither routes directly on such text`,
    );
  infrastructure.cards.freeze();
  return {
    infrastructure,
    modules,
    permissions,
    router,
    pipeline,
    interactive,
    events,
    progress,
    advancements,
    clock: options.clock,
    core,
    services,
    reload,
  };
};

/** One line an admin reads at start and after every reload: which model, on which host. */
export const logModel = (infrastructure: AssistantInfrastructure): void => {
  const settings = infrastructure.modelConfig.effective();
  if (!infrastructure.modelConfig.configured()) {
    infrastructure.logger.info("model not configured: commands and local routes only");
    return;
  }
  let host = settings.baseUrl;
  try {
    host = new URL(settings.baseUrl).host;
  } catch {
    // an unparsable URL is shown as written
  }
  infrastructure.logger.info(`model configured: ${host}, ${settings.model}`);
};
