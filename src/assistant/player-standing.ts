import { AgentFailure } from "../agent/agent-failure.js";
import type { MemoryGenerations } from "../agent/execution/memory-generations.js";
import type { Standing } from "../agent/execution/standing.js";
import type { Failure } from "../agent/failure.js";
import type { AnyAgentModule } from "../agent/module/agent-module.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import { EXTERNAL_SERVICES_OFF } from "../module/builtin/question/player-switches.js";
import type { PermissionService, PermissionSnapshot } from "../module/permissions/permission-service.js";

/**
 * Whether players may use a model now, and each request's live standing: every tool call, model call and
 * output re-reads the player's current permission snapshot, memory generation and the model configuration.
 */
export class PlayerStandings {
  constructor(
    private readonly options: {
      readonly permissions: PermissionService;
      readonly generations: MemoryGenerations;
      readonly modelConfigured: () => boolean;
      /** Whether the player allows external services (their preference) now. */
      readonly externalAllowed: (playerId: string) => Promise<boolean>;
      /** QUOTA_EXCEEDED while the player's daily model allowance is used up. */
      readonly quotaRefusal: (playerId: string) => Failure | undefined;
      readonly modules: () => ModuleRegistry;
    },
  ) {}

  /** Why this player may not call a model now: AI off or `simple` mode (AI_DISABLED), no model configured. */
  modelRefusal(snapshot: PermissionSnapshot): Failure | undefined {
    if (!snapshot.ai || snapshot.mode === "simple") return AgentFailure.AI_DISABLED;
    if (!this.options.modelConfigured()) return AgentFailure.modelNotConfigured();
    return undefined;
  }

  /** The live standing of a request admitted under `generation` (one per request: no closures to make). */
  of(playerId: string, generation: number): Standing {
    return new LiveStanding(this, this.options, playerId, generation);
  }

  /**
   * Why a workflow that requires a model is unavailable to this player now: they may not call a model (see
   * `modelRefusal`), or their daily quota is used up (QUOTA_EXCEEDED).
   */
  workflowRefusal(snapshot: PermissionSnapshot): Failure | undefined {
    return this.modelRefusal(snapshot) ?? this.options.quotaRefusal(snapshot.playerId);
  }

  /**
   * The filter routing, help, command trees and completions share: a workflow that requires a model is
   * unavailable to a player who may not call one now (AI off, `simple` mode, no model, quota used up).
   * Everything else is available (owner features are checked separately).
   */
  readonly availability = (playerId: string, moduleId: string): boolean => {
    const module: AnyAgentModule | undefined = this.options.modules().get(moduleId);
    if (module === undefined) return false;
    if (module.requiresModel !== true) return true;
    return this.workflowRefusal(this.options.permissions.snapshot(playerId)) === undefined;
  };
}

/** A request's standing, read live at every check. */
class LiveStanding implements Standing {
  constructor(
    private readonly standings: PlayerStandings,
    private readonly options: {
      readonly permissions: PermissionService;
      readonly generations: MemoryGenerations;
      readonly externalAllowed: (playerId: string) => Promise<boolean>;
    },
    private readonly playerId: string,
    private readonly generation: number,
  ) {}

  features(): ReadonlySet<string> {
    return this.options.permissions.snapshot(this.playerId).features;
  }

  /** Forget (/system clear) and revoke bump the generation: work from before may not go on. */
  lost(): Failure | undefined {
    return this.options.generations.isCurrent(this.playerId, this.generation)
      ? undefined
      : AgentFailure.CANCELLED;
  }

  /** The player's external-services switch is read at every model call too (the panel turns it off at any time). */
  async modelRefusal(): Promise<Failure | undefined> {
    return (
      this.standings.modelRefusal(this.options.permissions.snapshot(this.playerId)) ??
      ((await this.options.externalAllowed(this.playerId)) ? undefined : EXTERNAL_SERVICES_OFF)
    );
  }
}
