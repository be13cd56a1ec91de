import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import type { AgentStore } from "../../../agent/storage/agent-store.js";
import type { ModuleStorage } from "../../../agent/storage/module-storage.js";
import { hadNoEffect, wasDeferred } from "../../../agent/storage/no-effect.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { Tool } from "../../../agent/tool/tool.js";
import type { EventSink } from "../../../game/context-types.js";
import {
  GIVE_ITEMS,
  type GiveInput,
  ITEM_STACK,
  type ItemStack,
} from "../../../game/tools/give-items-tool.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { QUEST_CLAIM_ACTION_ID, QUEST_CLAIM_CARD, type QuestClaimCardData } from "./quest-claim-card.js";
import { IN_QUEST_BOOK } from "./quest-mod-progress.js";
import type { QuestProgress, QuestProgressData } from "./quest-progress.js";
import { planClaim } from "./quest-rewards.js";
import type { QuestService } from "./quest-service.js";

/** The durable event type that delivers a quest's rewards. */
export const QUEST_REWARD_EVENT = "system:deliver_quest_reward";

interface ClaimInput {
  readonly quest: string;
  readonly choices?: Readonly<Record<string, number>> | undefined;
}
const HEX = z.string().regex(/^[0-9A-Fa-f]{16}$/);
export const QUEST_CLAIM_ACTION = ActionType.of<ClaimInput>(
  QUEST_CLAIM_ACTION_ID,
  codec(
    z
      .object({ quest: HEX, choices: z.record(HEX, z.number().int().nonnegative().max(255)).optional() })
      .strict() as z.ZodType<ClaimInput>,
  ),
);

interface Experience {
  readonly points: number;
  readonly levels: number;
}
const hasExperience = (experience: Experience | undefined): experience is Experience =>
  experience !== undefined && experience.points + experience.levels > 0;

interface DeliveryInput {
  readonly quest: string;
  readonly items: readonly ItemStack[];
  readonly experience?: Experience | undefined;
}
export const QUEST_DELIVERY_ACTION = ActionType.of<DeliveryInput>(
  "system:quest_reward_delivery",
  codec(
    z
      .object({
        quest: HEX,
        items: z.array(ITEM_STACK.schema).max(64),
        experience: z
          .object({ points: z.number().int().nonnegative(), levels: z.number().int().nonnegative() })
          .optional(),
      })
      .refine(
        (input) => input.items.length > 0 || hasExperience(input.experience),
        "items or experience",
      ) as unknown as z.ZodType<DeliveryInput>,
  ),
);

export interface QuestClaimOptions {
  readonly owner: Identifier;
  readonly service: QuestService;
  readonly store: AgentStore;
  readonly storage: ModuleStorage<QuestProgressData, QuestProgress>;
  readonly events: EventSink;
  readonly random: () => number;
}

/** The delivery event of one claim attempt: stable per feature, player, quest and attempt (re-offering is a no-op). */
export const questDeliveryId = (
  owner: Identifier,
  playerId: string,
  quest: string,
  attempt: number,
): string => `${owner}/quest/${playerId}/${quest}${attempt === 0 ? "" : `#${attempt}`}`;

/**
 * `system:quest_claim` (the "Claim rewards" button; structured only): plans the claim (table draws recorded here,
 * once), records it with every reward it consumes in one player-file transaction, then queues one durable
 * delivery event. A second click finds the claim and queues nothing new; an attempt that gave nothing (no room)
 * may be retried by clicking again.
 */
export class QuestClaimModule extends AbstractAgentModule<ClaimInput> {
  constructor(private readonly options: QuestClaimOptions) {
    super({
      action: QUEST_CLAIM_ACTION,
      writes: "state",
      description: "Claim the rewards of a completed FTB quest (card button).",
      routing: ModuleRouting.structuredOnly<ClaimInput>(),
      // idempotent by itself (a second click finds the claim, says it was claimed and queues nothing new), so it
      // is not replayed: a claim after an attempt that gave nothing (no room) must run again and queue the next one
      policy: SIMPLE_POLICY,
    });
  }

