import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import type { AgentStore } from "../../../agent/storage/agent-store.js";
import type { ModuleStorage } from "../../../agent/storage/module-storage.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { AnyTool, Tool } from "../../../agent/tool/tool.js";
import type { EventSink } from "../../../game/context-types.js";
import { GIVE_ITEMS, ITEM_STACK, type ItemStack } from "../../../game/tools/give-items-tool.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import type { CheckInData, CheckInStorage } from "../storage/check-in-storage.js";
import { CHECK_IN_CARD } from "./check-in-card.js";

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
 * `system:check_in_delivery`: the durable event that pays a day's reward, one `game.give_items` step per stack
 * (`give/<index>`, keyed under the event id). A DONE step is replayed, never paid again; stacks the player file
 * records as given are skipped, so a later attempt continues where an earlier one stopped.
 */
export class CheckInDeliveryModule extends AbstractAgentModule<DeliveryInput> {
  constructor(private readonly options: CheckInDeliveryOptions) {
    super({
      action: CHECK_IN_DELIVERY_ACTION,
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
    const start = record?.state === "DELIVERED" ? input.items.length : (record?.given ?? 0);
    try {
      for (let index = start; index < input.items.length; index++) {
        const stack = input.items[index] as ItemStack;
        await context.tool(GIVE_ITEMS, `give/${index}`, { items: [stack] });
        await store.transaction(playerId, (data) =>
          ModuleData.get(data, storage).markGiven(input.day, index + 1),
        );
      }
    } catch (error) {
      const failure = AgentException.failure(error);
      if (failure.code === "PLAYER_OFFLINE") await this.#requeue(playerId, input);
      throw error;
    }
    await store.transaction(playerId, (data) => ModuleData.get(data, storage).markDelivered(input.day));
    const items = input.items.map((stack) => ({
      item: stack.item,
      name: this.options.itemName(stack.item, context.locale),
      count: stack.count,
    }));
    return AgentResult.success(
      undefined,
      present(
        CHECK_IN_CARD.card({
          status: "delivered",
          day: input.day,
          streak: 0,
          total: 0,
          items,
          deliveryQueued: true,
        }),
      ),
    );
  }

  /** The player left mid-delivery: a new attempt waits (WAITING) for their next join. */
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
    });
  }
}
