import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { AnyTool, Tool } from "../../../agent/tool/tool.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import { PLAYER_INFO, type PlayerInfoOutput } from "../../../game/tools/player-tools.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { PLAYER_CARD } from "./player-card.js";

/** The player query takes no arguments: a player only ever reads their own state. */
export type PlayerQueryInput = Record<string, never>;
export const PLAYER_QUERY_ACTION = ActionType.of<PlayerQueryInput>(
  "system:player_query",
  codec(z.object({}).strict() as z.ZodType<PlayerQueryInput>),
);

const SHOWN_ITEMS = 8;

export interface PlayerQueryModuleOptions {
  readonly owner: Identifier;
  readonly tool: Tool<Record<string, never>, PlayerInfoOutput>;
  /** Item names for the inventory summary; ids are shown without it. */
  readonly catalog: ItemCatalog | undefined;
}

/** `system:player_query`: the asking player's stats snapshot as a card (read-only, directly routable). */
export class PlayerQueryModule extends AbstractAgentModule<PlayerQueryInput> {
  constructor(private readonly options: PlayerQueryModuleOptions) {
    super({
      action: PLAYER_QUERY_ACTION,
      description:
        "Show the player's health, food, experience, position, dimension, game mode and inventory.",
      tools: [options.tool] as unknown as readonly AnyTool[],
      owner: options.owner,
      routing: ModuleRouting.defaults<PlayerQueryInput>()
        .command(AgentCommand.literal<PlayerQueryInput>({}, "me", "player", "我的状态", "玩家信息"))
        .semantic(
          RoutingProfile.read<PlayerQueryInput>(
            () => ({}),
            ["查看我的状态", "我的血量和饥饿值是多少", "我现在在哪个坐标", "查看我的背包"],
            ["show my status", "what is my health and hunger", "where am I now", "what is in my inventory"],
          ),
        )
        .shortcut("system.player.shortcut", {}),
    });
  }

  override async run(_input: PlayerQueryInput, context: ExecutionContext): Promise<AgentResult> {
    const info = await context.tool(PLAYER_INFO, "info", {});
    const chinese = context.locale.toLowerCase().startsWith("zh");
    const itemNames = info.stats.inventory.totals.slice(0, SHOWN_ITEMS).map((total) => {
      const item = this.options.catalog?.lookup(total.item);
      if (item === undefined) return total.item;
      return chinese ? (item.names.zh_cn ?? item.names.en_us) : item.names.en_us;
    });
    return AgentResult.success(
      undefined,
      present(PLAYER_CARD.card({ name: info.name, stats: info.stats, itemNames })),
    );
  }
}
