import { join } from "node:path";
import { AgentLifecycles } from "../agent/agent-lifecycle.js";
import { CardRegistry } from "../agent/card/card-registry.js";
import { AgentConfig } from "../agent/execution/agent-config.js";
import { AgentEngine } from "../agent/execution/agent-engine.js";
import { ConversationService } from "../agent/execution/conversation-service.js";
import { MemoryGenerations } from "../agent/execution/memory-generations.js";
import { TaskExecutor } from "../agent/execution/task-executor.js";
import type { ModelPort } from "../agent/model/model-client.js";
import { ModelConfig } from "../agent/model/model-config.js";
import { ModelGateway } from "../agent/model/model-gateway.js";
import { SemanticConfig } from "../agent/routing/semantic-config.js";
import type { AgentJournal } from "../agent/storage/agent-journal.js";
import type { AgentStore } from "../agent/storage/agent-store.js";
import { JournalStepRunner } from "../agent/storage/journal-step-runner.js";
import type { RunClaims } from "../agent/storage/run-claims.js";
import { observedModelPort } from "../agent/telemetry/observed-ports.js";
import { NO_TELEMETRY, type Telemetry } from "../agent/telemetry/telemetry.js";
import { isDatabaseUnavailable } from "../data/network/database-errors.js";
import { type OpenedStorage, openStorage } from "../data/network/open-storage.js";
import { PostgresAgentJournal } from "../data/network/postgres-agent-journal.js";
import { PostgresLeases } from "../data/network/postgres-leases.js";
import { PostgresRunClaims } from "../data/network/postgres-run-claims.js";
import { BUILTIN_PACK_ROOT, PromptStore } from "../data/prompts/prompt-store.js";
import { FileAgentJournal } from "../data/store/file-agent-journal.js";
import { FileAgentStore } from "../data/store/file-agent-store.js";
import { TICK_WRITE_DELAY_MILLIS } from "../data/store/file-agent-store-options.js";
import { FileConversationStore } from "../data/store/file-conversation-store.js";
import { ItemCatalog } from "../game/data/item-catalog.js";
import { ItemMentions } from "../game/data/item-mentions.js";
import { FeatureSwitches } from "../module/feature-switches.js";
import { AccessStore } from "../module/permissions/access-store.js";
import { Languages } from "../util/language.js";
import type { Logger } from "../util/logger.js";
import { DamagedPlayerFiles } from "./damaged-player-files.js";
import { PlayerDirectory } from "./player-directory.js";
import { loadServerContent } from "./server-content.js";

/** The game data version System reads (items, blocks, entities, loot). */
export const GAME_DATA_VERSION = "1.21.4";

/** Where one server keeps its files: config under `<dataDir>/config/system`, System data in `<world>/system`. */
export interface AssistantPaths {
  readonly dataDir: string;
  readonly world: string;
  /** Server data packs, later ones override earlier ones and the built-in pack. */
  readonly packRoots: readonly string[];
  /** The game server's folder the gateway stands in front of (ServerPaths.serverDir). */
  readonly serverDir?: string;
}

/** The infrastructure every feature shares, opened in dependency order. */
export interface AssistantInfrastructure {
  readonly paths: AssistantPaths;
  readonly logger: Logger;
  readonly agentConfig: AgentConfig;
  readonly modelConfig: ModelConfig;
  readonly semanticConfig: SemanticConfig;
  readonly access: AccessStore;
  /** The admin's server-wide feature switches (features.json). */
  readonly features: FeatureSwitches;
  readonly prompts: PromptStore;
  readonly languages: Languages;
  /** Where points, check-in days and model usage live (files, or a network's database). */
  readonly storage: OpenedStorage;
  /** Whether the assistant opened `storage` itself (and closes it); else its opener does. */
  readonly ownsStorage: boolean;
  readonly gateway: ModelGateway;
  /** The gateway as the engine and the router call it: every call recorded by `telemetry`. */
  readonly modelPort: ModelPort;
  /** What requests record (metrics and traces); records nothing unless the host configured it. */
  readonly telemetry: Telemetry;
  /** Write steps and event tasks: this server's files, or a network's database (shared by its servers). */
  readonly journal: AgentJournal;
  /** A network's claims of event runs (one server runs each); absent with files, where this server is alone. */
  readonly claims?: RunClaims;
  /** Player records and chat caches: this server's player files, or a network's database. */
  readonly store: AgentStore;
  /** The player files when `store` is them (damaged files are kept and restored there); absent on a network. */
  readonly playerFiles?: FileAgentStore;
  readonly generations: MemoryGenerations;
  readonly conversation: ConversationService;
  readonly engine: AgentEngine;
  /**
   * The game's items (ids, names in both languages) with the server's own content (`paths.serverDir`: mods,
   * datapacks, KubeJS) on top; routing marks their names as slots.
   */
  readonly catalog: ItemCatalog;
  readonly tasks: TaskExecutor;
  readonly lifecycles: AgentLifecycles;
  readonly cards: CardRegistry;
  readonly players: PlayerDirectory;
  /** Players whose file was found damaged, until an admin restores a mended copy. */
  readonly damaged: DamagedPlayerFiles;
}

