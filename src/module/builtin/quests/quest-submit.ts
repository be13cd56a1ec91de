import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { present } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { hadNoEffect, wasDeferred } from "../../../agent/storage/no-effect.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import { literal } from "../../../agent/text.js";
import type { Tool } from "../../../agent/tool/tool.js";
import type { EventSink } from "../../../game/context-types.js";
import { ITEM_STACK, type ItemStack } from "../../../game/tools/give-items-tool.js";
import { TAKE_ITEMS } from "../../../game/tools/player-write-tools.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { QUEST_SUBMIT_ACTION_ID } from "./quest-cards.js";
import type { QuestClaimOptions } from "./quest-claim.js";
import { detailCard } from "./quest-detail-card.js";
import { IN_QUEST_BOOK } from "./quest-mod-progress.js";
import { consumes } from "./quest-state.js";

/** The durable event type that hands in the items of a `consume_items` task. */
export const QUEST_HAND_IN_EVENT = "system:quest_hand_in";

const submitCardSchema = z.object({
  task: z.string(),
  item: z.string(),
  count: z.number().int().positive(),
  /** queued: on its way; missing: not enough held, nothing taken; unconfirmed: an admin checks the take. */
  status: z.enum(["queued", "missing", "unconfirmed"]),
});

/** `system:quest_submit`: the reply to a hand-in (the quest card follows once the items are taken). */
export const QUEST_SUBMIT_CARD = CardType.of<z.infer<typeof submitCardSchema>>(
  "system:quest_submit",
  codec(submitCardSchema),
  (data) =>
    CardBuilder.of(`system.quests.submit.${data.status}`, literal(data.item), literal(String(data.count))),
);

const HEX = z.string().regex(/^[0-9A-Fa-f]{16}$/);

interface SubmitInput {
  readonly task: string;
}
export const QUEST_SUBMIT_ACTION = ActionType.of<SubmitInput>(
  QUEST_SUBMIT_ACTION_ID,
  codec(z.object({ task: HEX }).strict() as z.ZodType<SubmitInput>),
);

interface HandInInput {
  readonly task: string;
  readonly items: readonly ItemStack[];
}
export const QUEST_HAND_IN_ACTION = ActionType.of<HandInInput>(
  "system:quest_hand_in",
  codec(z.object({ task: HEX, items: z.array(ITEM_STACK.schema).min(1).max(1) }) as z.ZodType<HandInInput>),
);

/** What the hand-in modules need: the quest service and storage, and where durable events go. */
export interface QuestSubmitOptions extends Pick<QuestClaimOptions, "service" | "store" | "storage"> {
  readonly owner: Identifier;
  readonly events: EventSink;
  readonly now: () => number;
}

/**
 * `system:quest_submit` (the "Hand in" button; structured only): for a `consume_items` task of a quest the player
 * can work on, queues one durable hand-in event. Clicking twice queues twice, but events of a player run one at a
 * time and a hand-in whose task is already done takes nothing.
 */
export class QuestSubmitModule extends AbstractAgentModule<SubmitInput> {
  constructor(private readonly options: QuestSubmitOptions) {
    super({
      action: QUEST_SUBMIT_ACTION,
      writes: "replayable",
      description: "Hand in the items of an FTB quest task that consumes them (card button).",
      routing: ModuleRouting.structuredOnly<SubmitInput>(),
    });
  }

  override async run(input: SubmitInput, context: ExecutionContext): Promise<AgentResult> {
    const { service } = this.options;
    if (service.keeper === "mod") throw new AgentException(IN_QUEST_BOOK);
    const taskId = input.task.toUpperCase();
    const quest = service.book.questOfTask(taskId);
    const task = quest?.tasks.find((candidate) => candidate.id === taskId);
    const state = await service.state(context.playerId);
    if (quest === undefined || task?.item === undefined || !consumes(task) || !state.visible(quest))
      throw new AgentException(AgentFailure.NOT_FOUND.with(input.task));
    if (!state.unlocked(quest) || state.task(task).status === "done")
      throw new AgentException(AgentFailure.NOT_FOUND.with(input.task));
    const items = [{ item: task.item.id, count: Math.max(1, task.count) }];
    const admission = await this.options.events.submit({
      id: `${this.options.owner}/hand-in/${context.playerId}/${taskId}/${this.options.now()}`,
      eventType: QUEST_HAND_IN_EVENT,
      action: QUEST_HAND_IN_ACTION.action({ task: taskId, items }),
      playerId: context.playerId,
      owner: this.options.owner.toString(),
    });
    if (!admission.accepted && !admission.duplicate) throw new AgentException(admission.failure);
    const name = service.itemName(task.item, context.locale);
    return AgentResult.success(
      undefined,
      present(
        QUEST_SUBMIT_CARD.card({ task: taskId, item: name, count: items[0]?.count ?? 1, status: "queued" }),
      ),
    );
  }
}

/**
 * `system:quest_hand_in`: the durable event that takes a task's items in one `game.take_items` step (all or
 * none, done only once the inventory without them is saved; a DONE step is replayed, never taken again), then
 * records the task done. A player who no longer holds them loses nothing; a take interrupted mid-way is held
 * UNCONFIRMED for an admin (who completes the task with `/system complete` once they have checked).
 */
export class QuestHandInModule extends AbstractAgentModule<HandInInput> {
  constructor(
    private readonly options: QuestSubmitOptions,
    takeItems: Tool<{ items: ItemStack[] }, { taken: ItemStack[] }>,
  ) {
    super({
      action: QUEST_HAND_IN_ACTION,
      writes: "state",
      description: "Hand in the items of an FTB quest task.",
      tools: [takeItems],
      interactive: false,
      event: true,
      eventTypes: [QUEST_HAND_IN_EVENT],
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 4, steps: 4, writeSteps: 2 },
    });
  }

  override async run(input: HandInInput, context: ExecutionContext): Promise<AgentResult> {
    const { service, store, storage } = this.options;
    const playerId = context.playerId;
    const quest = service.book.questOfTask(input.task);
    if (quest === undefined) throw new AgentException(AgentFailure.NOT_FOUND.with(input.task));
    const stack = input.items[0] ?? { item: "", count: 1 };
    const card = (status: "missing" | "unconfirmed") =>
      present(
        QUEST_SUBMIT_CARD.card({
          task: input.task,
          item: service.itemName({ id: stack.item, count: 1 }, context.locale),
          count: stack.count,
          status,
        }),
      );
    const done = await store.read(playerId, (data) => ModuleData.get(data, storage).done(input.task));
    if (!done) {
      try {
        await context.tool(TAKE_ITEMS, "take", { items: [...input.items] });
      } catch (error) {
        const failure = AgentException.failure(error);
        // nothing taken because the world cannot be reached now: said as it is, not as items missing
        if (wasDeferred(error)) throw error;
        if (hadNoEffect(error)) return AgentResult.error(failure).withPresentation(card("missing"));
        const unknown =
          failure.code === AgentFailure.EFFECT_UNKNOWN.code
            ? failure
            : AgentFailure.EFFECT_UNKNOWN.with(failure.code);
        return AgentResult.error(unknown).withPresentation(card("unconfirmed"));
      }
      const at = this.options.now();
      await store.transaction(playerId, (data) => ModuleData.get(data, storage).complete(input.task, at));
    }
    const recorded = await service.record(playerId);
    const state = await service.state(playerId);
    return detailCard(service, context, service.detail(state, quest, context.locale), recorded);
  }
}
