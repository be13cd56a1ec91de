import { argument, integer, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { customFailure } from "../../../agent/failure.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { PointsAccounts } from "../../../data/player-state/points-accounts.js";
import type { GameClock } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { localDay } from "../check-in/local-day.js";
import { unknownPlayer } from "../core/core-module.js";
import { ADMIN_LEVEL, isAdmin, type KnownPlayer } from "../core/core-services.js";
import { ownRead, type ReadWords } from "../core/own-read.js";
import { POINTS_ADMIN_CARD, POINTS_BALANCE_CARD, RECENT_ENTRIES } from "./points-cards.js";
import { asksHowToEarn, POINTS_CHANGES } from "./points-earning.js";

/** The most points one admin command gives or takes. */
export const MAX_ADMIN_POINTS = 1_000_000;

/** How players ask for their points (a read of their own balance; giving or moving points is not). */
const BALANCE_SAMPLES = {
  zh: [
    "我有多少积分",
    "查看我的积分",
    "积分余额",
    "我的积分还剩多少",
    "查一下余额",
    "我还有多少分",
    "积分查询",
    "我的积分记录",
    "最近的积分变化",
    "我的点数还有多少",
    "我能花的积分有多少",
    "我有多少钱",
    "余额查询",
    "看一下积分余额",
    "我总共有多少积分",
    "我的积分明细",
    "我的积分够用吗",
    "积分账户",
    "我赚到的积分",
    "显示我的余额",
    "积分还剩几个",
    "我攒下的积分",
    "账户余额",
    "积分有多少",
  ],
  en: [
    "how many points do I have",
    "show my points",
    "points balance",
    "check my balance",
    "my points",
    "what is my balance",
    "my money",
    "my point total",
    "points left",
    "show my point history",
    "recent points changes",
    "how many points did I earn",
    "how much have I got in points",
    "view my points",
    "my wallet",
    "how many points have I saved up",
    "what's my point count",
    "my account balance",
    "points remaining",
    "tell me my points",
    "current balance",
    "how many points are in my account",
    "do I have any points",
    "points I own",
  ],
} as const;

/** Points are the subject; giving, moving or spending them is a change, never a direct read of the balance. */
const BALANCE_WORDS: ReadWords = {
  topic:
    /积分|分数|几分|多少分|点数|余额|(?:我|有)的?(?:多少)?钱|钱包|账户|帐户|\bpoints?\b|\bbalance\b|\bwallet\b|\bmoney\b|\bcoins?\b|\brich\b|\baccount\b|\bscore\b/,
  changes: POINTS_CHANGES,
};

type BalanceInput = Record<string, never>;
export const POINTS_BALANCE_ACTION = ActionType.of<BalanceInput>(
  "system:balance",
  codec(z.object({}).strict() as z.ZodType<BalanceInput>),
);

/** `system:balance` (`/system balance`, `/system 余额`, `/system 积分`): the balance and the latest entries. */
export class PointsBalanceModule extends AbstractAgentModule<BalanceInput> {
  constructor(private readonly options: { readonly points: PointsAccounts; readonly clock: GameClock }) {
    super({
      action: POINTS_BALANCE_ACTION,
      writes: "none",
      description: "The player's points balance and its latest changes.",
      routing: ModuleRouting.defaults<BalanceInput>()
        .command(AgentCommand.literal<BalanceInput>({}, "balance", "余额", "积分"))
        .semantic(
          // how points are earned is the earning card's, though it names points
          RoutingProfile.read<BalanceInput>(
            (text) => (ownRead(text, BALANCE_WORDS.changes) && !asksHowToEarn(text) ? {} : undefined),
            BALANCE_SAMPLES.zh,
            BALANCE_SAMPLES.en,
          ).about(BALANCE_WORDS.topic),
        ),
    });
  }

  override async run(_input: BalanceInput, context: ExecutionContext): Promise<AgentResult> {
    const { points, clock } = this.options;
    const { balance, entries } = await points.statement(context.playerId, RECENT_ENTRIES);
    const recent = [...entries].reverse().map((entry) => ({
      amount: entry.amount,
      reason: entry.reason,
      day: localDay(entry.at, clock.timeZone),
    }));
    return AgentResult.success(undefined, present(POINTS_BALANCE_CARD.card({ balance, recent })));
  }
}

/** An admin's change of a player's points. */
export interface PointsAdminInput {
  readonly operation: "give" | "take";
  readonly player: string;
  readonly amount: number;
}
export const POINTS_ADMIN_ACTION = ActionType.of<PointsAdminInput>(
  "system:points_admin",
  codec(
    z
      .object({
        operation: z.enum(["give", "take"]),
        player: z.string().min(1).max(64),
        amount: z.number().int().min(1).max(MAX_ADMIN_POINTS),
      })
      .strict() as z.ZodType<PointsAdminInput>,
  ),
);

const operationNode = (operation: PointsAdminInput["operation"]) =>
  literal<CommandSource>(operation).then(
    argument<CommandSource, string>("player", word()).then(
      argument<CommandSource, number>("amount", integer(1, MAX_ADMIN_POINTS)).executes(async (context) => {
        context.getSource().action({
          operation,
          player: String(context.getArgument("player")),
          amount: Number(context.getArgument("amount")),
        });
        return 1;
      }),
    ),
  );

/** Options of {@link PointsAdminModule}. */
export interface PointsAdminModuleOptions {
  readonly points: PointsAccounts;
  readonly clock: GameClock;
  /** A player an admin names (online or seen before). */
  readonly resolvePlayer: (name: string) => KnownPlayer | undefined;
}

/**
 * `system:points_admin` (`/system points give|take <player> <n>`, admin only): one ledger entry with reason
 * `admin:<admin name>` whose id is the request id, so a replayed request never changes the balance twice (a
 * repeat within the replay window is answered from the replay cache and does not run). A take never goes below zero.
 */
export class PointsAdminModule extends AbstractAgentModule<PointsAdminInput> {
  constructor(private readonly options: PointsAdminModuleOptions) {
    super({
      action: POINTS_ADMIN_ACTION,
      writes: "replayable",
      description: "Give or take a player's points (admin).",
      // it writes the player file (not through a tool): one write step declares it a writing workflow
      policy: { ...SIMPLE_POLICY, writeSteps: 1 },
      routing: ModuleRouting.structuredOnly<PointsAdminInput>().command(
        AgentCommand.custom<PointsAdminInput>(["points"], (name) =>
          literal<CommandSource>(name)
            .requires(isAdmin)
            .then(operationNode("give"))
            .then(operationNode("take")),
        ),
      ),
    });
  }

  override async run(input: PointsAdminInput, context: ExecutionContext): Promise<AgentResult> {
    if (context.permissionLevel < ADMIN_LEVEL) throw new AgentException(AgentFailure.PERMISSION_DENIED);
    const { points, clock, resolvePlayer } = this.options;
    const player = resolvePlayer(input.player);
    if (player === undefined) throw new AgentException(unknownPlayer(input.player));
    const adminName = resolvePlayer(context.playerId)?.name ?? context.playerId;
    const reason = `admin:${adminName}`;
    const at = clock.now();
    context.checkAlive();
    // a request id already in the ledger is this request run again: it was done then
    const change = { id: context.requestId, amount: input.amount, reason, at };
    const outcome =
      input.operation === "give"
        ? { done: true, balance: (await points.credit(player.uuid, change)).balance }
        : await points
            .debit(player.uuid, change)
            .then((debit) => ({ done: debit.outcome !== "insufficient", balance: debit.balance }));
    const card = POINTS_ADMIN_CARD.card({
      status: !outcome.done ? "insufficient" : input.operation === "give" ? "given" : "taken",
      player: player.name,
      amount: input.amount,
      balance: outcome.balance,
    });
    if (outcome.done) return AgentResult.success(undefined, present(card));
    return AgentResult.error(
      customFailure(
        // the code the shop refuses an order with too (AgentFailure.INSUFFICIENT_BALANCE)
        "INSUFFICIENT_BALANCE",
        "system.points.admin.insufficient",
        String(input.amount),
        player.name,
        String(outcome.balance),
      ),
    ).withPresentation(present(card));
  }
}