  override async run(input: ClaimInput, context: ExecutionContext): Promise<AgentResult> {
    const { service, store, storage } = this.options;
    const playerId = context.playerId;
    // the FTB Quests mod delivers its rewards itself: System never delivers one it delivers
    if (service.keeper === "mod") throw new AgentException(IN_QUEST_BOOK);
    const quest = service.book.quests.get(input.quest.toUpperCase());
    const state = await service.state(playerId);
    if (quest === undefined || !state.visible(quest))
      throw new AgentException(AgentFailure.NOT_FOUND.with(input.quest));
    const card = (data: Omit<QuestClaimCardData, "questId" | "title">): AgentResult =>
      AgentResult.success(
        undefined,
        present(
          QUEST_CLAIM_CARD.card({ questId: quest.id, title: service.title(quest, context.locale), ...data }),
        ),
      );
    if (state.status(quest) !== "complete") return card({ status: "incomplete", items: [], skipped: [] });
    const existing = await store.read(playerId, (data) => ModuleData.get(data, storage).claim(quest.id));
    if (existing !== undefined) {
      if (existing.state === "PENDING" && existing.retry) {
        const attempt = await store.transaction(playerId, (data) =>
          ModuleData.get(data, storage).nextAttempt(quest.id),
        );
        if (attempt !== undefined)
          await this.#submit(playerId, quest.id, existing.items, existing.experience, attempt);
        return card({
          status: "queued",
          items: this.#named(existing.items, context),
          ...experienceOf(existing.experience),
          skipped: [],
        });
      }
      return card({
        status: existing.state === "UNCONFIRMED" ? "unconfirmed" : "already",
        items: [],
        skipped: [],
      });
    }
    const plan = planClaim({
      book: service.book,
      quest,
      catalog: service.catalog,
      choices: input.choices ?? {},
      random: this.options.random,
    });
    const skipped = plan.skipped.map((entry) => {
      const reward = quest.rewards.find((candidate) => candidate.id === entry.rewardId);
      const name =
        entry.item ??
        (reward === undefined
          ? entry.rewardId
          : service.book.text(reward.title, context.locale) || reward.type);
      return { name, reason: entry.reason };
    });
    if (plan.choice !== undefined)
      return card({
        status: "choose",
        items: [],
        skipped: [],
        choice: {
          rewardId: plan.choice.rewardId,
          options: plan.choice.options.map((option) => ({
            index: option.index,
            name: service.itemName({ id: option.item.item, count: 1 }, context.locale),
            count: option.item.count,
          })),
        },
      });
    if (plan.items.length === 0 && !hasExperience(plan.experience))
      return card({ status: "nothing", items: [], skipped });
    const started = await store.transaction(playerId, (data) =>
      ModuleData.get(data, storage).startClaim(
        quest.id,
        plan.rewardIds,
        { items: plan.items, experience: plan.experience },
        Date.now(),
      ),
    );
    if (!started) return card({ status: "already", items: [], skipped: [] });
    await this.#submit(playerId, quest.id, plan.items, plan.experience, 0);
    return card({
      status: "queued",
      items: this.#named(plan.items, context),
      ...experienceOf(plan.experience),
      skipped,
    });
  }

  /**
   * Queues the delivery of every claim still PENDING (not waiting for the player to claim again). Each attempt's
   * event id is fixed, so a delivery that was queued already is a duplicate and nothing is given twice; one that a
   * crash stopped between recording the claim and queueing it is queued now.
   */
  async requeue(playerId: string): Promise<void> {
    const { store, storage } = this.options;
    const pending = await store.read(playerId, (data) => ModuleData.get(data, storage).pendingClaims());
    for (const [quest, claim] of pending)
      await this.#submit(playerId, quest, claim.items, claim.experience, claim.attempt);
  }

