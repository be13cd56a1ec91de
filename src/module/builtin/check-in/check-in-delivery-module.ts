import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import type { Failure } from "../../../agent/failure.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import type { AgentStore } from "../../../agent/storage/agent-store.js";
import type { ModuleStorage } from "../../../agent/storage/module-storage.js";
import { hadNoEffect } from "../../../agent/storage/no-effect.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { AnyTool, Tool } from "../../../agent/tool/tool.js";
import type { EventSink } from "../../../game/context-types.js";
import { GameFailures } from "../../../game/tools/game-failures.js";
import { GIVE_ITEMS, ITEM_STACK, type ItemStack } from "../../../game/tools/give-items-tool.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import type { CheckInData, CheckInStorage } from "../storage/check-in-storage.js";
import { CHECK_IN_CARD, type CheckInCardData } from "./check-in-card.js";

/** The durable event type that pays a check-in reward. */
export const DELIVER_REWARD_EVENT = "system:deliver_reward";

/** Which day's reward to pay, with its items (fixed when the player checked in). */
export interface DeliveryInput {
  readonly day: string;
  readonly items: readonly ItemStack[];
}
export const CHECK_IN_DELIVERY_ACTION = ActionType.of<DeliveryInput>(
  "system:check_in_delivery",
  codec(
    z.object({
      day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      items: z.array(ITEM_STACK.schema).min(1).max(16),
    }),
  ),
);

/** Attempts after which a delivery stops re-queueing itself (a player who leaves again and again). */
const MAX_ATTEMPTS = 20;

/** The event id of a day's delivery attempt: stable per feature, player and day, so re-offering it is a no-op. */
export const deliveryEventId = (owner: Identifier, playerId: string, day: string, attempt = 0): string =>
  `${owner}/${playerId}/${day}${attempt === 0 ? "" : `#${attempt}`}`;

export interface CheckInDeliveryOptions {
  readonly owner: Identifier;
  readonly store: AgentStore;
  readonly events: EventSink;
  readonly storage: ModuleStorage<CheckInData, CheckInStorage>;
  readonly giveItems: Tool<{ items: ItemStack[] }, { given: ItemStack[] }>;
  /** Localized item names for the card. */
  readonly itemName: (item: string, locale: string) => string;
}

/**
 * Failures `context.tool` raises only before a write step begins (declaration, budget, input, a journal with no
 * room for the RUNNING receipt): nothing was given, so the delivery stays PENDING and may be retried.
 */
const BEFORE_ANY_STEP: ReadonlySet<string> = new Set([
  AgentFailure.TOOL_NOT_ALLOWED.code,
  AgentFailure.MODULE_DISABLED.code,
  AgentFailure.INPUT_INVALID.code,
  AgentFailure.BUDGET_EXHAUSTED.code,
  AgentFailure.STORAGE_FULL.code,
]);

/**
 * `system:check_in_delivery`: the durable event that pays a day's reward. The stacks not yet recorded as given
 * go in one `game.give_items` step (`give/<first index>`, keyed under the event id), all or none, done only once
 * they are in the player's saved data; a DONE step is replayed, never paid again. A refusal that gave nothing
 * (offline, no room) leaves the day PENDING for a later attempt. Any other failure once a give may have started
 * (a RUNNING receipt after a crash: EFFECT_UNKNOWN) holds the day UNCONFIRMED, tells the player an admin will
 * check it, and ends the event UNCONFIRMED for `/system deliveries`; it is never given again by itself.
 */
