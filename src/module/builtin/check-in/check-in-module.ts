import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { EventAdmission } from "../../../agent/execution/event-executor.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { EventTask } from "../../../agent/storage/agent-journal.js";
import type { AgentStore } from "../../../agent/storage/agent-store.js";
import type { ModuleStorage } from "../../../agent/storage/module-storage.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import { isTerminal } from "../../../agent/storage/state.js";
import type { CheckInClaims } from "../../../data/player-state/check-in-claims.js";
import type { EventSink, GameClock } from "../../../game/context-types.js";
import { type GameEventSink, GameEventTypes } from "../../../game/game-events.js";
import { GameFailures } from "../../../game/tools/game-failures.js";
import type { ItemStack } from "../../../game/tools/give-items-tool.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import type { Logger } from "../../../util/logger.js";
import type { CheckInLedger } from "../storage/check-in-ledger.js";
import type { CheckInData, CheckInStorage } from "../storage/check-in-storage.js";
import { CHECK_IN_CARD, type CheckInCardData, replayedCheckIn } from "./check-in-card.js";
import { claimInFiles, claimShared } from "./check-in-claim.js";
import type { CheckInConfig } from "./check-in-config.js";
import {
  CHECK_IN_DELIVERY_ACTION,
  DELIVER_REWARD_EVENT,
  deliveryEventId,
} from "./check-in-delivery-module.js";
import { localDay, previousDay } from "./local-day.js";

/** Whether an ended delivery attempt ended with EFFECT_UNKNOWN (its give may have happened). */
const unconfirmedAttempt = (task: EventTask): boolean => {
  const result = task.result === undefined ? undefined : AgentResult.CODEC.decode(task.result);
  return result?.success === true && result.value.failure?.code === AgentFailure.EFFECT_UNKNOWN.code;
};

/** Checking in takes no arguments. */
export type CheckInInput = Record<string, never>;
export const CHECK_IN_ACTION = ActionType.of<CheckInInput>(
  "system:check_in",
  codec(z.object({}).strict() as z.ZodType<CheckInInput>),
);

export interface CheckInModuleOptions {
  readonly owner: Identifier;
  readonly config: CheckInConfig;
  readonly store: AgentStore;
  readonly events: EventSink;
  /** Where the check-in is reported as a game event (`system:check_in_streak`) for advancement rules. */
  readonly gameEvents: GameEventSink;
  readonly clock: GameClock;
  readonly storage: ModuleStorage<CheckInData, CheckInStorage>;
  readonly itemName: (item: string, locale: string) => string;
  /** The days whose reward each player claimed, outside the player files (a reset keeps it). */
  readonly ledger: CheckInLedger;
  /** A network's shared check-in days: when present they decide, and the ledger file is not used. */
  readonly claims?: CheckInClaims;
  readonly logger: Logger;
  /** Whether the host can give the reward at all; when not, a check-in is refused before anything is written. */
  readonly givesItems: () => boolean;
}

/**
 * `system:check_in`: once per local day (the clock's zone, or the config's). The day, the reward's PENDING delivery
 * and the day's points (ledger entry `check_in:<day>`) are recorded together: in one player-file transaction on
 * one server, or claimed in a network's shared database first (check-in-claim.ts). The reward itself is paid by a
 * durable event whose id is stable per player and day, so offering it again never pays twice. Explicit entries
 * only: it writes, so it is never routed locally.
 */
export class CheckInModule extends AbstractAgentModule<CheckInInput> {
  constructor(private readonly options: CheckInModuleOptions) {
    super({
      action: CHECK_IN_ACTION,
      writes: "replayable",
      description: "Daily check-in: once per day, keeps a streak and gives reward items.",
      owner: options.owner,
      // It writes the player file (not through a tool): one write step declares it a writing workflow.
      policy: { ...SIMPLE_POLICY, writeSteps: 1 },
      routing: ModuleRouting.defaults<CheckInInput>()
        .command(AgentCommand.literal<CheckInInput>({}, "checkin", "签到"))
        .semantic(
          // without a model, a confident "daily check in" is offered as a [Check in] button: the click consents
          RoutingProfile.hints<CheckInInput>(
            ["我要签到", "每日签到"],
            ["daily check in", "check in for today"],
          ).offering(() => ({})),
        )
        .choice("system.check_in.choice"),
    });
  }