  #named(items: readonly ItemStack[], context: ExecutionContext): { name: string; count: number }[] {
    return items.map((stack) => ({
      name: this.options.service.itemName({ id: stack.item, count: 1 }, context.locale),
      count: stack.count,
    }));
  }

  async #submit(
    playerId: string,
    quest: string,
    items: readonly ItemStack[],
    experience: Experience,
    attempt: number,
  ): Promise<void> {
    const admission = await this.options.events.submit({
      id: questDeliveryId(this.options.owner, playerId, quest, attempt),
      eventType: QUEST_REWARD_EVENT,
      action: QUEST_DELIVERY_ACTION.action({
        quest,
        items: [...items],
        ...(hasExperience(experience) ? { experience: { ...experience } } : {}),
      }),
      playerId,
      owner: this.options.owner.toString(),
    });
    if (!admission.accepted && !admission.duplicate) throw new AgentException(admission.failure);
  }
}

/** The card fields of a claim's experience (none when it gives none). */
const experienceOf = (experience: Experience | undefined): { experience?: Experience } =>
  hasExperience(experience) ? { experience: { ...experience } } : {};

/**
 * `system:quest_reward_delivery`: the durable event that gives a claim's stacks and experience in one
 * `game.give_items` step (all or none, in one save, done only once they are in the player's saved data; a DONE step
 * is replayed, never given again). A give that did nothing (no room, offline) lets the player claim again; one
 * interrupted mid-way is held UNCONFIRMED for an admin.
 */
export class QuestDeliveryModule extends AbstractAgentModule<DeliveryInput> {
  constructor(
    private readonly options: QuestClaimOptions,
    giveItems: Tool<GiveInput, { given: ItemStack[] }>,
  ) {
    super({
      action: QUEST_DELIVERY_ACTION,
      writes: "state",
      description: "Deliver the rewards of a claimed FTB quest.",
      tools: [giveItems],
      interactive: false,
      event: true,
      eventTypes: [QUEST_REWARD_EVENT],
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 4, steps: 4, writeSteps: 2 },
    });
  }

  /** The admin found the rewards given: the claim is DELIVERED. */
  async effectConfirmed(input: DeliveryInput, playerId: string): Promise<void> {
    const { store, storage } = this.options;
    await store.transaction(playerId, (data) =>
      ModuleData.get(data, storage).settle(input.quest, "DELIVERED"),
    );
  }

  override async run(input: DeliveryInput, context: ExecutionContext): Promise<AgentResult> {
    const { store, storage, service } = this.options;
    const playerId = context.playerId;
    const quest = service.book.quests.get(input.quest);
    const title = quest === undefined ? input.quest : service.title(quest, context.locale);
    const claim = await store.read(playerId, (data) => ModuleData.get(data, storage).claim(input.quest));
    const card = (status: QuestClaimCardData["status"]) =>
      present(
        QUEST_CLAIM_CARD.card({
          questId: input.quest,
          title,
          status,
          items: input.items.map((stack) => ({
            name: service.itemName({ id: stack.item, count: 1 }, context.locale),
            count: stack.count,
          })),
          ...experienceOf(input.experience),
          skipped: [],
        }),
      );
    if (claim?.state === "DELIVERED") return AgentResult.success(undefined, card("delivered"));
    try {
      await context.tool(GIVE_ITEMS, "give", {
        items: [...input.items],
        ...(hasExperience(input.experience) ? { experience: { ...input.experience } } : {}),
      });
    } catch (error) {
      // nothing given: the claim's task waits until the world can take the rewards
      if (wasDeferred(error)) throw error;
      if (hadNoEffect(error)) {
        await store.transaction(playerId, (data) => ModuleData.get(data, storage).allowRetry(input.quest));
        return AgentResult.error(AgentException.failure(error)).withPresentation(card("retry"));
      }
      const failure = AgentException.failure(error);
      try {
        await store.transaction(playerId, (data) =>
          ModuleData.get(data, storage).settle(input.quest, "UNCONFIRMED"),
        );
      } catch {
        // the event itself stays UNCONFIRMED in the journal for an admin
      }
      const unknown =
        failure.code === AgentFailure.EFFECT_UNKNOWN.code
          ? failure
          : AgentFailure.EFFECT_UNKNOWN.with(failure.code);
      return AgentResult.error(unknown).withPresentation(card("unconfirmed"));
    }
    await store.transaction(playerId, (data) =>
      ModuleData.get(data, storage).settle(input.quest, "DELIVERED"),
    );
    return AgentResult.success(undefined, card("delivered"));
  }
}
