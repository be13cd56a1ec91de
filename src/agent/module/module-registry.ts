import { Identifier } from "../../util/identifier.js";
import { Registry } from "../../util/registry.js";
import type { SelectionCandidate } from "../card/selection-card.js";
import type { CommandRegistry } from "../command/command-registry.js";
import type { ToolRegistry } from "../tool/tool-registry.js";
import type { AnyActionType } from "./action-type.js";
import type { AnyAgentModule } from "./agent-module.js";
import type { ModuleRoutes } from "./module-routes.js";
import type { AnyModuleRouting } from "./module-routing.js";
import { writesContradiction } from "./module-writes.js";
import type { RoutingProfile } from "./routing-profile.js";

/**
 * The capabilities of this server: workflows by id and their action types. Frozen by engine start. `R` is the
 * injected entry-point table (the engine uses agent/routing's RoutingTable).
 */
export class ModuleRegistry<R extends ModuleRoutes = ModuleRoutes> {
  readonly actions = new Registry<AnyActionType>("action types");
  readonly #modules = new Registry<AnyAgentModule>("modules");
  /** Every configuration of each workflow id, first registered first (the first also carries the routing). */
  readonly #variants = new Map<string, AnyAgentModule[]>();
  constructor(
    private readonly tools: ToolRegistry,
    /** Commands, profiles and reject samples of the registered modules (one Brigadier tree per engine). */
    readonly routes: R,
  ) {}

  /** Registers a shared action type (the codec every entry point of that action uses). */
  registerAction(type: AnyActionType): void {
    const existing = this.actions.get(type.id);
    if (existing === type) return;
    if (existing !== undefined)
      throw new Error(`action type ${type.id} is already registered with another codec`);
    this.actions.register(type.id, type);
  }

  register(module: AnyAgentModule): void {
    const id = module.id.toString();
    if (this.#modules.frozen) throw new Error(`engine has started; cannot register module ${id}`);
    const primary = this.#modules.get(id);
    if (primary !== undefined) {
      this.#addVariant(primary, module);
      return;
    }
    if (!module.action.id.equals(module.id))
      throw new Error(`module ${id} must use the action type with its own id`);
    const registered = this.actions.get(module.action.id);
    if (
      registered !== undefined &&
      (registered !== module.action || registered.codec !== module.action.codec)
    )
      throw new Error(
        `module ${id}: input codec differs from the registered action type ${module.action.id}`,
      );
    const required = this.#checkTools(module);
    for (const type of module.optionalTools) {
      if (required.has(type.id.toString()))
        throw new Error(`module ${id}: tool ${type.id} is both required and optional`);
      const existing = this.tools.get(type.id);
      if (existing !== undefined && existing.type !== type)
        throw new Error(`module ${id}: optional tool ${type.id} does not match the registered type`);
      if (existing !== undefined && !existing.readOnly)
        throw new Error(`module ${id}: optional tool ${type.id} must be read-only`);
    }
    this.routes.add(module, (features) => this.usable(id, features));
    for (const tool of module.tools) this.tools.register(tool);
    if (registered === undefined) this.actions.register(module.action.id, module.action);
    this.#modules.register(module.id, module);
    this.#variants.set(id, [module]);
  }

  /**
   * Another configuration of a registered workflow (a second check-in entry with other rewards): same action
   * type, another owner. It shares the first one's entry points; a player's enabled owner picks which runs.
   */
  #addVariant(primary: AnyAgentModule, module: AnyAgentModule): void {
    const id = module.id.toString();
    const variants = this.#variants.get(id) ?? [primary];
    const owner = module.owner;
    if (owner === undefined || variants.some((variant) => variant.owner === undefined))
      throw new Error(`module ${id} is already registered`);
    if (variants.some((variant) => variant.owner?.equals(owner)))
      throw new Error(`module ${id} is already registered by ${owner}`);
    if (module.action !== primary.action)
      throw new Error(`module ${id}: another configuration must use the same action type`);
    if (module.writes !== primary.writes)
      throw new Error(`module ${id}: another configuration must declare the same writes`);
    this.#checkTools(module);
    for (const tool of module.tools) this.tools.register(tool);
    variants.push(module);
    this.#variants.set(id, variants);
  }

