import { z } from "zod";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { AccessModule, ModeModule, ReloadModule, ResetModule, UsageModule } from "./core-module.js";
import { CORE_SERVICES } from "./core-services.js";
import { CancelModule, ClearModule, SettingsModule } from "./player-commands.js";

/**
 * The core feature: admin commands (grant, revoke, reset, usage, reload, mode) and player commands
 * (settings, clear, cancel). Infrastructure: its workflows have no owner, so no grant can take them away;
 * admin nodes `require` the operator level and the modules check it again at run time.
 */
class CoreFeature implements ServerModule {
  readonly type = CORE_FEATURE_TYPE.id;
  readonly enabledByDefault = true;
  readonly toolModule = false;

  constructor(readonly id: Identifier) {}

  install(context: ServerModuleContext): void {
    const services = context.services.get(CORE_SERVICES);
    for (const module of [
      new AccessModule(services, true),
      new AccessModule(services, false),
      new ResetModule(services),
      new UsageModule(services),
      new ReloadModule(services),
      new ModeModule(services),
      new SettingsModule(services),
      new ClearModule(services),
      new CancelModule(services),
    ])
      context.engine.registerModule(module);
  }

  storages(): [] {
    return [];
  }
}

export const CORE_FEATURE_TYPE: ServerModuleType<Record<string, never>> = {
  id: Identifier.parse("system:core"),
  config: codec(z.object({}).strict()) as ServerModuleType<Record<string, never>>["config"],
  create: (id) => new CoreFeature(id),
};
