import type { Identifier } from "../../util/identifier.js";
import type { SelectionCandidate } from "../card/selection-card.js";
import type { CommandRegistry } from "../command/command-registry.js";
import type { AnyAgentModule } from "./agent-module.js";
import type { AnyModuleRouting } from "./module-routing.js";
import type { RoutingProfile } from "./routing-profile.js";

/**
 * The entry points built from module declarations (commands, semantic profiles, reject samples). The registry
 * validates registrations through it; the engine injects the implementation (RoutingTable in agent/routing),
 * so the module contracts never depend on routing.
 */
export interface ModuleRoutes {
  /** The one command tree of this engine. */
  readonly commands: CommandRegistry;
  readonly frozen: boolean;
  /**
   * Validates and records a module's routing; throws (changing nothing) on conflicts. `usable` says whether a
   * player with these features has some configuration of it (its command nodes require that).
   */
  add(module: AnyAgentModule, usable: (features: ReadonlySet<string>) => boolean): void;
  reject(id: Identifier, profile: RoutingProfile<unknown>, isModule: (id: string) => boolean): void;
  routing(id: Identifier | string): AnyModuleRouting;
  freeze(): void;
  /** Read-only candidate actions for a text among `modules` the player may use. */
  suggestions(
    text: string,
    modules: readonly AnyAgentModule[],
    available: (module: AnyAgentModule) => boolean,
    options: { readonly scores?: ReadonlyMap<string, number>; readonly limit?: number },
  ): SelectionCandidate[];
}
