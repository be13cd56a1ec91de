import type { InteractiveExecutor } from "../agent/execution/interactive-executor.js";
import type { HybridRouter } from "../agent/routing/hybrid-router.js";
import { type Text, translatable } from "../agent/text.js";
import type {
  CoreServices,
  KnownPlayer,
  RevokeOutcome,
  UsageLine,
} from "../module/builtin/core/core-services.js";
import type { ModuleManager } from "../module/module-manager.js";
import type { ExecutionMode } from "../module/permissions/execution-mode.js";
import type { PermissionService } from "../module/permissions/permission-service.js";
import type { AssistantInfrastructure } from "./assistant-services.js";

/** The core commands' services over the assembled server; every part is built before the core feature installs. */
export class AssistantCoreServices implements CoreServices {
  readonly #permissions: PermissionService;
  readonly #interactive: Pick<InteractiveExecutor, "cancel" | "isActive" | "idle">;
  readonly #router: HybridRouter;
  readonly #modules: ModuleManager;
  readonly infrastructure: AssistantInfrastructure;
  readonly #reloadAll: () => Promise<Text>;

  constructor(parts: {
    readonly infrastructure: AssistantInfrastructure;
    readonly permissions: PermissionService;
    readonly interactive: Pick<InteractiveExecutor, "cancel" | "isActive" | "idle">;
    readonly router: HybridRouter;
    readonly modules: ModuleManager;
    readonly reload: () => Promise<Text>;
  }) {
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
    if (feature !== undefined && !this.features().includes(feature)) return false;
    await permissions.update(player.uuid, (current) => {
      if (feature !== undefined)
        return { ...current, features: { ...current.features, [feature]: change.enabled === true } };
      return change.ai === undefined ? current : { ...current, ai: change.ai };
    });
    return true;
  }

  async revoke(player: KnownPlayer, requesterId?: string): Promise<RevokeOutcome> {
    if (player.uuid === requesterId) {
      // The player's one running request is this revoke (one request per player at a time): cancelling it or
      // bumping the generation now would swallow the reply, so the side effects wait until it has finished.
      void this.#afterRequest(player.uuid, () => this.#dropWork(player.uuid));
      return { kind: "after_reply" };
    }
    this.#interactive.cancel(player.uuid);
    await this.#dropWork(player.uuid);
    return { kind: "now" };
  }

  async #dropWork(playerId: string): Promise<void> {
    await this.infrastructure.lifecycles.revoke(playerId);
    this.#router.cache.invalidate(playerId);
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
    await this.#dropWork(player.uuid);
    await this.infrastructure.store.reset(player.uuid);
    await this.#permissions.update(player.uuid, () => undefined);
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

  async setPreference(playerId: string, key: "history" | "external", value: boolean): Promise<void> {
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
    return this.#modules.installed().map((entry) => entry.module.id.toString());
  }
}

/** What `/system reload` answers: what was reloaded, and which files were invalid and kept their previous settings. */
export const reloadSummary = (loaded: readonly string[], kept: readonly string[] = []): Text =>
  kept.length === 0
    ? translatable("system.admin.reloaded", loaded.join(", "))
    : translatable("system.admin.reloaded_with_errors", loaded.join(", "), kept.join(", "));
