import type { AnyModuleStorage } from "../agent/storage/module-storage.js";
import type { Codec } from "../util/codec.js";
import { Identifier } from "../util/identifier.js";
import type {
  AnyServerModuleType,
  FeatureAbsence,
  ServerModule,
  ServerModuleContext,
  ServerModuleType,
} from "./server-module.js";

/** One configured instance of a feature: its data-pack entry id and its decoded config. */
export interface FeatureInstance<C> {
  /** The entry id (`data/<ns>/system_module/<path>.json` → `<ns>:<path>`); owner of what the instance registers. */
  readonly id: Identifier;
  readonly config: C;
}

/** What one instance does: install into the engine, the player storages it declares, what it closes. */
export interface FeatureParts {
  install(context: ServerModuleContext): void;
  /** What the instance still lacks once installed (see `ServerModule.unavailable`); never when omitted. */
  unavailable?(): FeatureAbsence | undefined;
  /** Player storages (ModuleStorage.of with the instance id as owner); none when omitted. */
  readonly storages?: readonly AnyModuleStorage[];
  close?(): void | Promise<void>;
}

/** The declaration {@link defineFeature} turns into a feature type. */
export interface FeatureDefinition<C> {
  /** The type id data-pack entries name in `"type"`. */
  readonly id: Identifier | string;
  /** Decodes an entry's `"server"` object; a config it refuses leaves that entry uninstalled (logged). */
  readonly config: Codec<C>;
  /** False: players need an admin grant (or an entry's `enabled_by_default`); true when omitted. */
  readonly enabledByDefault?: boolean;
  /** True when the feature only exports tools (no workflow of its own). */
  readonly toolModule?: boolean;
  /**
   * The server's own commands only: workflows registered without an owner stay unowned (no grant takes them
   * away) and the feature cannot be disabled. Features of extensions leave it off.
   */
  readonly infrastructure?: boolean;
  /** Called once per data-pack entry of this type. */
  create(instance: FeatureInstance<C>): FeatureParts;
}

/**
 * Declares a feature type without casts: the config type flows from the codec into `create`, and the result is
 * the type-erased `AnyServerModuleType` the extension's `types` (and the built-in registry) list.
 */
export const defineFeature = <C>(definition: FeatureDefinition<C>): AnyServerModuleType => {
  const type = typeof definition.id === "string" ? Identifier.parse(definition.id) : definition.id;
  const typed: ServerModuleType<C> = {
    id: type,
    config: definition.config,
    create: (id: Identifier, config: C): ServerModule => {
      const parts = definition.create({ id, config });
      const storages = parts.storages ?? [];
      return {
        id,
        type,
        enabledByDefault: definition.enabledByDefault ?? true,
        toolModule: definition.toolModule ?? false,
        ...(definition.infrastructure === true ? { infrastructure: true } : {}),
        install: (context) => parts.install(context),
        ...(parts.unavailable === undefined ? {} : { unavailable: () => parts.unavailable?.() }),
        storages: () => storages,
        ...(parts.close === undefined ? {} : { close: () => parts.close?.() }),
      };
    },
  };
  return typed;
};
