import type { AgentLifecycles } from "../../agent/agent-lifecycle.js";
import type { ModuleManager } from "../module-manager.js";
import type { AccessStore, PlayerAccess } from "./access-store.js";
import type { ExecutionMode } from "./execution-mode.js";

/** What one player may use now: the one availability filter behind help, completions, routing and executors. */
export interface PermissionSnapshot {
  readonly playerId: string;
  /** Whether the player may use AI (model routing, summaries, loops). */
  readonly ai: boolean;
  readonly mode: ExecutionMode;
  /** Installed features enabled for this player. */
  readonly features: ReadonlySet<string>;
  /** Operator level from the game (0 = none, 4 = owner). */
  readonly opLevel: number;
  /** Increases on every change so caches keyed on it go stale. */
  readonly version: number;
}

/**
 * Computes and publishes per-player permission snapshots from installed features and admin access.
 * Every change fires the permission-change lifecycle hook (intent caches and command trees listen).
 */
export class PermissionService {
  readonly #opLevels = new Map<string, number>();
  readonly #cache = new Map<string, PermissionSnapshot>();
  #version = 0;

  constructor(
    private readonly options: {
      readonly access: AccessStore;
      readonly modules: ModuleManager;
      readonly lifecycles: AgentLifecycles;
    },
  ) {}

  snapshot(playerId: string): PermissionSnapshot {
    const cached = this.#cache.get(playerId);
    if (cached !== undefined) return cached;
    const access = this.options.access.player(playerId);
    const settings = this.options.access.get();
    const features = new Set<string>();
    const modules = this.options.modules;
    for (const installed of modules.installed()) {
      const id = installed.module.id.toString();
      if (!modules.enabled(id)) continue;
      const granted = access.features?.[id];
      if (granted ?? installed.enabledByDefault) features.add(id);
    }
    // Configurations of one workflow (two check-in entries): one owner per action. A grant beats a default;
    // between equals, the first entry id wins.
    for (const group of modules.exclusiveGroups()) {
      const held = group.filter((id) => features.has(id)).sort();
      if (held.length < 2) continue;
      const keep = held.find((id) => access.features?.[id] === true) ?? held[0];
      for (const id of held) if (id !== keep) features.delete(id);
    }
    const snapshot: PermissionSnapshot = {
      playerId,
      ai: access.ai ?? settings.aiByDefault,
      // an admin's choice for the player, else the player's own while the server allows it, else the default
      mode:
        access.mode ??
        (access.chosenMode !== undefined && settings.allowedModes.includes(access.chosenMode)
          ? access.chosenMode
          : settings.defaultMode),
      features,
      opLevel: this.#opLevels.get(playerId) ?? 0,
      version: this.#version,
    };
    this.#cache.set(playerId, snapshot);
    return snapshot;
  }

  /**
   * A player left: their cached snapshot is dropped (the next `snapshot` computes it again), so the cache holds
   * the players asked about since they last left, not every player the server has seen. Nothing changed for
   * them: no version bump, no permission-change hook. Their operator level is kept (a number).
   */
  forget(playerId: string): void {
    this.#cache.delete(playerId);
  }

  /** The game tells us a player's operator level (on join and when it changes). */
  async setOpLevel(playerId: string, level: number): Promise<void> {
    if (this.#opLevels.get(playerId) === level) return;
    this.#opLevels.set(playerId, level);
    await this.#changed(playerId);
  }

  async update(playerId: string, change: (current: PlayerAccess) => PlayerAccess | undefined): Promise<void> {
    await this.options.access.update(playerId, change);
    await this.#changed(playerId);
  }

  async setDefaultMode(mode: ExecutionMode): Promise<void> {
    await this.options.access.modify((settings) => ({ ...settings, defaultMode: mode }));
    await this.invalidateAll();
  }

  /** The modes players may choose for themselves; a player's choice outside them no longer applies. */
  async setAllowedModes(modes: readonly ExecutionMode[]): Promise<void> {
    await this.options.access.modify((settings) => ({ ...settings, allowedModes: [...modes] }));
    await this.invalidateAll();
  }

  /** Drops cached snapshots after a reload of the access file or a feature switched on or off. */
  async invalidateAll(): Promise<void> {
    const players = [...this.#cache.keys()];
    this.#cache.clear();
    this.#version++;
    for (const playerId of players) await this.options.lifecycles.permissionChange(playerId);
  }

  async #changed(playerId: string): Promise<void> {
    this.#cache.delete(playerId);
    this.#version++;
    await this.options.lifecycles.permissionChange(playerId);
  }
}