  override async run(_input: CheckInInput, context: ExecutionContext): Promise<AgentResult> {
    const { store, storage, clock, config } = this.options;
    // no check-in, streak or points that the reward could not follow
    if (!this.options.givesItems()) throw new AgentException(GameFailures.noWorldEffects());
    const now = clock.now();
    const day = localDay(now, config.time_zone ?? clock.timeZone);
    const yesterday = previousDay(day);
    context.checkAlive();
    const attempt = { playerId: context.playerId, day, yesterday, now, config, store, storage };
    const claims = this.options.claims;
    const outcome =
      claims === undefined
        ? await claimInFiles(attempt, this.options.ledger, this.options.logger)
        : await claimShared(attempt, claims);
    const card = (
      status: CheckInCardData["status"],
      items: readonly ItemStack[],
      queued: boolean,
    ): CheckInCardData => ({
      status,
      day,
      streak: outcome.streak,
      total: outcome.total,
      items: items.map((stack) => ({
        item: stack.item,
        name: this.options.itemName(stack.item, context.locale),
        count: stack.count,
      })),
      deliveryQueued: queued,
    });
    if (outcome.already) {
      // A reward still pending (a crash between the record and the event) is offered again; the id dedupes it.
      const delivery = outcome.delivery;
      if (delivery?.state === "PENDING")
        await this.#retry(context.playerId, day, delivery.items, delivery.attempt);
      // reported again too (a crash may have come before the first report); the event id dedupes it
      if (outcome.reportAgain) await this.#reportStreak(context.playerId, day, outcome.streak);
      return AgentResult.error(AgentFailure.ALREADY_DONE).withPresentation(
        present(CHECK_IN_CARD.card(card("already", delivery?.items ?? [], true))),
      );
    }
    // a network's outbox holds the reward already (claimed with the day); else a durable event pays it here
    const queued =
      claims?.delivers === true || (await this.#deliver(context.playerId, day, outcome.items, 0));
    await this.#reportStreak(context.playerId, day, outcome.streak);
    const result = AgentResult.success(
      undefined,
      present(CHECK_IN_CARD.card(card("checked_in", outcome.items, queued))),
    );
    return queued ? result : result.partial(AgentFailure.STORAGE_FULL);
  }

  /** A repeat within the replay window reads "You have already checked in today", never the reward again. */
  replayed(stored: AgentResult): AgentResult {
    return replayedCheckIn(stored);
  }

  /**
   * At join: what a crash left recorded but not yet queued is queued now. Every PENDING reward is offered again
   * under its current attempt's event id (a no-op while that event exists, whatever its state: nothing is paid
   * twice), and today's streak is reported again when the record holds today (its event id dedupes it).
   */
  async repair(playerId: string): Promise<void> {
    const { store, storage, clock, config } = this.options;
    const record = await store.read(playerId, (data) => {
      const checkIn = ModuleData.get(data, storage);
      return { pending: checkIn.pendingDeliveries(), lastDay: checkIn.lastDay, streak: checkIn.streak };
    });
    for (const delivery of record.pending)
      await this.#deliver(playerId, delivery.day, delivery.items, delivery.attempt);
    const today = localDay(clock.now(), config.time_zone ?? clock.timeZone);
    // on a network the shared day is the truth (the record keeps no copy of a day whose claim queued its reward)
    const shared = await this.options.claims?.claimed(playerId, today);
    const streak = shared?.streak ?? (record.lastDay === today ? record.streak : 0);
    if (streak > 0) await this.#reportStreak(playerId, today, streak);
  }

  /** The day's check-in as a game event: rules on the streak (a 7-day bonus) match it; one id per player and day. */
  #reportStreak(playerId: string, day: string, streak: number): Promise<void> {
    return this.options.gameEvents.emit({
      type: GameEventTypes.CHECK_IN_STREAK,
      playerId,
      id: `check_in/${playerId}/${day}`,
      data: { streak },
    });
  }

  /** Offers the day's delivery event; true when it is queued now or already known. */
  async #deliver(
    playerId: string,
    day: string,
    items: readonly ItemStack[],
    attempt: number,
  ): Promise<boolean> {
    const admission = await this.#submit(playerId, day, items, attempt);
    if (admission.accepted || admission.duplicate) return true;
    this.options.logger.warn(
      `check-in reward of ${playerId} for ${day} not queued: ${admission.failure.code}`,
    );
    return false;
  }

  /**
   * A reward still PENDING on a later check-in command: offered again under the same id (a no-op while it is
   * queued or waiting); when that attempt already ended by giving nothing (a full inventory), a new attempt
   * continues it. An attempt whose give could not be confirmed (held UNCONFIRMED, or resolved by an admin) is
   * never followed by another: that could pay twice.
   */
  async #retry(playerId: string, day: string, items: readonly ItemStack[], attempt: number): Promise<void> {
    const admission = await this.#submit(playerId, day, items, attempt);
    if (admission.accepted || !admission.duplicate) return;
    const existing = admission.existing;
    if (existing === undefined || !isTerminal(existing.state) || unconfirmedAttempt(existing)) return;
    const { store, storage } = this.options;
    const next = await store.transaction(playerId, (data) => ModuleData.get(data, storage).nextAttempt(day));
    if (next !== undefined) await this.#submit(playerId, day, items, next);
  }

  #submit(
    playerId: string,
    day: string,
    items: readonly ItemStack[],
    attempt: number,
  ): Promise<EventAdmission> {
    return this.options.events.submit({
      id: deliveryEventId(this.options.owner, playerId, day, attempt),
      eventType: DELIVER_REWARD_EVENT,
      action: CHECK_IN_DELIVERY_ACTION.action({ day, items: [...items] }),
      playerId,
      owner: this.options.owner.toString(),
    });
  }
}
