import type { ContextType } from "../agent/module/context-type.js";
import type { Logger } from "../util/logger.js";
import type { AnyServerModuleType } from "./server-module.js";

/** What an extension sees before the assembly: it may provide services its features (or others) get. */
export interface ModuleContextEvent {
  /** The server's data directory (`--data-dir`). */
  readonly dataDir: string;
  readonly logger: Logger;
  /** Adds a service to the ModuleContext every feature installs with (`context.services.get(type)`). */
  provide<T>(type: ContextType<T>, value: T): void;
}

/**
 * What an extension package exports, as `default` or as `systemExtension`: its feature types (entries of a
 * data pack or the built-in pack instantiate them) and an optional context hook run before the assembly.
 */
export interface SystemExtension {
  readonly types?: readonly AnyServerModuleType[];
  /**
   * The extension's own data pack (an absolute folder with `data/<namespace>/system_module/*.json`, and
   * optionally `assets/<namespace>/lang/<locale>.json`): its entries instantiate its types. The server's
   * `datapacks` come after it, so an admin can override or disable them.
   */
  readonly dataPack?: string;
  context?(event: ModuleContextEvent): void | Promise<void>;
}

/** Declares an extension (an identity function that checks the shape at compile time). */
export const defineExtension = (extension: SystemExtension): SystemExtension => extension;
