import { argument, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentResult } from "../../src/agent/agent-result.js";
import { AgentCommand } from "../../src/agent/command/agent-command.js";
import { CommandArguments } from "../../src/agent/command/command-arguments.js";
import type { CommandSource } from "../../src/agent/command/command-source.js";
import { SIMPLE_POLICY } from "../../src/agent/execution/policy-defaults.js";
import {
  AbstractAgentModule,
  type AgentModuleOptions,
} from "../../src/agent/module/abstract-agent-module.js";
import { ActionType } from "../../src/agent/module/action-type.js";
import { ModuleRouting } from "../../src/agent/module/module-routing.js";
import { RoutingProfile } from "../../src/agent/module/routing-profile.js";
import { type AnyTool, Tool } from "../../src/agent/tool/tool.js";
import { ToolType } from "../../src/agent/tool/tool-type.js";
import { codec } from "../../src/util/codec.js";
import { Identifier } from "../../src/util/identifier.js";

/** Fixture workflows for routing tests: read-only queries, a write shop, an explicit-only and a structured-only module. */
export class FixtureModule<I> extends AbstractAgentModule<I> {
  readonly runs: I[] = [];
  constructor(options: AgentModuleOptions<I>) {
    super(options);
  }
  async run(input: I): Promise<AgentResult> {
    this.runs.push(input);
    return AgentResult.success();
  }
}

export interface ItemQueryInput {
  readonly query: string;
  readonly page: number;
}
export const ITEM_QUERY = ActionType.of<ItemQueryInput>(
  "system:item_query",
  codec(z.object({ query: z.string().min(1).max(256), page: z.number().int().min(0) })),
);
export const PLAYER_QUERY = ActionType.of<Record<string, never>>(
  "system:player_query",
  codec(z.object({}).strict()),
);
export const HELP = ActionType.of<{ topic: string }>(
  "system:help",
  codec(z.object({ topic: z.string().max(64) })),
);
export interface BuyInput {
  readonly item: string;
  readonly count: number;
}
export const SHOP_BUY = ActionType.of<BuyInput>(
  "system:shop_buy",
  codec(z.object({ item: z.string().min(1), count: z.number().int().min(1).max(64) })),
);
export const PAY_CONFIRM = ActionType.of<{ order: string }>(
  "system:pay_confirm",
  codec(z.object({ order: z.string().min(1) })),
);
export const QUEST_DETAIL = ActionType.of<{ quest: string }>(
  "system:quest_detail",
  codec(z.object({ quest: z.string().min(1) })),
);
export const RELOAD = ActionType.of<{ scope: string }>(
  "system:reload",
  codec(z.object({ scope: z.string() })),
);

const tool = (id: string): AnyTool =>
  Tool.of(ToolType.of(id, codec(z.object({})), codec(z.object({}))), async () => ({})) as unknown as AnyTool;
const readTool = (id: string): AnyTool => tool(id).asReadOnly();

export const SHOP = Identifier.parse("system:shop");
export const QUESTS = Identifier.parse("system:ftbq");

/** Builds fresh fixture modules (each test gets its own engine). */
export const routingModules = () => ({
  item: new FixtureModule<ItemQueryInput>({
    action: ITEM_QUERY,
    description: "Look up an item by id.",
    tools: [readTool("system:item.lookup")],
    routing: ModuleRouting.defaults<ItemQueryInput>()
      .command(
        AgentCommand.argument("<query>", (text) => ({ query: text, page: 0 }), "item", "物品", "查询物品"),
      )
      .semantic(
        RoutingProfile.read(
          (text) => {
            const id = CommandArguments.singleItemId(text);
            return id === undefined ? undefined : { query: id, page: 0 };
          },
          ["查询物品 minecraft:diamond", "物品信息 minecraft:stone", "查一下物品 minecraft:iron_ingot"],
          ["look up item minecraft:diamond", "show item minecraft:stone", "item info minecraft:iron_ingot"],
        ),
      )
      .choice("system.selection.item"),
  }),
  player: new FixtureModule<Record<string, never>>({
    action: PLAYER_QUERY,
    description: "Show the player's own information.",
    tools: [readTool("system:player.info")],
    routing: ModuleRouting.defaults<Record<string, never>>()
      .command(AgentCommand.literal({}, "me", "玩家信息"))
      .semantic(
        RoutingProfile.read(
          () => ({}),
          ["玩家信息", "查看我的信息", "我的状态"],
          ["show my player info", "my status", "who am i"],
        ),
      )
      .shortcut("system.selection.me", {}),
  }),
  help: new FixtureModule<{ topic: string }>({
    action: HELP,
    description: "List what System can do.",
    routing: ModuleRouting.defaults<{ topic: string }>()
      .command(AgentCommand.argument("[topic]", (text) => ({ topic: text }), "help", "帮助"))
      .semantic(
        RoutingProfile.read(
          () => ({ topic: "" }),
          ["帮助", "有哪些指令", "你能做什么"],
          ["help", "what commands are there", "what can you do"],
        ),
      )
      .shortcut("system.selection.help", { topic: "" }),
  }),
  shop: new FixtureModule<BuyInput>({
    action: SHOP_BUY,
    description: "Buy an item from the server shop.",
    owner: SHOP,
    policy: { ...SIMPLE_POLICY, writeSteps: 1 },
    tools: [tool("system:shop.pay")],
    routing: ModuleRouting.defaults<BuyInput>()
      .command(AgentCommand.identifier("item", (id) => ({ item: id.toString(), count: 1 }), "buy", "购买"))
      .semantic(
        // an item's price is the shop's as much as the item's: "minecraft:diamond 多少钱" stays ambiguous
        RoutingProfile.hints(
          ["购买物品 minecraft:diamond", "买一个钻石", "minecraft:emerald 多少钱"],
          ["buy item minecraft:diamond"],
        ),
      ),
  }),
  pay: new FixtureModule<{ order: string }>({
    action: PAY_CONFIRM,
    description: "Confirm a payment.",
    owner: SHOP,
    routing: ModuleRouting.structuredOnly<{ order: string }>().command(
      AgentCommand.custom(["confirm"], (alias) =>
        literal<CommandSource>(alias).then(
          argument<CommandSource, string>("order", word()).executes(async (context) => {
            context.getSource().action({ order: String(context.getArgument("order")) });
            return 1;
          }),
        ),
      ),
    ),
  }),
  quest: new FixtureModule<{ quest: string }>({
    action: QUEST_DETAIL,
    description: "Show one quest.",
    owner: QUESTS,
    tools: [readTool("system:quest.detail")],
    routing: ModuleRouting.explicitOnly<{ quest: string }>()
      .command(AgentCommand.argument("<quest>", (text) => ({ quest: text }), "quest", "任务"))
      .semantic(RoutingProfile.hints(["查看任务 挖矿", "任务详情"], ["show quest mining", "quest details"])),
  }),
  reload: new FixtureModule<{ scope: string }>({
    action: RELOAD,
    description: "Reload data (operators).",
    routing: ModuleRouting.structuredOnly<{ scope: string }>().command(
      AgentCommand.custom(["reload"], (alias) =>
        literal<CommandSource>(alias)
          .requires((source) => source.permissionLevel >= 2)
          .executes(async (context) => {
            context.getSource().action({ scope: "all" });
            return 1;
          }),
      ),
    ),
  }),
});

export type RoutingModules = ReturnType<typeof routingModules>;

/** The identity of an ordinary player with the given features enabled. */
export const identity = (playerId: string, features: readonly string[] = [], permissionLevel = 0) => ({
  playerId,
  permissionLevel,
  features: new Set(features),
});
