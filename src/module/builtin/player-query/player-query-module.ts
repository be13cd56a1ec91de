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
import { extractPlayerQuery, PLAYER_FIELDS, type PlayerField } from "./player-fields.js";

/** A player only ever reads their own state; `field` is the part asked about, shown first. */
export interface PlayerQueryInput {
  readonly field?: PlayerField;
}
export const PLAYER_QUERY_ACTION = ActionType.of<PlayerQueryInput>(
  "system:player_query",
  codec(z.object({ field: z.enum(PLAYER_FIELDS).optional() }).strict() as z.ZodType<PlayerQueryInput>),
);

const SHOWN_ITEMS = 8;

/** How players ask about themselves: health, hunger, level, position, dimension, game mode, inventory. */
const PLAYER_QUERY_SAMPLES = {
  zh: [
    "查看我的状态",
    "我的血量和饥饿值是多少",
    "我现在在哪个坐标",
    "查看我的背包",
    "我还有多少血",
    "我饿不饿",
    "我现在几级",
    "我的经验等级",
    "我在哪",
    "我的位置",
    "我背包里有什么",
    "我身上带了什么东西",
    "我在哪个维度",
    "我现在是什么游戏模式",
    "显示我的信息",
    "看看我的属性",
    "我的生命值",
    "我的血量",
    "我的坐标",
    "我的饱食度",
    "我的物品栏",
    "我饿了没有",
    "我的游戏模式",
    "我现在多少血",
    "我所在的维度",
    "我现在在末地还是主世界",
    "我身上的物品",
    "我的经验",
    "显示我的状态",
  ],
  en: [
    "show my status",
    "what is my health and hunger",
    "where am I now",
    "what is in my inventory",
    "how much health do I have",
    "am I hungry",
    "what level am I",
    "my xp level",
    "what are my coordinates",
    "show my position",
    "what am I carrying",
    "which dimension am I in",
    "what game mode am I in",
    "check my stats",
    "my hp",
    "show me my inventory",
    "how many experience levels do i have",
    "my hunger",
    "my level",
    "my inventory",
    "am I in the overworld or the nether",
    "what world am I in",
    "how many hearts are left",
    "what items do I have on me",
    "my food bar",
    "my status",
    "am I in creative or survival",
  ],
} as const;

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
      writes: "none",
      description:
        "Show the player's health, food, experience, position, dimension, game mode and inventory.",
      tools: [options.tool] as unknown as readonly AnyTool[],
      owner: options.owner,
      routing: ModuleRouting.defaults<PlayerQueryInput>()
        .command(AgentCommand.literal<PlayerQueryInput>({}, "me", "player", "我的状态", "玩家信息"))
        .semantic(
          RoutingProfile.read<PlayerQueryInput>(
            extractPlayerQuery,
            PLAYER_QUERY_SAMPLES.zh,
            PLAYER_QUERY_SAMPLES.en,
          ),
        )
        .shortcut("system.player.shortcut", {}),
    });
  }

  override async run(input: PlayerQueryInput, context: ExecutionContext): Promise<AgentResult> {
    const info = await context.tool(PLAYER_INFO, "info", {});
    const chinese = context.locale.toLowerCase().startsWith("zh");
    const itemNames = (info.stats.inventory?.totals ?? []).slice(0, SHOWN_ITEMS).map((total) => {
      const item = this.options.catalog?.lookup(total.item);
      if (item === undefined) return total.item;
      return chinese ? (item.names.zh_cn ?? item.names.en_us) : item.names.en_us;
    });
    return AgentResult.success(
      undefined,
      present(
        PLAYER_CARD.card({
          name: info.name,
          stats: info.stats,
          itemNames,
          ...(input.field === undefined ? {} : { focus: input.field }),
        }),
      ),
    );
  }
}
