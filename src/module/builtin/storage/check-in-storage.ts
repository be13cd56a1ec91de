import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { DataStorage, ModuleStorage } from "../../../agent/storage/module-storage.js";
import { ITEM_STACK, type ItemStack } from "../../../game/tools/give-items-tool.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";

const DAY = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");

const deliverySchema = z.object({
  day: DAY,
  items: z.array(ITEM_STACK.schema).max(16),
  /** How many stacks (in order) the game has confirmed. */
  given: z.number().int().nonnegative(),
  /** Delivery attempt: a new durable event per attempt (a player who left mid-delivery). */
  attempt: z.number().int().nonnegative(),
  /**
   * PENDING: still to pay (retried by the next check-in command). DELIVERED: paid. UNCONFIRMED: a give was
   * interrupted and may or may not have happened; only an admin resolves it, it is never retried by itself.
   */
  state: z.enum(["PENDING", "DELIVERED", "UNCONFIRMED"]),
});

const checkInSchema = z.object({
  lastDay: DAY.nullable(),
  streak: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  deliveries: z.array(deliverySchema),
});

export type CheckInData = z.infer<typeof checkInSchema>;
/** One day's reward and how far its delivery got. */
export type Delivery = z.infer<typeof deliverySchema>;

/** Delivery records kept per player; the oldest delivered ones go first. */
export const MAX_DELIVERIES = 31;

/**
 * A player's check-in record: last local day, streak, total, and the reward deliveries. Every mutator marks
 * the storage dirty only on a real change (checking in twice, marking delivered twice write nothing).
 */
export class CheckInStorage extends DataStorage<CheckInData> {
  #lastDay: string | null;
  #streak: number;
  #total: number;
  readonly #deliveries: Delivery[];

  constructor(data?: CheckInData) {
    super();
    this.#lastDay = data?.lastDay ?? null;
    this.#streak = data?.streak ?? 0;
    this.#total = data?.total ?? 0;
    this.#deliveries = structuredClone(data?.deliveries ?? []);
  }

  get lastDay(): string | null {
    return this.#lastDay;
  }
  get streak(): number {
    return this.#streak;
  }
  get total(): number {
    return this.#total;
  }

  /** Checks in on `day`; the streak continues when the last check-in was `previousDay`. Undefined: already today. */
  checkIn(day: string, previousDay: string): number | undefined {
    if (this.#lastDay === day) return undefined;
    this.#streak = this.#lastDay === previousDay ? this.#streak + 1 : 1;
    this.#lastDay = day;
    this.#total++;
    this.markDirty();
    return this.#streak;
  }

  /**
   * Takes a later check-in that the ledger knows and this record lost (a damaged file, a reset): its day, streak
   * and total. Nothing changes when the record is as recent.
   */
  adopt(known: { readonly day: string; readonly streak: number; readonly total: number }): void {
    if (this.#lastDay !== null && this.#lastDay >= known.day) return;
    this.#lastDay = known.day;
    this.#streak = known.streak;
    this.#total = Math.max(this.#total, known.total);
    this.markDirty();
  }

  /** A copy of one day's delivery. */
  delivery(day: string): Delivery | undefined {
    const found = this.#deliveries.find((entry) => entry.day === day);
    return found === undefined ? undefined : structuredClone(found);
  }

  /** Copies of the deliveries still owed (PENDING), oldest day first. */
  pendingDeliveries(): Delivery[] {
    return structuredClone(this.#deliveries.filter((entry) => entry.state === "PENDING"));
  }

  /** Records a day's reward as PENDING (once). Over the cap the oldest delivered record goes; STORAGE_FULL if none. */
  putDelivery(day: string, items: readonly ItemStack[]): void {
    if (this.#deliveries.some((entry) => entry.day === day)) return;
    if (this.#deliveries.length >= MAX_DELIVERIES) {
      const oldest = this.#deliveries.findIndex((entry) => entry.state === "DELIVERED");
      if (oldest < 0) throw new AgentException(AgentFailure.STORAGE_FULL);
      this.#deliveries.splice(oldest, 1);
    }
    this.#deliveries.push({
      day,
      items: structuredClone([...items]),
      given: 0,
      attempt: 0,
      state: "PENDING",
    });
    this.markDirty();
  }

  /** The game confirmed the first `given` stacks of a day. */
  markGiven(day: string, given: number): void {
    const entry = this.#deliveries.find((candidate) => candidate.day === day);
    if (entry === undefined || given <= entry.given) return;
    entry.given = Math.min(given, entry.items.length);
    this.markDirty();
  }

  /** Every stack of the day was given. Returns false when it already was (or is unknown). */
  markDelivered(day: string): boolean {
    const entry = this.#deliveries.find((candidate) => candidate.day === day);
    if (entry === undefined || entry.state === "DELIVERED") return false;
    entry.state = "DELIVERED";
    entry.given = entry.items.length;
    this.markDirty();
    return true;
  }

  /**
   * A give of the day may or may not have happened: hold the delivery for an admin (no retry by check-in).
   * Returns false when it was already delivered or held (or is unknown).
   */
  markUnconfirmed(day: string): boolean {
    const entry = this.#deliveries.find((candidate) => candidate.day === day);
    if (entry === undefined || entry.state !== "PENDING") return false;
    entry.state = "UNCONFIRMED";
    this.markDirty();
    return true;
  }

  /**
   * Starts the next delivery attempt of a day not yet delivered; returns its number (undefined when delivered or
   * unknown). Check-in only retries PENDING days; an UNCONFIRMED day gets one only from an admin's redelivery.
   */
  nextAttempt(day: string): number | undefined {
    const entry = this.#deliveries.find((candidate) => candidate.day === day);
    if (entry === undefined || entry.state === "DELIVERED") return undefined;
    entry.attempt++;
    this.markDirty();
    return entry.attempt;
  }

  toData(): CheckInData {
    return {
      lastDay: this.#lastDay,
      streak: this.#streak,
      total: this.#total,
      deliveries: structuredClone(this.#deliveries),
    };
  }
}

/** The check-in storage declaration of a feature (owner = the feature id of its data-pack entry). */
export const checkInStorage = (owner: Identifier): ModuleStorage<CheckInData, CheckInStorage> =>
  ModuleStorage.of({
    owner,
    type: "check_in",
    codecId: Identifier.parse("system:check_in_v1"),
    codec: codec(checkInSchema),
    factory: (data) => new CheckInStorage(data),
  });