  /**
   * Replaces one owner's configuration of registered workflows after start, or adds it as another configuration:
   * a data-pack reload changed a feature's config, or added an entry of a type already installed. Entry points are
   * fixed at start, so `modules` may only name workflows, action types and tool types that are registered, and
   * an owner that had workflows must configure the same ones. Throws, changing nothing, otherwise.
   */
  configure(owner: Identifier, modules: readonly AnyAgentModule[]): void {
    const key = owner.toString();
    const before = new Set(
      [...this.#variants.values()].flatMap((variants) =>
        variants.filter((module) => module.owner?.equals(owner)).map((module) => module.id.toString()),
      ),
    );
    const after = new Set(modules.map((module) => module.id.toString()));
    if (before.size > 0 && (before.size !== after.size || [...before].some((id) => !after.has(id))))
      throw new Error(`${key} would register other workflows than it did at start`);
    for (const module of modules) {
      const id = module.id.toString();
      const variants = this.#variants.get(id);
      if (variants === undefined) throw new Error(`workflow ${id} is new`);
      if (!module.owner?.equals(owner)) throw new Error(`workflow ${id} is not owned by ${key}`);
      if (variants.some((variant) => variant.owner === undefined))
        throw new Error(`workflow ${id} has no owner and cannot be configured again`);
      if (module.action !== variants[0]?.action) throw new Error(`workflow ${id} uses another action type`);
      if (module.writes !== variants[0]?.writes) throw new Error(`workflow ${id} declares other writes`);
      for (const tool of module.tools)
        if (!this.tools.configurable(tool)) throw new Error(`workflow ${id}: tool ${tool.id} is new`);
    }
    for (const module of modules) {
      const variants = this.#variants.get(module.id.toString()) ?? [];
      const index = variants.findIndex((variant) => variant.owner?.equals(owner));
      if (index < 0) variants.push(module);
      else variants[index] = module;
      for (const tool of module.tools) this.tools.configure(tool);
    }
  }

  #checkTools(module: AnyAgentModule): Map<string, AnyAgentModule["tools"][number]> {
    const id = module.id.toString();
    const contradiction = writesContradiction(module.writes, module.policy, module.tools);
    if (contradiction !== undefined) throw new Error(`module ${id} ${contradiction}`);
    const required = new Map<string, AnyAgentModule["tools"][number]>();
    for (const tool of module.tools) {
      const local = required.get(tool.id.toString());
      if ((local !== undefined && local !== tool) || this.tools.conflicts(tool))
        throw new Error(`module ${id}: tool ${tool.id} conflicts with another registered instance`);
      this.tools.check(tool);
      required.set(tool.id.toString(), tool);
    }
    return required;
  }

  /**
   * The configuration of a workflow this player has: an unowned workflow always, else the first whose owner is
   * among `features`; undefined when the player has none.
   */
  variant(id: Identifier | string, features: ReadonlySet<string>): AnyAgentModule | undefined {
    return this.#variants
      .get(id.toString())
      ?.find((module) => module.owner === undefined || features.has(module.owner.toString()));
  }

  /** Whether the player has some configuration of this workflow (its owner feature enabled, or none needed). */
  usable(id: Identifier | string, features: ReadonlySet<string>): boolean {
    return this.variant(id, features) !== undefined;
  }

  /** Every configuration of a workflow, first registered first. */
  variants(id: Identifier | string): readonly AnyAgentModule[] {
    return this.#variants.get(id.toString()) ?? [];
  }

  /** Owners that share a workflow id (configurations of one type): a player may have only one of each group. */
  exclusiveOwners(): string[][] {
    const groups: string[][] = [];
    for (const variants of this.#variants.values())
      if (variants.length > 1)
        groups.push(
          variants.flatMap((module) => (module.owner === undefined ? [] : [module.owner.toString()])),
        );
    return groups;
  }

  get(id: Identifier | string): AnyAgentModule | undefined {
    return this.#variants.get(id.toString())?.[0];
  }

  /** The module that runs an action type; with `features`, the configuration this player has. */
  forAction(type: AnyActionType, features?: ReadonlySet<string>): AnyAgentModule | undefined {
    const module = features === undefined ? this.get(type.id) : this.variant(type.id, features);
    return module?.action === type ? module : undefined;
  }

  values(): AnyAgentModule[] {
    return this.#modules.values().map((module) => this.get(module.id) ?? module);
  }

  freeze(): void {
    this.routes.freeze();
    this.#modules.freeze();
    this.actions.freeze();
  }

  get frozen(): boolean {
    return this.#modules.frozen;
  }

  /** Registers reject samples (RoutingProfile.hints): no entry point; they only take part in margins and fallback. */
  reject(id: Identifier | string, profile: RoutingProfile<unknown>): void {
    const key = typeof id === "string" ? Identifier.parse(id) : id;
    this.routes.reject(key, profile, (text) => this.#modules.has(text));
  }

  /** The one command tree of this engine. */
  commands(): CommandRegistry {
    return this.routes.commands;
  }

  /** A module's declared entry points. */
  routing(id: Identifier | string): AnyModuleRouting {
    return this.routes.routing(id);
  }

  /**
   * Read-only candidate actions for a text (fallback and clarify cards): extractor candidates parsed from this
   * text only, else generic shortcuts. `player.features` filters modules by owner; `scores` orders them.
   */
  suggestions(
    text: string,
    player: { readonly features: ReadonlySet<string> },
    options: { readonly scores?: ReadonlyMap<string, number>; readonly limit?: number } = {},
  ): SelectionCandidate[] {
    return this.routes.suggestions(
      text,
      this.values(),
      (module) => this.usable(module.id, player.features),
      options,
    );
  }
}
