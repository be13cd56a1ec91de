import type { EventExecutor } from "../agent/execution/event-executor.js";
import type { InteractiveExecutor } from "../agent/execution/interactive-executor.js";
import type { Failure } from "../agent/failure.js";
import type { HybridRouter } from "../agent/routing/hybrid-router.js";
import { type Text, translatable } from "../agent/text.js";
import type {
  CoreServices,
  DamagedFileLine,
  FeatureSwitchResult,
  KnownPlayer,
  PlayerMode,
  RestoreOutcome,
  RevokeOutcome,
  UsageLine,
} from "../module/builtin/core/core-services.js";
import type { RevokePreview } from "../module/builtin/core/revoke-card.js";
import type { FeatureStatus, ModuleManager } from "../module/module-manager.js";
import type { ExecutionMode } from "../module/permissions/execution-mode.js";
import type { PermissionService } from "../module/permissions/permission-service.js";
import type { AssistantInfrastructure } from "./assistant-services.js";
import { restorePlayerFile } from "./damaged-player-files.js";
import type { PlayerStandings } from "./player-standing.js";

/** The core commands' services over the assembled server; every part is built before the core feature installs. */
export class AssistantCoreServices implements CoreServices {
  readonly #permissions: PermissionService;
  readonly #interactive: Pick<InteractiveExecutor, "cancel" | "isActive" | "idle">;
  readonly #router: HybridRouter;
  readonly #modules: ModuleManager;
  readonly infrastructure: AssistantInfrastructure;
  readonly #reloadAll: () => Promise<Text>;
  readonly #endFeatures: (features: ReadonlySet<string>) => number;
  readonly #events: Pick<EventExecutor, "resumeWaiting">;
  readonly #standings: Pick<PlayerStandings, "modelRefusal">;

  constructor(parts: {
    readonly infrastructure: AssistantInfrastructure;
    readonly permissions: PermissionService;
    readonly interactive: Pick<InteractiveExecutor, "cancel" | "isActive" | "idle">;
    readonly router: HybridRouter;
    readonly modules: ModuleManager;
    readonly reload: () => Promise<Text>;
    /** Ends running requests of features switched off; returns how many. */
    readonly endFeatures: (features: ReadonlySet<string>) => number;
    /** Durable event tasks waiting for a feature that is back. */
    readonly events: Pick<EventExecutor, "resumeWaiting">;
    /** Whether a player may call a model (what `full` needs). */
    readonly standings: Pick<PlayerStandings, "modelRefusal">;
  }) {
    this.#standings = parts.standings;
    this.#events = parts.events;
    this.#endFeatures = parts.endFeatures;
    this.infrastructure = parts.infrastructure;
    this.#permissions = parts.permissions;
    this.#interactive = parts.interactive;
    this.#router = parts.router;
    this.#modules = parts.modules;
    this.#reloadAll = parts.reload;
  }

  resolvePlayer(name: string): KnownPlayer | undefined {
    return this.infrastructure.players.resolve(name);
  }

  async setAccess(
    player: KnownPlayer,
    change: { readonly ai?: boolean; readonly feature?: string; readonly enabled?: boolean },
  ): Promise<boolean> {
    const permissions = this.#permissions;
    const feature = change.feature;
    const ids = feature === undefined ? [] : this.#modules.resolve(feature);
    if (ids === undefined || (feature !== undefined && ids.length === 0)) return false;
    const groups = this.#modules.exclusiveGroups();
    await permissions.update(player.uuid, (current) => {
      if (feature === undefined) return change.ai === undefined ? current : { ...current, ai: change.ai };
      const features = { ...current.features };
      for (const id of ids) {
        // One configuration per action: granting one takes back a grant of another configuration of it.
        if (change.enabled === true)
          for (const group of groups.filter((members) => members.includes(id)))
            for (const other of group) if (other !== id && features[other] === true) delete features[other];
        features[id] = change.enabled === true;
      }
      return { ...current, features };
    });
    if (feature !== undefined && change.enabled === true) await this.#events.resumeWaiting();
    return true;
  }

