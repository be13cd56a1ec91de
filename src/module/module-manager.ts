import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { Failure } from "../agent/failure.js";
import { MissingServiceError, type ModuleContext } from "../agent/module/context-type.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import type { AnyModuleStorage } from "../agent/storage/module-storage.js";
import type { Json } from "../util/codec.js";
import type { Identifier } from "../util/identifier.js";
import type { Logger } from "../util/logger.js";
import type { Registry } from "../util/registry.js";
import { featureRegistrar, stagingRegistrar } from "./feature-registrar.js";
import type { FeatureSwitches } from "./feature-switches.js";
import {
  type AnyServerModuleType,
  type FeatureAbsence,
  FeatureUnavailableError,
  type ServerModule,
  type SystemModuleEntry,
} from "./server-module.js";
import type { SystemModuleTags } from "./system-module-tags.js";

/** An installed feature with the data-pack entry it came from. */
export interface InstalledModule {
  readonly module: ServerModule;
  readonly entry: SystemModuleEntry;
  /** Players have it without a grant (the entry's `enabled_by_default`, else the type's default). */
  readonly enabledByDefault: boolean;
}

/** One feature as `/system feature list` and the panel show it. */
export interface FeatureStatus {
  readonly id: string;
  readonly type: string;
  /** On for the server now (infrastructure always is). */
  readonly enabled: boolean;
  readonly enabledByDefault: boolean;
  readonly infrastructure: boolean;
  /** The admin's switch from features.json; undefined when the data pack decides. */
  readonly switched: boolean | undefined;
  /** The entry's `client` block, kept as written for the panel. */
  readonly client: Json;
}

export type SwitchOutcome = "changed" | "unchanged" | "unknown" | "infrastructure";

/** A feature that installed without what it needs here (no quest files): registered, but in no snapshot. */
interface WaitingModule {
  readonly module: ServerModule;
  readonly entry: SystemModuleEntry;
  readonly absence: FeatureAbsence;
}

/** What a reload of the data packs did: switches applied now, entries whose change needs a restart. */
export interface PackReload {
  readonly applied: readonly string[];
  readonly restart: readonly string[];
  /** Features that were waiting for what they lacked (quest files) and are installed now. */
  readonly installed: readonly string[];
}

/**
 * Installs features from `system:system_module` entries into the engine (tool modules first, then workflows)
 * and owns their lifecycle afterwards. Every entry is installed, on or off: a feature that is off (its entry
 * says `enabled: false`, or an admin switched it off in features.json) is in no player's permission snapshot,
 * so it is absent from commands, help, completions, routing, the model catalog and tool lookups at once, and
 * its stored data stays. A feature whose type is unknown, whose config is invalid or whose install throws is
 * not installed at all.
 */
export class ModuleManager {
  readonly #installed = new Map<string, InstalledModule>();
  /** Features waiting for what they lack (`ServerModule.unavailable`); each reload installs them again. */
  readonly #waiting = new Map<string, WaitingModule>();
  /** Workflows an infrastructure feature registered without owner: the only unowned ones allowed. */
  readonly #unowned = new Set<string>();
  #tags: SystemModuleTags;
  /** The services features were installed with (a reload installs changed entries with the same). */
  #services: ModuleContext<AgentEngine, ModuleRegistry> | undefined;

  constructor(
    private readonly options: {
      readonly types: Registry<AnyServerModuleType>;
      readonly engine: AgentEngine;
      readonly switches: FeatureSwitches;
      readonly tags: SystemModuleTags;
      readonly logger: Logger;
    },
  ) {
    this.#tags = options.tags;
  }

