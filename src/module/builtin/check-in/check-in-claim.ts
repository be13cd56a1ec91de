import type { AgentStore } from "../../../agent/storage/agent-store.js";
import type { ModuleStorage } from "../../../agent/storage/module-storage.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { CheckInClaims } from "../../../data/player-state/check-in-claims.js";
import type { ItemStack } from "../../../game/tools/give-items-tool.js";
import type { Logger } from "../../../util/logger.js";
import type { CheckInLedger } from "../storage/check-in-ledger.js";
import type { CheckInData, CheckInStorage, Delivery } from "../storage/check-in-storage.js";
import { pointsLedgerStorage } from "../storage/points-ledger.js";
import { type CheckInConfig, rewardsFor } from "./check-in-config.js";

/** What a check-in found or did. */
export type CheckInOutcome =
  | {
      readonly already: true;
      readonly streak: number;
      readonly total: number;
      readonly delivery: Delivery | undefined;
      /** Whether the day's streak should be reported again (a crash may have come before the first report). */
      readonly reportAgain: boolean;
    }
  | { readonly already: false; readonly streak: number; readonly total: number; readonly items: ItemStack[] };

/** One player's check-in of one day, as both ways of claiming it take it. */
export interface CheckInAttempt {
  readonly playerId: string;
  readonly day: string;
  readonly yesterday: string;
  readonly now: number;
  readonly config: CheckInConfig;
  readonly store: AgentStore;
  readonly storage: ModuleStorage<CheckInData, CheckInStorage>;
}

/**
 * One server (the default): the record, the reward's PENDING delivery and the day's points (ledger entry
 * `check_in:<day>`) are written in one player-file transaction; the ledger file, which a player reset keeps,
 * refuses a day it knows and is written once the record is durable.
 */
export const claimInFiles = async (
  attempt: CheckInAttempt,
  ledger: CheckInLedger,
  logger: Logger,
): Promise<CheckInOutcome> => {
  const { playerId, day, yesterday, config, store, storage, now } = attempt;
  // A day in the ledger was paid before, even when the player file no longer says so (an admin reset it).
  const claimed = await ledger.claimed(playerId, day);
  // what the ledger knows and the file lost (damaged, reset): the last day, streak and total carry on
  const known = await ledger.latest(playerId);
  const outcome = await store.transaction(playerId, (data): CheckInOutcome => {
    const record = ModuleData.get(data, storage);
    if (known !== undefined) record.adopt(known);
    const streak = claimed ? undefined : record.checkIn(day, yesterday);
    if (streak === undefined)
      return {
        already: true,
        streak: record.streak,
        total: record.total,
        delivery: record.delivery(day),
        reportAgain: !claimed,
      };
    const items = rewardsFor(config, streak);
    record.putDelivery(day, items);
    // the same transaction: the check-in and its points are written together or not at all
    if (config.points > 0)
      ModuleData.get(data, pointsLedgerStorage).credit(`check_in:${day}`, config.points, "check_in", now);
    return { already: false, streak, total: record.total, items };
  });
  if (outcome.already) return outcome;
  // Claimed once the record is durable: a crash in between leaves the record, which refuses the day as well.
  try {
    await ledger.claim(playerId, day, yesterday, { streak: outcome.streak, total: outcome.total });
  } catch (error) {
    logger.error(`check-in ledger of ${playerId} for ${day} not written`, error);
  }
  return outcome;
};

/**
 * A network: the day is claimed in the shared database (one statement with the day's points and, with
 * `delivers`, the reward's outbox effect), whichever server asks first; without `delivers` the reward's
 * PENDING delivery is recorded in this server's player file, which pays it.
 */
export const claimShared = async (
  attempt: CheckInAttempt,
  claims: CheckInClaims,
): Promise<CheckInOutcome> => {
  const { playerId, day, yesterday, config, store, storage, now } = attempt;
  // one statement: the streak follows from the latest earlier day (earlier days are never rewritten)
  const { claimed, day: made } = await claims.checkIn({
    playerId,
    day,
    yesterday,
    rewards: { items: config.rewards, bonus: config.streak_bonus },
    points: config.points,
    at: now,
  });
  const items = rewardsFor(config, made.streak);
  // The database is the truth of the day, streak and total: a day claimed before (on any server) writes nothing
  // here, it only reads what this server's record holds of its delivery. A day claimed now records the reward's
  // PENDING delivery (with a copy of the streak) before the reply, unless the claim queued it in the outbox.
  const delivery =
    claimed && claims.delivers !== true
      ? await store.transaction(playerId, (data) => {
          const record = ModuleData.get(data, storage);
          record.adopt(made);
          record.putDelivery(day, items);
          return record.delivery(day);
        })
      : await store.read(playerId, (data) => ModuleData.get(data, storage).delivery(day));
  return claimed
    ? { already: false, streak: made.streak, total: made.total, items }
    : { already: true, streak: made.streak, total: made.total, delivery, reportAgain: false };
};