export class CheckInDeliveryModule extends AbstractAgentModule<DeliveryInput> {
  constructor(private readonly options: CheckInDeliveryOptions) {
    super({
      action: CHECK_IN_DELIVERY_ACTION,
      writes: "state",
      description: "Deliver a daily check-in reward to the player.",
      tools: [options.giveItems] as unknown as readonly AnyTool[],
      owner: options.owner,
      interactive: false,
      event: true,
      eventTypes: [DELIVER_REWARD_EVENT],
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 16, steps: 16, writeSteps: 16 },
    });
  }

  override async run(input: DeliveryInput, context: ExecutionContext): Promise<AgentResult> {
    const { store, storage } = this.options;
    const playerId = context.playerId;
    const record = await store.read(playerId, (data) => ModuleData.get(data, storage).delivery(input.day));
    let given = record?.state === "DELIVERED" ? input.items.length : (record?.given ?? 0);
    while (given < input.items.length) {
      const rest = input.items.slice(given);
      let output: { given: ItemStack[] };
      try {
        output = await context.tool(GIVE_ITEMS, `give/${given}`, { items: rest });
      } catch (error) {
        const failure = AgentException.failure(error);
        if (hadNoEffect(error)) {
          if (failure.code === GameFailures.playerOffline().code) await this.#requeue(playerId, input);
          throw error;
        }
        if (BEFORE_ANY_STEP.has(failure.code)) throw error;
        return this.#unconfirmed(input, context, failure);
      }
      // A receipt written by an earlier build holds one stack per step: continue after what it gave.
      given += Math.max(1, Math.min(output.given.length, rest.length));
      const unrecorded = await this.#record(playerId, input.day, given);
      if (unrecorded !== undefined) return this.#unconfirmed(input, context, unrecorded);
    }
    const unrecorded = await this.#record(playerId, input.day, "delivered");
    if (unrecorded !== undefined) return this.#unconfirmed(input, context, unrecorded);
    return AgentResult.success(
      undefined,
      present(CHECK_IN_CARD.card(this.#card("delivered", input, context))),
    );
  }

  /**
   * Records given stacks (or the whole day) in the player file; the failure when that failed. The give is DONE
   * then, so the day must not stay PENDING with a stale count: a later attempt would pay it again.
   */
  async #record(playerId: string, day: string, given: number | "delivered"): Promise<Failure | undefined> {
    const { store, storage } = this.options;
    try {
      await store.transaction(playerId, (data) => {
        const record = ModuleData.get(data, storage);
        if (given === "delivered") record.markDelivered(day);
        else record.markGiven(day, given);
      });
      return undefined;
    } catch (error) {
      return AgentException.failure(error);
    }
  }

  /**
   * A give may or may not have happened (or happened and could not be recorded): the day is held UNCONFIRMED so
   * no check-in retries it, and the result is EFFECT_UNKNOWN, which the executor keeps for an admin.
   */
  async #unconfirmed(input: DeliveryInput, context: ExecutionContext, cause: Failure): Promise<AgentResult> {
    const { store, storage } = this.options;
    try {
      await store.transaction(context.playerId, (data) =>
        ModuleData.get(data, storage).markUnconfirmed(input.day),
      );
    } catch {
      // The event itself stays UNCONFIRMED in the journal, and check-in never retries an event ended that way.
    }
    const failure =
      cause.code === AgentFailure.EFFECT_UNKNOWN.code ? cause : AgentFailure.EFFECT_UNKNOWN.with(cause.code);
    return AgentResult.error(failure).withPresentation(
      present(CHECK_IN_CARD.card(this.#card("unconfirmed", input, context))),
    );
  }

  #card(
    status: "delivered" | "unconfirmed",
    input: DeliveryInput,
    context: ExecutionContext,
  ): CheckInCardData {
    return {
      status,
      day: input.day,
      streak: 0,
      total: 0,
      items: input.items.map((stack) => ({
        item: stack.item,
        name: this.options.itemName(stack.item, context.locale),
        count: stack.count,
      })),
      deliveryQueued: true,
    };
  }

  /** The player left mid-delivery (nothing given): a new attempt waits (WAITING) for their next join. */
  async #requeue(playerId: string, input: DeliveryInput): Promise<void> {
    const { store, storage, owner } = this.options;
    const attempt = await store.transaction(playerId, (data) =>
      ModuleData.get(data, storage).nextAttempt(input.day),
    );
    if (attempt === undefined || attempt > MAX_ATTEMPTS) return;
    await this.options.events.submit({
      id: deliveryEventId(owner, playerId, input.day, attempt),
      eventType: DELIVER_REWARD_EVENT,
      action: CHECK_IN_DELIVERY_ACTION.action({ day: input.day, items: [...input.items] }),
      playerId,
      owner: owner.toString(),
    });
  }
}
