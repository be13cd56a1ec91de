import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { ModuleContext } from "../agent/module/context-type.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import type { AnyModuleStorage } from "../agent/storage/module-storage.js";
import type { Identifier } from "../util/identifier.js";
import type { Logger } from "../util/logger.js";
import type { Registry } from "../util/registry.js";
import type { AnyServerModuleType, ServerModule, SystemModuleEntry } from "./server-module.js";

/** An installed feature with the data-pack decision on whether players have it without a grant. */
export interface InstalledModule {
  readonly module: ServerModule;
  readonly enabledByDefault: boolean;
}

/**
 * Installs features from `system:system_module` entries into the engine (tool modules first, then workflows).
 * A feature whose type is unknown, whose config is invalid or whose install throws is not installed and so
 * appears nowhere: not in commands, help, completions, semantic candidates or the model catalog.
 */
export class ModuleManager {
  readonly #installed = new Map<string, InstalledModule>();

  constructor(
    private readonly options: {
      readonly types: Registry<AnyServerModuleType>;
      readonly engine: AgentEngine;
      readonly services: ModuleContext<AgentEngine, ModuleRegistry>;
      readonly logger: Logger;
    },
  ) {}

  install(entries: readonly SystemModuleEntry[]): void {
    const created: { entry: SystemModuleEntry; module: ServerModule }[] = [];
    for (const entry of entries) {
      if (!entry.enabled) {
        this.options.logger.info(`feature ${entry.id} is disabled by ${entry.source}`);
        continue;
      }
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
    const ordered = [
      ...created.filter((item) => item.module.toolModule),
      ...created.filter((item) => !item.module.toolModule),
    ];
    for (const { entry, module } of ordered) {
      try {
        module.install({ engine: this.options.engine, services: this.options.services, id: entry.id });
      } catch (error) {
        this.options.logger.error(`feature ${entry.id} failed to install; not installed`, error);
        continue;
      }
      this.#installed.set(entry.id.toString(), {
        module,
        enabledByDefault: entry.enabledByDefault ?? module.enabledByDefault,
      });
    }
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

  /** Every player storage declared by installed features. */
  storages(): AnyModuleStorage[] {
    return this.installed().flatMap((entry) => [...entry.module.storages()]);
  }
}
