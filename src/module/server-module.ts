import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { Failure } from "../agent/failure.js";
import type { AnyAgentModule } from "../agent/module/agent-module.js";
import type { ModuleContext } from "../agent/module/context-type.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import type { RoutingProfile } from "../agent/module/routing-profile.js";
import type { RoutingTable, SlotFactory } from "../agent/routing/routing-table.js";
import type { AnyModuleStorage } from "../agent/storage/module-storage.js";
import type { Tool } from "../agent/tool/tool.js";
import type { ToolLookup } from "../agent/tool/tool-registry.js";
import type { Codec, Json } from "../util/codec.js";
import type { Identifier } from "../util/identifier.js";

/**
 * What a feature registers into the engine while it installs. The ModuleManager stamps the feature as the owner
 * of every workflow and tool (a tool already owned by another feature keeps its owner); an infrastructure
 * feature's workflows stay unowned, so no grant can take them away.
 */
export interface FeatureRegistrar {
  registerModule(module: AnyAgentModule): void;
  registerTool<I, O>(tool: Tool<I, O>): void;
  registerEventType(id: string): void;
  /** Reject samples: texts (greetings, requests to act) that must never route directly to any workflow. */
  reject(id: Identifier | string, profile: RoutingProfile<unknown>): void;
  /**
   * Marks this feature's argument names in routed text (quest titles → `<quest>`, after the item mentions), so
   * samples written with the slot match any name. Taken at start; a reload keeps the recognizers of the start.
   */
  slots(factory: SlotFactory): void;
  /** Installed tools by type id (another feature's export, e.g. the knowledge base's `database.query`). */
  readonly tools: ToolLookup;
  /** The engine's workflows, for features that list them (help). */
  modules(): ModuleRegistry<RoutingTable>;
}

/** What a feature gets when it is installed: the registrar, injected services, its own id and config. */
export interface ServerModuleContext {
  readonly engine: FeatureRegistrar;
  readonly services: ModuleContext<AgentEngine, ModuleRegistry>;
  /** This feature's id (the data-pack entry id); workflows and tools it registers are owned by it. */
  readonly id: Identifier;
}

/**
 * An installable feature (ServerModule of the seeds): registers its workflows and tools into the engine once,
 * declares its player storages, and says whether players have it without an admin grant.
 */
export interface ServerModule {
  readonly id: Identifier;
  readonly type: Identifier;
  /** False: disabled until an admin grants it or a data pack enables it for everyone. */
  readonly enabledByDefault: boolean;
  /** True when the feature only exports tools (ToolModule): no workflow, no player entry point. */
  readonly toolModule: boolean;
  /**
   * True for the server's own commands (grant, reload, settings): its workflows have no owner, no grant takes
   * them away and it cannot be disabled. Every other feature owns what it registers.
   */
  readonly infrastructure?: boolean;
  install(context: ServerModuleContext): void;
  /**
   * Asked once install has run: what the feature still lacks on this server (no quest files), or undefined when it
   * has what it needs. A feature that lacks something has registered its entry points all the same and waits: it
   * appears nowhere (no player has it), each reload installs it again until it has what it needs, and a player who
   * types one of its commands meanwhile is told `failure`.
   */
  unavailable?(): FeatureAbsence | undefined;
  storages(): readonly AnyModuleStorage[];
  /** Releases what install opened (a database); called once at shutdown. */
  close?(): void | Promise<void>;
}

/** What a waiting feature lacks: a line for the log and the failure a player who types its commands is told. */
export interface FeatureAbsence {
  readonly reason: string;
  readonly failure: Failure;
}

/** A registered kind of feature: decodes its data-pack config and creates the ServerModule. */
export interface ServerModuleType<C> {
  readonly id: Identifier;
  readonly config: Codec<C>;
  create(id: Identifier, config: C): ServerModule;
}

export type AnyServerModuleType = ServerModuleType<unknown>;

/** One `system:system_module` data-pack entry as read from JSON. */
export interface SystemModuleEntry {
  readonly id: Identifier;
  readonly type: Identifier;
  readonly enabled: boolean;
  /** Overrides the type's default: enabled for every player without a grant. */
  readonly enabledByDefault: boolean | undefined;
  readonly server: Json;
  /** The panel's settings for this feature (labels, icons); kept as written and served to the panel. */
  readonly client: Json;
  /** Where the entry was read from, for log lines. */
  readonly source: string;
}

/**
 * Thrown by `install` when the feature has nothing to work on here (no quest files on this server): it is not
 * installed and appears nowhere, logged as information rather than as an error.
 */
export class FeatureUnavailableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "FeatureUnavailableError";
  }
}
