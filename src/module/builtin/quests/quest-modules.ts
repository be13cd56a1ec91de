import { argument, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { literal as literalText, translatable } from "../../../agent/text.js";
import type { Quest } from "../../../data/quests/quest-book.js";
import { GIFT_LIST } from "../../../game/tools/gift-list-tool.js";
import { codec } from "../../../util/codec.js";
import { unknownPlayer } from "../core/core-module.js";
import { ADMIN_LEVEL, type CoreServices, isAdmin } from "../core/core-services.js";
import { QUEST_CHECK_ACTION_ID, QUEST_DETAIL_ACTION_ID, QUEST_LIST_CARD } from "./quest-cards.js";
import { detailCard } from "./quest-detail-card.js";
import { IN_QUEST_BOOK, IN_QUEST_BOOK_ADMIN } from "./quest-mod-progress.js";
import { questProfiles } from "./quest-routing.js";
import type { QuestService } from "./quest-service.js";
import { questSuggestions } from "./quest-suggestions.js";
import { FTB_DETAIL, FTB_FIND, FTB_QUERY, type questTools } from "./quest-tools.js";

type QuestTools = ReturnType<typeof questTools>;

type ListInput = Record<string, never>;
export const QUEST_LIST_ACTION = ActionType.of<ListInput>(
  "system:quests",
  codec(z.object({}).strict() as z.ZodType<ListInput>),
);

/**
 * `system:quests` (`/system quests`, `/system 任务`): the complete quests whose rewards wait to be claimed first,
 * then the quests the player can work on now, numbered.
 */
export class QuestListModule extends AbstractAgentModule<ListInput> {
  constructor(
    private readonly service: QuestService,
    tools: QuestTools,
  ) {
    super({
      action: QUEST_LIST_ACTION,
      writes: "none",
      description:
        "List the FTB quests the player can claim rewards of (first) or work on now, numbered, with buttons to open them.",
      tools: [tools.query],
      routing: ModuleRouting.defaults<ListInput>()
        .command(AgentCommand.literal<ListInput>({}, "quests", "任务", "任务列表"))
        .semantic(questProfiles(service.book).list)
        .shortcut("system.quests.shortcut", {}),
    });
  }

  override async run(_input: ListInput, context: ExecutionContext): Promise<AgentResult> {
    // a completion recorded here is announced by the quest_narration rule, not on this card
    await this.service.record(context.playerId);
    const { quests } = await context.tool(FTB_QUERY, "query", {});
    return AgentResult.success(undefined, present(QUEST_LIST_CARD.card({ kind: "available", quests })));
  }
}

interface DetailInput {
  readonly query: string;
}
export const QUEST_DETAIL_ACTION = ActionType.of<DetailInput>(
  QUEST_DETAIL_ACTION_ID,
  codec(z.object({ query: z.string().trim().min(1).max(100) }).strict() as z.ZodType<DetailInput>),
);

/**
 * `system:quest` (`/system quest <name|id|number>`, `/system 任务详情 …`): one quest's card; several matches give a
 * card of candidates, a quest the player cannot see is "not found" like one that does not exist.
 */
export class QuestDetailModule extends AbstractAgentModule<DetailInput> {
  constructor(
    private readonly service: QuestService,
    tools: QuestTools,
  ) {
    super({
      action: QUEST_DETAIL_ACTION,
      writes: "none",
      description:
        "Show one FTB quest (by name, 16-hex id or list number): description, tasks with progress, rewards.",
      tools: [tools.find, tools.detail, tools.gift],
      routing: ModuleRouting.defaults<DetailInput>()
        .command(
          AgentCommand.argument<DetailInput>(
            { spec: "<quest>", suggest: questSuggestions(service) },
            (text) => (text.trim() === "" ? undefined : { query: text.trim() }),
            "quest",
            "任务详情",
          ),
        )
        .semantic(questProfiles(service.book).detail),
    });
  }

  override async run(input: DetailInput, context: ExecutionContext): Promise<AgentResult> {
    context.checkInput(input.query);
    const recorded = await this.service.record(context.playerId);
    const direct = this.service.byReference(context.playerId, input.query);
    let reference = direct?.id;
    if (reference === undefined) {
      const { quests } = await context.tool(FTB_FIND, "find", { text: input.query });
      if (quests.length !== 1)
        return AgentResult.success(
          undefined,
          present(QUEST_LIST_CARD.card({ kind: "candidates", query: input.query, quests })),
        );
      reference = quests[0]?.id as string;
    }
    const detail = await context.tool(FTB_DETAIL, "detail", { quest: reference });
    const quest = this.service.book.quests.get(detail.id);
    // the snapshot only marks a gift; its contents come from the shared gift-list tool
    const gift =
      detail.starterGift && quest !== undefined
        ? await context.tool(GIFT_LIST, "gift", giftOf(quest))
        : undefined;
    return detailCard(this.service, context, detail, recorded, gift);
  }
}

/** What a gift quest gives: its item rewards (counts multiplied out) and its experience. */
const giftOf = (quest: Quest) => {
  const items = quest.rewards.flatMap((reward) =>
    reward.type === "item" && reward.item !== undefined
      ? [{ item: reward.item.id, count: Math.min(6400, Math.max(1, reward.count * reward.item.count)) }]
      : [],
  );
  const amount = (type: string): number =>
    quest.rewards
      .filter((reward) => reward.type === type)
      .reduce((sum, reward) => sum + (reward.amount ?? 0), 0);
  return {
    items: items.slice(0, 32),
    experience: { points: Math.min(1_000_000, amount("xp")), levels: Math.min(1_000, amount("xp_levels")) },
  };
};

interface CheckInput {
  readonly task: string;
}
export const QUEST_CHECK_ACTION = ActionType.of<CheckInput>(
  QUEST_CHECK_ACTION_ID,
  codec(z.object({ task: z.string().regex(/^[0-9A-Fa-f]{16}$/) }).strict() as z.ZodType<CheckInput>),
);

/** `system:quest_check`: ticks a checkmark task from its card button (structured only: never routed from text). */
export class QuestCheckModule extends AbstractAgentModule<CheckInput> {
  constructor(private readonly service: QuestService) {
    super({
      action: QUEST_CHECK_ACTION,
      writes: "replayable",
      description: "Tick a checkmark task of an FTB quest (card button).",
      routing: ModuleRouting.structuredOnly<CheckInput>(),
    });
  }

  override async run(input: CheckInput, context: ExecutionContext): Promise<AgentResult> {
    if (this.service.keeper === "mod") throw new AgentException(IN_QUEST_BOOK);
    const taskId = input.task.toUpperCase();
    const outcome = await this.service.check(context.playerId, taskId);
    const quest = this.service.book.questOfTask(taskId);
    if (outcome === "refused" || quest === undefined)
      throw new AgentException(AgentFailure.NOT_FOUND.with(input.task));
    // the quest as it stands now (a completion this tick recorded is announced by the quest_narration rule)
    const recorded = await this.service.record(context.playerId);
    const state = await this.service.state(context.playerId);
    return detailCard(this.service, context, this.service.detail(state, quest, context.locale), recorded);
  }
}

interface CompleteInput {
  readonly player: string;
  readonly id: string;
}
export const QUEST_COMPLETE_ACTION = ActionType.of<CompleteInput>(
  "system:quest_complete",
  codec(
    z
      .object({ player: z.string().min(1).max(32), id: z.string().regex(/^#?[0-9A-Fa-f]{16}$/) })
      .strict() as z.ZodType<CompleteInput>,
  ),
);

/**
 * `/system complete <player> <quest or task id>` (admin): completes a quest, or one task, for a player, for task
 * types this server cannot observe (advancements, kills it is not told of, modded types).
 */
export class QuestCompleteModule extends AbstractAgentModule<CompleteInput> {
  constructor(
    private readonly service: QuestService,
    private readonly core: CoreServices,
  ) {
    super({
      action: QUEST_COMPLETE_ACTION,
      writes: "state",
      description: "Complete an FTB quest or one of its tasks for a player (admin).",
      routing: ModuleRouting.structuredOnly<CompleteInput>().command(
        AgentCommand.custom<CompleteInput>(["complete"], (name) =>
          literal<CommandSource>(name)
            .requires(isAdmin)
            .then(
              argument<CommandSource, string>("player", word()).then(
                argument<CommandSource, string>("id", word()).executes(async (context) => {
                  context.getSource().action({
                    player: String(context.getArgument("player")),
                    id: String(context.getArgument("id")),
                  });
                  return 1;
                }),
              ),
            ),
        ),
      ),
    });
  }

  override async run(input: CompleteInput, context: ExecutionContext): Promise<AgentResult> {
    if (context.permissionLevel < ADMIN_LEVEL) throw new AgentException(AgentFailure.PERMISSION_DENIED);
    if (this.service.keeper === "mod") throw new AgentException(IN_QUEST_BOOK_ADMIN);
    const player = this.core.resolvePlayer(input.player);
    if (player === undefined) throw new AgentException(unknownPlayer(input.player));
    const quest = await this.service.complete(player.uuid, input.id);
    if (quest === undefined) throw new AgentException(AgentFailure.NOT_FOUND.with(input.id));
    return AgentResult.success(
      translatable(
        "system.quests.admin_completed",
        input.id.toUpperCase(),
        literalText(this.service.title(quest, context.locale)),
        player.name,
      ),
    );
  }
}
