import { argument, greedyString, literal, RootCommandNode } from "@jsprismarine/brigadier";
import type CommandNode from "@jsprismarine/brigadier/tree/CommandNode";
import type { CommandTreeNode } from "../agent/command/command-registry.js";
import { type CommandSource, RecordingCommandSource } from "../agent/command/command-source.js";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { PermissionService } from "../module/permissions/permission-service.js";
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
 * inspection) and as completions: every view filtered by the player's permissions and features now.
 */
export class PlayerCommandTrees {
  constructor(
    private readonly parts: {
      readonly engine: AgentEngine;
      readonly permissions: PermissionService;
      readonly pipeline: RequestPipeline;
    },
  ) {}

  /** Completions for the last token of a line (after `/system`). */
  async completions(player: PlayerInfo, line: string): Promise<string[]> {
    return this.parts.engine.modules().commands().completions(line, this.#identity(player));
  }

  /** `/system <instruction>` with every command the player may use, plus the shortcuts. */
  root(player: PlayerInfo): PlayerCommandTree {
    const registry = this.parts.engine.modules().commands();
    const snapshot = this.parts.permissions.snapshot(player.uuid);
    const source = new RecordingCommandSource({
      playerId: player.uuid,
      permissionLevel: snapshot.opLevel,
      features: snapshot.features,
    });
    const system = literal<CommandSource>("system")
      .then(argument<CommandSource, string>("instruction", greedyString()).executes(async () => 1))
      .build();
    for (const child of registry.root().getChildren()) system.addChild(child as CommandNode<CommandSource>);
    const root = new RootCommandNode<CommandSource>();
    root.addChild(system);
    for (const shortcut of this.shortcuts()) {
      const node = registry.root().getChild(shortcut);
      if (node !== undefined) root.addChild(node as CommandNode<CommandSource>);
    }
    return { root: root as CommandNode<CommandSource>, source };
  }

  /** The commands this player may use, as a plain tree. */
  tree(player: PlayerInfo): CommandTreeNode[] {
    return this.parts.engine.modules().commands().tree(this.#identity(player));
  }

  /** Command aliases the game registers as top-level commands too (`/reason …`, `/question …`). */
  shortcuts(): string[] {
    const registry = this.parts.engine.modules().commands();
    return [...registry.aliases().keys()].filter((alias) => SHORTCUT_ALIASES.has(alias));
  }

  #identity(player: PlayerInfo) {
    const { permissions, pipeline } = this.parts;
    return pipeline.routingPlayer(permissions.snapshot(player.uuid), player.locale, 0);
  }
}