  /** Installs the entries with the services the assembly built for features (once, before the engine starts). */
  install(entries: readonly SystemModuleEntry[], services: ModuleContext<AgentEngine, ModuleRegistry>): void {
    this.#services = services;
    const created: { entry: SystemModuleEntry; module: ServerModule }[] = [];
    for (const entry of entries) {
      const type = this.options.types.get(entry.type);
      if (type === undefined) {
        this.options.logger.warn(`feature ${entry.id}: unknown module type ${entry.type}; not installed`);
        continue;
      }
      const config = type.config.decode(entry.server);
      if (!config.success) {
        this.options.logger.warn(
          `feature ${entry.id}: invalid server config (${config.error}); not installed`,
        );
        continue;
      }
      created.push({ entry, module: type.create(entry.id, config.value) });
    }
    // the server's own commands first, so a feature that reuses one of their aliases loses only that alias
    const ordered = [
      ...created.filter((item) => item.module.infrastructure === true),
      ...created.filter((item) => item.module.infrastructure !== true && item.module.toolModule),
      ...created.filter((item) => item.module.infrastructure !== true && !item.module.toolModule),
    ];
    const engine = this.options.engine;
    const commands = engine.modules().commands();
    for (const { entry, module } of ordered) {
      const droppedBefore = commands.dropped().length;
      try {
        module.install({ engine: featureRegistrar(engine, module, this.#unowned), services, id: entry.id });
        for (const lost of commands.dropped().slice(droppedBefore))
          this.options.logger.warn(
            `feature ${entry.id}: command alias "${lost.alias}" of ${lost.module.id} is the server's own (${lost.holder.id}); ${lost.module.id} is installed without it`,
          );
      } catch (error) {
        // A service the assembly does not provide is a wiring error: the server must not start without it.
        if (error instanceof MissingServiceError)
          throw new Error(
            `feature ${entry.id} needs the service ${error.service}, which the server does not provide`,
          );
        if (error instanceof FeatureUnavailableError) {
          this.options.logger.info(`feature ${entry.id} is not installed: ${error.message}`);
          continue;
        }
        // One line an admin can act on: what is wrong, not a stack.
        const reason = error instanceof Error ? error.message : String(error);
        this.options.logger.error(`feature ${entry.id} failed to install; not installed: ${reason}`);
        continue;
      }
      const absence = module.unavailable?.();
      if (absence !== undefined) {
        this.#waiting.set(entry.id.toString(), { module, entry, absence });
        this.options.logger.info(
          `feature ${entry.id} is not installed: ${absence.reason} (a /system reload installs it once there)`,
        );
        continue;
      }
      this.#installed.set(entry.id.toString(), {
        module,
        entry,
        enabledByDefault: entry.enabledByDefault ?? module.enabledByDefault,
      });
      if (!this.enabled(entry.id)) this.options.logger.info(`feature ${entry.id} is installed and off`);
    }
    for (const workflow of engine.modules().values())
      if (workflow.owner === undefined && !this.#unowned.has(workflow.id.toString()))
        throw new Error(
          `workflow ${workflow.id} has no owner: register it through a feature (which owns it), or from a feature that declares itself infrastructure`,
        );
  }

  installed(): InstalledModule[] {
    return [...this.#installed.values()];
  }

  get(id: Identifier | string): InstalledModule | undefined {
    return this.#installed.get(id.toString());
  }

  isInstalled(id: Identifier | string): boolean {
    return this.#installed.has(id.toString());
  }

  /**
   * What a player is told for a line that names a command of a feature waiting for what it lacks (`/system quests`
   * on a server without quest files); undefined for any other line.
   */
  waitingCommand(text: string): Failure | undefined {
    const owner = this.options.engine.modules().commands().moduleOfLine(text)?.owner;
    return owner === undefined ? undefined : this.#waiting.get(owner.toString())?.absence.failure;
  }

  /** Whether the feature is on for the server now: the admin's switch, else its data-pack entry. */
  enabled(id: Identifier | string): boolean {
    const installed = this.#installed.get(id.toString());
    if (installed === undefined) return false;
    if (installed.module.infrastructure === true) return true;
    return this.options.switches.of(id.toString()) ?? installed.entry.enabled;
  }

  /** Every installed feature by id. */
  statuses(): FeatureStatus[] {
    const sorted = this.installed().sort((left, right) =>
      left.module.id.toString().localeCompare(right.module.id.toString()),
    );
    return sorted.map(({ module, entry, enabledByDefault }) => ({
      id: module.id.toString(),
      type: module.type.toString(),
      enabled: this.enabled(module.id),
      enabledByDefault,
      infrastructure: module.infrastructure === true,
      switched: this.options.switches.of(module.id.toString()),
      client: entry.client,
    }));
  }

  /**
   * Switches a feature on or off for the whole server and persists it (features.json). The caller refreshes
   * permission snapshots and ends the feature's running requests.
   */
  async setEnabled(id: string, enabled: boolean): Promise<SwitchOutcome> {
    const installed = this.#installed.get(id);
    if (installed === undefined) return "unknown";
    if (installed.module.infrastructure === true) return "infrastructure";
    const before = this.enabled(id);
    await this.options.switches.switch(id, enabled);
    return before === enabled ? "unchanged" : "changed";
  }

  /** The installed feature ids a reference names: an id, or `#namespace:path` for a system_module tag. */
  resolve(reference: string): string[] | undefined {
    const ids = this.#tags.resolve(reference.trim());
    if (ids === undefined) return undefined;
    const installed = ids.filter((id) => this.#installed.has(id));
    if (!reference.trim().startsWith("#") && installed.length === 0) return undefined;
    return installed;
  }

  /** The tag ids admins may name (`#` + id), for completions. */
  tags(): string[] {
    return this.#tags.ids();
  }

  /**
   * Applies re-read data packs. `enabled` and `enabled_by_default` change at once. A changed `server` block, or a
   * new entry of an installed type, is installed again and swapped in when it configures the same workflows and
   * tools (entry points are fixed at start); requests already running finish on the old configuration. A new
   * type, a changed type, new workflows or a feature holding resources opened at start (a database) need a
   * restart; a removed entry is switched off at once.
   */
  applyEntries(entries: readonly SystemModuleEntry[], tags: SystemModuleTags): PackReload {
    this.#tags = tags;
    const applied: string[] = [];
    const restart: string[] = [];
    const installed: string[] = [];
    const next = new Map(entries.map((entry) => [entry.id.toString(), entry]));
    for (const [id, installed] of this.#installed) {
      const entry = next.get(id);
      if (entry === undefined) {
        if (installed.module.infrastructure !== true && installed.entry.enabled) {
          this.#installed.set(id, { ...installed, entry: { ...installed.entry, enabled: false } });
          applied.push(id);
        }
        continue;
      }
      if (!entry.type.equals(installed.entry.type)) {
        this.options.logger.warn(`feature ${id}: its type changed; takes effect after a restart`);
        restart.push(id);
        continue;
      }
      if (JSON.stringify(entry.server) !== JSON.stringify(installed.entry.server)) {
        const module = this.#reconfigure(entry, installed.module);
        if (module === undefined || module === "unavailable") restart.push(id);
        else {
          this.#installed.set(id, {
            module,
            entry,
            enabledByDefault: entry.enabledByDefault ?? module.enabledByDefault,
          });
          applied.push(id);
        }
        continue;
      }
      const enabledByDefault = entry.enabledByDefault ?? installed.module.enabledByDefault;
      if (entry.enabled !== installed.entry.enabled || enabledByDefault !== installed.enabledByDefault)
        applied.push(id);
      this.#installed.set(id, { module: installed.module, entry, enabledByDefault });
    }
    for (const [id, waiting] of this.#waiting) {
      const entry = next.get(id);
      if (entry === undefined) continue;
      const module = this.#reconfigure(entry, waiting.module);
      if (module === "unavailable") continue;
      if (module === undefined) restart.push(id);
      else {
        this.#waiting.delete(id);
        this.#installed.set(id, {
          module,
          entry,
          enabledByDefault: entry.enabledByDefault ?? module.enabledByDefault,
        });
        applied.push(id);
        installed.push(id);
        this.options.logger.info(`feature ${id} is installed`);
      }
    }
    for (const [id, entry] of next) {
      if (this.#installed.has(id) || this.#waiting.has(id)) continue;
      const module = this.#reconfigure(entry, undefined);
      if (module === "unavailable") continue;
      if (module === undefined) restart.push(id);
      else {
        this.#installed.set(id, {
          module,
          entry,
          enabledByDefault: entry.enabledByDefault ?? module.enabledByDefault,
        });
        applied.push(id);
      }
    }
    return { applied: applied.sort(), restart: restart.sort(), installed: installed.sort() };
  }

  /**
   * Installs `entry` again (or for the first time) after start; undefined, logged, when it needs a restart;
   * `unavailable` when it has nothing to work on here (no quest files), as at start. A waiting feature's earlier
   * install is closed once the new one has taken its place.
   */
  #reconfigure(
    entry: SystemModuleEntry,
    previous: ServerModule | undefined,
  ): ServerModule | "unavailable" | undefined {
    const refuse = (reason: string): undefined => {
      this.options.logger.warn(`feature ${entry.id}: ${reason}; takes effect after a restart`);
      return undefined;
    };
    const type = this.options.types.get(entry.type);
    if (type === undefined) return refuse(`unknown module type ${entry.type}`);
    const config = type.config.decode(entry.server);
    if (!config.success) return refuse(`invalid server config (${config.error})`);
    const waiting = this.#waiting.get(entry.id.toString())?.module === previous && previous !== undefined;
    if (previous?.close !== undefined && !waiting) return refuse("it holds resources opened at start");
    const services = this.#services;
    if (services === undefined) return refuse("features were never installed");
    const module = type.create(entry.id, config.value);
    if (module.infrastructure === true) return refuse("it belongs to the server itself");
    const engine = this.options.engine;
    const { registrar, staged } = stagingRegistrar(engine, module);
    const release = (reason: string): undefined => {
      void Promise.resolve(module.close?.()).catch(() => {});
      return refuse(reason);
    };
    try {
      module.install({ engine: registrar, services, id: entry.id });
    } catch (error) {
      if (error instanceof FeatureUnavailableError) {
        void Promise.resolve(module.close?.()).catch(() => {});
        return "unavailable";
      }
      return release(`install failed (${error instanceof Error ? error.message : String(error)})`);
    }
    if (module.unavailable?.() !== undefined) {
      void Promise.resolve(module.close?.()).catch(() => {});
      return "unavailable";
    }
    const newEvent = staged.eventTypes.find((id) => !engine.hasEventType(id));
    if (newEvent !== undefined) return release(`it registers the new event type ${newEvent}`);
    const rejects = engine.modules().routes.rejects();
    const newReject = staged.rejects.find((id) => !rejects.has(id));
    if (newReject !== undefined) return release(`it registers new reject samples ${newReject}`);
    const newTool = staged.tools.find((tool) => !engine.tools.configurable(tool));
    if (newTool !== undefined) return release(`it registers the new tool ${newTool.id}`);
    try {
      engine.modules().configure(entry.id, staged.modules);
    } catch (error) {
      return release(error instanceof Error ? error.message : String(error));
    }
    for (const tool of staged.tools) engine.tools.configure(tool);
    if (waiting) void Promise.resolve(previous?.close?.()).catch(() => {});
    this.options.logger.info(`feature ${entry.id} configured from ${entry.source}`);
    return module;
  }

  /** Closes every installed feature (databases it opened); a failure is logged and the others still close. */
  async close(): Promise<void> {
    for (const [id, installed] of [...this.#installed, ...this.#waiting]) {
      try {
        await installed.module.close?.();
      } catch (error) {
        this.options.logger.error(`feature ${id} failed to close`, error);
      }
    }
  }

  /** Every player storage declared by installed features (kept while a feature is off). */
  storages(): AnyModuleStorage[] {
    return this.installed().flatMap((entry) => [...entry.module.storages()]);
  }

  /** Features that configure the same workflows (two check-in entries): a player has at most one of each. */
  exclusiveGroups(): string[][] {
    return this.options.engine.modules().exclusiveOwners();
  }
}