  async revoke(player: KnownPlayer, requesterId?: string): Promise<RevokeOutcome> {
    if (player.uuid === requesterId) {
      // The player's one running request is this revoke (one request per player at a time): cancelling it or
      // bumping the generation now would swallow the reply, so the side effects wait until it has finished.
      void this.#afterRequest(player.uuid, () => this.#revokeAll(player.uuid));
      return { kind: "after_reply" };
    }
    this.#interactive.cancel(player.uuid);
    await this.#revokeAll(player.uuid);
    return { kind: "now" };
  }

  async #dropWork(playerId: string): Promise<void> {
    await this.infrastructure.lifecycles.revoke(playerId);
    this.#router.cache.invalidate(playerId);
  }

  /** Revoke: the work goes, then the player's file (or row) and chat cache (history, stored answers). */
  async #revokeAll(playerId: string): Promise<void> {
    await this.#dropWork(playerId);
    await this.infrastructure.store.reset(playerId);
  }

  async revokePreview(player: KnownPlayer): Promise<RevokePreview> {
    const { store } = this.infrastructure;
    const record = await store.record(player.uuid);
    const chat = await store.readChat(player.uuid);
    const entries = Object.entries(record.moduleData).flatMap(([owner, types]) =>
      Object.keys(types).map((type) => `${owner}/${type}`),
    );
    return {
      player: player.name,
      record: entries.sort().slice(0, 200),
      history: chat.history.length,
      replay: Object.keys(chat.replay).length,
    };
  }

  async #afterRequest(playerId: string, work: () => Promise<void>): Promise<void> {
    await this.#interactive.idle(playerId);
    try {
      await work();
    } catch (error) {
      this.infrastructure.logger.error(`revoking ${playerId} after the reply failed`, error);
    }
  }

  async reset(player: KnownPlayer): Promise<void> {
    this.#interactive.cancel(player.uuid);
    await this.infrastructure.lifecycles.reset(player.uuid);
    await this.#dropWork(player.uuid);
    await this.infrastructure.store.reset(player.uuid);
    await this.#permissions.update(player.uuid, () => undefined);
  }

  damagedFiles(): DamagedFileLine[] {
    const { damaged, players } = this.infrastructure;
    return damaged.list().map((entry) => ({
      player: players.nameOf(entry.playerId) ?? entry.playerId,
      kept: entry.kept.at(-1) ?? "",
      reason: entry.reason,
    }));
  }

  restoreFile(player: KnownPlayer): Promise<RestoreOutcome> {
    const { damaged, playerFiles: store, players } = this.infrastructure;
    // a network keeps no player files to restore: its records are rows of the database
    if (store === undefined) return Promise.resolve({ kind: "none" });
    const storages = this.#modules.storages();
    return restorePlayerFile({ damaged, store, players, storages, playerId: player.uuid });
  }

  async dismissDamaged(player: KnownPlayer): Promise<boolean> {
    if (this.infrastructure.damaged.get(player.uuid) === undefined) return false;
    await this.infrastructure.damaged.forget(player.uuid);
    return true;
  }

  usage(player: KnownPlayer | undefined): UsageLine[] {
    const records = this.infrastructure.gateway.usage(player === undefined ? {} : { playerId: player.uuid });
    const byDay = new Map<string, UsageLine>();
    for (const record of records) {
      const name = this.infrastructure.players.nameOf(record.playerId) ?? record.playerId;
      const key = `${record.day}|${record.playerId}`;
      const line = byDay.get(key) ?? {
        day: record.day,
        player: name,
        calls: 0,
        inputTokens: 0,
        outputTokens: 0,
      };
      byDay.set(key, {
        ...line,
        calls: line.calls + record.calls,
        inputTokens: line.inputTokens + record.inputTokens,
        outputTokens: line.outputTokens + record.outputTokens,
      });
    }
    return [...byDay.values()].sort(
      (left, right) => right.day.localeCompare(left.day) || left.player.localeCompare(right.player),
    );
  }

  reload(): Promise<Text> {
    return this.#reloadAll();
  }

  async setMode(mode: ExecutionMode, player: KnownPlayer | undefined): Promise<void> {
    const permissions = this.#permissions;
    if (player === undefined) await permissions.setDefaultMode(mode);
    else await permissions.update(player.uuid, (current) => ({ ...current, mode }));
  }

  modeOf(playerId: string): PlayerMode {
    const settings = this.infrastructure.access.get();
    const access = this.infrastructure.access.player(playerId);
    const mode = this.#permissions.snapshot(playerId).mode;
    const source =
      access.mode !== undefined
        ? "admin"
        : access.chosenMode !== undefined && settings.allowedModes.includes(access.chosenMode)
          ? "player"
          : "default";
    return { mode, source, allowed: settings.allowedModes };
  }

  async chooseMode(playerId: string, mode: ExecutionMode): Promise<void> {
    await this.#permissions.update(playerId, (current) => ({ ...current, chosenMode: mode }));
  }

  async allowModes(modes: readonly ExecutionMode[]): Promise<void> {
    await this.#permissions.setAllowedModes(modes);
  }

  fullModeRefusal(playerId: string): Failure | undefined {
    return this.#standings.modelRefusal({ ...this.#permissions.snapshot(playerId), mode: "full" });
  }

  canUseWorkflow(playerId: string, id: string): boolean {
    return this.infrastructure.engine.modules().usable(id, this.#permissions.snapshot(playerId).features);
  }

  async preferences(playerId: string): Promise<{ history: boolean; external: boolean; speech: boolean }> {
    const current = await this.infrastructure.conversation.preferences(playerId);
    return { history: current.history, external: current.external, speech: current.speech === true };
  }

  async setPreference(
    playerId: string,
    key: "history" | "external" | "speech",
    value: boolean,
  ): Promise<void> {
    await this.infrastructure.conversation.setPreferences(playerId, { [key]: value });
  }

  async clearHistory(playerId: string): Promise<void> {
    await this.infrastructure.conversation.clear(playerId);
    this.#router.cache.invalidate(playerId);
  }

  running(playerId: string): boolean {
    return this.#interactive.isActive(playerId);
  }

  cancel(playerId: string): boolean {
    return this.#interactive.cancel(playerId);
  }

  features(): readonly string[] {
    return [
      ...this.#modules.installed().map((entry) => entry.module.id.toString()),
      ...this.#modules.tags().map((tag) => `#${tag}`),
    ];
  }

  featureStatuses(): readonly FeatureStatus[] {
    return this.#modules.statuses();
  }

  async switchFeature(reference: string, enabled: boolean): Promise<FeatureSwitchResult> {
    const ids = this.#modules.resolve(reference);
    if (ids === undefined || ids.length === 0) return { kind: "unknown" };
    const infrastructure = ids.find((id) => this.#modules.get(id)?.module.infrastructure === true);
    if (infrastructure !== undefined && !reference.startsWith("#"))
      return { kind: "infrastructure", id: infrastructure };
    const changed: string[] = [];
    const unchanged: string[] = [];
    for (const id of ids) {
      const outcome = await this.#modules.setEnabled(id, enabled);
      if (outcome === "changed") changed.push(id);
      else if (outcome === "unchanged") unchanged.push(id);
    }
    if (changed.length > 0) await this.#permissions.invalidateAll();
    const ended = enabled ? 0 : this.#endFeatures(new Set(changed));
    if (enabled && changed.length > 0) await this.#events.resumeWaiting();
    if (changed.length > 0)
      this.infrastructure.logger.info(`features switched ${enabled ? "on" : "off"}: ${changed.join(", ")}`);
    return { kind: "done", changed, unchanged, ended };
  }
}

/**
 * What `/system reload` answers: what was reloaded, which files were invalid and kept their previous settings,
 * which waiting features are installed now, and which data-pack entries changed in a way that needs a restart.
 */
export const reloadSummary = (
  loaded: readonly string[],
  kept: readonly string[] = [],
  restart: readonly string[] = [],
  installed: readonly string[] = [],
): Text => {
  const loadedText =
    kept.length === 0
      ? translatable("system.admin.reloaded", loaded.join(", "))
      : translatable("system.admin.reloaded_with_errors", loaded.join(", "), kept.join(", "));
  // a feature that was waiting for its files (quests) and is installed now is named: players can use it
  const summary =
    installed.length === 0
      ? loadedText
      : translatable(
          "system.text.concat",
          loadedText,
          translatable("system.admin.reload_installed", installed.join(", ")),
        );
  return restart.length === 0
    ? summary
    : translatable(
        "system.text.concat",
        summary,
        translatable("system.admin.reload_restart", restart.join(", ")),
      );
};
