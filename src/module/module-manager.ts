import type { AgentEngine } from "../agent/execution/agent-engine.js";
import { MissingServiceError, type ModuleContext } from "../agent/module/context-type.js";
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
      readonly logger: Logger;
    },
  ) {}

  /** Installs the entries with the services the assembly built for features (once, before the engine starts). */
  install(entries: readonly SystemModuleEntry[], services: ModuleContext<AgentEngine, ModuleRegistry>): void {
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
        module.install({ engine: this.options.engine, services, id: entry.id });
      } catch (error) {
        // A service the assembly does not provide is a wiring error: the server must not start without it.
        if (error instanceof MissingServiceError)
          throw new Error(
            `feature ${entry.id} needs the service ${error.service}, which the server does not provide`,
          );
        // One line an admin can act on: what is wrong, not a stack.
        const reason = error instanceof Error ? error.message : String(error);
        this.options.logger.error(`feature ${entry.id} failed to install; not installed: ${reason}`);
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

  /** Closes every installed feature (databases it opened); a failure is logged and the others still close. */
  async close(): Promise<void> {
    for (const [id, installed] of this.#installed) {
      try {
        await installed.module.close?.();
      } catch (error) {
        this.options.logger.error(`feature ${id} failed to close`, error);
      }
    }
  }

  /** Every player storage declared by installed features. */
  storages(): AnyModuleStorage[] {
    return this.installed().flatMap((entry) => [...entry.module.storages()]);
  }
}