/** Opens configs, stores, the model gateway and the engine for one server. */
export const openInfrastructure = async (options: {
  readonly paths: AssistantPaths;
  readonly logger: Logger;
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
  /** The storage the host opened (startSystem, the gateway); the files of `paths` when absent. */
  readonly storage?: OpenedStorage;
  readonly telemetry?: Telemetry;
}): Promise<AssistantInfrastructure> => {
  const { paths, logger } = options;
  const configDir = join(paths.dataDir, "config", "system");
  const systemDir = join(paths.world, "system");
  const agentConfig = new AgentConfig(join(configDir, "system-agent.json"), logger);
  const modelConfig = new ModelConfig({
    path: join(configDir, "model.json"),
    logger,
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  });
  const semanticConfig = new SemanticConfig(join(configDir, "semantic.json"), logger);
  const access = new AccessStore(join(configDir, "access.json"), logger);
  const features = new FeatureSwitches(join(configDir, "features.json"), logger);
  for (const config of [agentConfig, modelConfig, semanticConfig, access, features]) await config.reload();
  const roots = [BUILTIN_PACK_ROOT, ...paths.packRoots];
  const prompts = await PromptStore.load({ roots, logger });
  const languages = Languages.load(...roots);
  const now = options.now;
  const storage =
    options.storage ??
    (await openStorage({
      dataDir: paths.dataDir,
      world: paths.world,
      logger,
      environment: {},
      config: { backend: "files" },
      lock: false,
      ...(now === undefined ? {} : { now }),
    }));
  const gateway = new ModelGateway({
    client: undefined,
    store: storage.usage,
    logger,
    ...(now === undefined ? {} : { now }),
  });
  modelConfig.bind(gateway);
  const telemetry = options.telemetry ?? NO_TELEMETRY;
  const modelPort =
    telemetry === NO_TELEMETRY
      ? gateway
      : observedModelPort(gateway, telemetry, () => modelConfig.effective().model);
  const { journal, claims } = await openJournal(storage, join(systemDir, "journal"), logger);
  const tasks = new TaskExecutor();
  const players = new PlayerDirectory(join(systemDir, "known-players.json"), logger);
  const damaged = new DamagedPlayerFiles({
    path: join(systemDir, "damaged-players.json"),
    logger,
    now: now ?? Date.now,
    nameOf: (playerId) => players.nameOf(playerId),
  });
  const playerFiles =
    storage.players === undefined
      ? new FileAgentStore({
          world: paths.world,
          logger,
          // a damaged player file is kept aside before anything replaces it, and the admins are told
          onDamaged: (report) => damaged.report(report),
          // history is a cache: the turns of one second share a write (flushed on leave and shutdown)
          chatWriteDelayMillis: 1_000,
          // playtime ticks stay in memory; their file write is coalesced (a business write takes them at once)
          tickWriteDelayMillis: TICK_WRITE_DELAY_MILLIS,
          schedule: (task) => {
            tasks.maintenance
              .submit(() => task())
              .catch((error: unknown) => logger.error("coalesced player write failed", error));
          },
        })
      : undefined;
  const store: AgentStore = storage.players ?? (playerFiles as FileAgentStore);
  const generations = new MemoryGenerations();
  const conversation = new ConversationService({
    store: new FileConversationStore(store),
    generations,
    logger,
  });
  // One item catalog for routing slots and the item features.
  const catalog = ItemCatalog.forVersion(GAME_DATA_VERSION);
  await loadServerContent({ serverDir: paths.serverDir, world: paths.world, catalog, logger });
  const engine = new AgentEngine({
    config: agentConfig,
    slots: new ItemMentions(catalog),
    model: modelPort,
    steps: new JournalStepRunner(journal),
    telemetry,
    logger,
    // a network's database restarting: players are told to try again
    isStorageUnavailable: isDatabaseUnavailable,
    ...(now === undefined ? {} : { now }),
  });
  const lifecycles = new AgentLifecycles((hook, error) =>
    logger.error(`lifecycle hook ${hook} failed`, error),
  );
  lifecycles.register(conversation);
  await players.load();
  await damaged.load();
  return {
    paths,
    logger,
    agentConfig,
    modelConfig,
    semanticConfig,
    access,
    features,
    prompts,
    languages,
    storage,
    ownsStorage: options.storage === undefined,
    gateway,
    modelPort,
    telemetry,
    journal,
    ...(claims === undefined ? {} : { claims }),
    store,
    ...(playerFiles === undefined ? {} : { playerFiles }),
    generations,
    conversation,
    engine,
    catalog,
    tasks,
    lifecycles,
    cards: new CardRegistry(),
    players,
    damaged,
  };
};

/** The file journal of this server, or a network's journal in its database with claims of runs. */
const openJournal = async (
  storage: OpenedStorage,
  folder: string,
  logger: Logger,
): Promise<{ readonly journal: AgentJournal; readonly claims?: RunClaims }> => {
  const database = storage.database;
  if (database === undefined || storage.server === undefined)
    return { journal: await FileAgentJournal.open({ folder, logger }) };
  const journal = await PostgresAgentJournal.open({ pool: database.pool, logger });
  const leases = new PostgresLeases(database.pool, storage.server);
  const ttl = storage.leaseMillis === undefined ? {} : { ttlMillis: storage.leaseMillis };
  return { journal, claims: new PostgresRunClaims({ leases, journal, logger, ...ttl }) };
};
