import { argument, greedyString, literal, RootCommandNode } from "@jsprismarine/brigadier";
import type CommandNode from "@jsprismarine/brigadier/tree/CommandNode";
import type { CommandTreeNode } from "../agent/command/command-registry.js";
import { type CommandSource, RecordingCommandSource } from "../agent/command/command-source.js";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { AnyAgentModule } from "../agent/module/agent-module.js";
import type { HybridRouter } from "../agent/routing/hybrid-router.js";
import type { RoutingPlayer } from "../agent/routing/routing-player.js";
import type { PermissionService } from "../module/permissions/permission-service.js";
import type { AssistantInfrastructure } from "./assistant-services.js";
import type { PlayerInfo } from "./player-directory.js";
import type { RequestPipeline } from "./request-pipeline.js";

/** Aliases also registered as top-level game commands when their feature is installed. */
export const SHORTCUT_ALIASES: ReadonlySet<string> = new Set(["reason", "question", "search"]);

/** The command tree a player may see, under `/system` and the shortcuts, with the source its guards check. */
export interface PlayerCommandTree {
  readonly root: CommandNode<CommandSource>;
  readonly source: CommandSource;
}

/**
 * The commands each player may use, as the game sends them (a Brigadier tree), as a plain tree (the web panel,
 * inspection) and as completions: every view filtered by the player's permissions and features now, and by the
 * filter routing and help use (a workflow that needs a model is left out while the player may not call one:
 * AI off, `simple` mode, no model, quota used up).
 */
export class PlayerCommandTrees {
  /** The aliases each player's last game tree left out, to notice when that changes without a permission change. */
  readonly #hidden = new Map<string, string>();

  constructor(
    private readonly parts: {
      readonly engine: AgentEngine;
      readonly permissions: PermissionService;
      readonly pipeline: RequestPipeline;
      readonly router: HybridRouter;
      readonly infrastructure: Pick<AssistantInfrastructure, "gateway" | "lifecycles">;
      /** Called when a player's commands changed without a permission change (their tree must be sent again). */
      readonly changed: (playerId: string) => void;
    },
  ) {
    // a model call may use up the player's daily quota: the workflows that need a model leave their tree
    parts.infrastructure.gateway.onUsage((playerId) => this.recheck(playerId));
    parts.infrastructure.lifecycles.register({
      onDisconnect: (playerId) => {
        this.#hidden.delete(playerId);
      },
    });
  }

  /** Completions for the last token of a line (after `/system`). */
  async completions(player: PlayerInfo, line: string): Promise<string[]> {
    const identity = this.#identity(player.uuid, player.locale);
    return this.parts.engine.modules().commands().completions(line, identity, this.#shown(identity));
  }

  /** `/system <instruction>` with every command the player may use, plus the shortcuts. */
  root(player: PlayerInfo): PlayerCommandTree {
    const registry = this.parts.engine.modules().commands();
    const identity = this.#identity(player.uuid, player.locale);
    const shown = this.#shown(identity);
    const source = new RecordingCommandSource(identity);
    const system = literal<CommandSource>("system")
      .then(argument<CommandSource, string>("instruction", greedyString()).executes(async () => 1))
      .build();
    for (const child of registry.root().getChildren())
      if (registry.shows(child.getName(), shown)) system.addChild(child as CommandNode<CommandSource>);
    const root = new RootCommandNode<CommandSource>();
    root.addChild(system);
    for (const shortcut of this.shortcuts()) {
      const node = registry.root().getChild(shortcut);
      if (node !== undefined && registry.shows(shortcut, shown))
        root.addChild(node as CommandNode<CommandSource>);
    }
    this.#hidden.set(player.uuid, this.#hiddenKey(identity));
    return { root: root as CommandNode<CommandSource>, source };
  }

  /** The commands this player may use, as a plain tree. */
  tree(player: PlayerInfo): CommandTreeNode[] {
    const identity = this.#identity(player.uuid, player.locale);
    return this.parts.engine.modules().commands().tree(identity, this.#shown(identity));
  }

  /** Command aliases the game registers as top-level commands too (`/reason …`, `/question …`). */
  shortcuts(): string[] {
    const registry = this.parts.engine.modules().commands();
    return [...registry.aliases().keys()].filter((alias) => SHORTCUT_ALIASES.has(alias));
  }

  /**
   * Sends a player's tree again when what it leaves out changed without a permission change (their daily model
   * quota was used up, or came back at midnight). Players whose tree was never sent are skipped.
   */
  recheck(playerId: string): void {
    const sent = this.#hidden.get(playerId);
    if (sent === undefined || sent === this.#hiddenKey(this.#identity(playerId, "en_us"))) return;
    this.#hidden.set(playerId, this.#hiddenKey(this.#identity(playerId, "en_us")));
    this.parts.changed(playerId);
  }

  /** `recheck` for every player whose tree was sent. */
  recheckAll(): void {
    for (const playerId of [...this.#hidden.keys()]) this.recheck(playerId);
  }

  #shown(identity: RoutingPlayer): (module: AnyAgentModule) => boolean {
    return (module) => this.parts.router.available(identity, module);
  }

  #hiddenKey(identity: RoutingPlayer): string {
    const shown = this.#shown(identity);
    const registry = this.parts.engine.modules().commands();
    return [...registry.aliases().keys()].filter((alias) => !registry.shows(alias, shown)).join(" ");
  }

  #identity(playerId: string, locale: string): RoutingPlayer {
    const { permissions, pipeline } = this.parts;
    return pipeline.routingPlayer(permissions.snapshot(playerId), locale, 0);
  }
}
