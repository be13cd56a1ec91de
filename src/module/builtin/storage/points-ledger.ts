import { z } from "zod";
import { DataStorage, ModuleStorage } from "../../../agent/storage/module-storage.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";

/** Entries a ledger keeps; beyond it the oldest are folded into one `carried` entry. */
export const MAX_POINTS_ENTRIES = 256;
/** Entry ids remembered for deduplication, newest last; far more than the entries kept. */
export const MAX_RECENT_IDS = 1024;
/** The id and reason of the entry that holds the sum of folded entries; no caller may use it. */
export const CARRIED = "carried";

const ENTRY_ID = z.string().min(1).max(128);
const entrySchema = z.object({
  id: ENTRY_ID,
  /** Signed whole points: credits positive, debits negative. */
  amount: z.number().int().safe(),
  reason: z.string().max(128),
  /** Epoch milliseconds. */
  at: z.number().int().nonnegative(),
});

const ledgerSchema = z
  .object({
    entries: z.array(entrySchema).max(MAX_POINTS_ENTRIES),
    recentIds: z.array(ENTRY_ID).max(MAX_RECENT_IDS),
  })
  .refine((data) => data.entries.reduce((sum, entry) => sum + entry.amount, 0) >= 0, "negative balance");

export type PointsLedgerData = z.infer<typeof ledgerSchema>;
/** One change of a player's points. */
export type LedgerEntry = z.infer<typeof entrySchema>;

/** What {@link PointsLedger.debit} did. */
export type DebitOutcome = "done" | "duplicate" | "insufficient";

const checkChange = (entryId: string, amount: number, reason: string, at: number): void => {
  if (entryId === CARRIED || !ENTRY_ID.safeParse(entryId).success)
    throw new RangeError(`invalid points entry id: ${entryId}`);
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError(`points amount must be a positive integer: ${amount}`);
  if (reason.length > 128) throw new RangeError("points reason longer than 128 characters");
  if (!Number.isSafeInteger(at) || at < 0) throw new RangeError(`invalid points time: ${at}`);
};

/**
 * A player's points: a ledger whose sum is the balance, always. Every change is an entry with a caller-chosen id,
 * so a replayed change (the same id) changes nothing; the balance never goes below zero. Beyond
 * {@link MAX_POINTS_ENTRIES} the oldest entries fold into one `carried` entry (the sum holds), while the last
 * {@link MAX_RECENT_IDS} ids stay known for deduplication.
 */
export class PointsLedger extends DataStorage<PointsLedgerData> {
  readonly #entries: LedgerEntry[];
  readonly #recentIds: string[];
  readonly #known: Set<string>;

  constructor(data?: PointsLedgerData) {
    super();
    this.#entries = structuredClone(data?.entries ?? []);
    this.#recentIds = [...(data?.recentIds ?? [])];
    this.#known = new Set(this.#recentIds);
  }

  /** The sum of the entries. */
  balance(): number {
    return this.#entries.reduce((sum, entry) => sum + entry.amount, 0);
  }

  /** Whether an entry with this id was recorded (within the recent-id window). */
  has(entryId: string): boolean {
    return this.#known.has(entryId);
  }

  /** Adds `amount` (a positive integer) points. False, and nothing changes, when the id was recorded before. */
  credit(entryId: string, amount: number, reason: string, at: number): boolean {
    checkChange(entryId, amount, reason, at);
    if (this.has(entryId)) return false;
    if (!Number.isSafeInteger(this.balance() + amount)) throw new RangeError("points balance too large");
    this.#append({ id: entryId, amount, reason, at });
    return true;
  }

  /** Takes `amount` (a positive integer) points unless the id was recorded or the balance would go below zero. */
  debit(entryId: string, amount: number, reason: string, at: number): DebitOutcome {
    checkChange(entryId, amount, reason, at);
    if (this.has(entryId)) return "duplicate";
    if (amount > this.balance()) return "insufficient";
    this.#append({ id: entryId, amount: -amount, reason, at });
    return "done";
  }

  /** Copies of the entries, newest last. */
  entries(): readonly LedgerEntry[] {
    return structuredClone(this.#entries);
  }

  #append(entry: LedgerEntry): void {
    this.#entries.push(entry);
    this.#recentIds.push(entry.id);
    this.#known.add(entry.id);
    if (this.#recentIds.length > MAX_RECENT_IDS)
      for (const id of this.#recentIds.splice(0, this.#recentIds.length - MAX_RECENT_IDS))
        this.#known.delete(id);
    if (this.#entries.length > MAX_POINTS_ENTRIES) {
      const folded = this.#entries.splice(0, this.#entries.length - MAX_POINTS_ENTRIES + 1);
      const amount = folded.reduce((sum, old) => sum + old.amount, 0);
      const at = folded[folded.length - 1]?.at ?? entry.at;
      this.#entries.unshift({ id: CARRIED, amount, reason: CARRIED, at });
    }
    this.markDirty();
  }

  toData(): PointsLedgerData {
    return { entries: structuredClone(this.#entries), recentIds: [...this.#recentIds] };
  }
}

/** The points of every player, owned by `system:points` whichever feature (points, check-in, shop) changes them. */
export const pointsLedgerStorage: ModuleStorage<PointsLedgerData, PointsLedger> = ModuleStorage.of({
  owner: Identifier.parse("system:points"),
  type: "points_ledger",
  codecId: Identifier.parse("system:points_ledger_v1"),
  codec: codec(ledgerSchema as unknown as z.ZodType<PointsLedgerData>),
  factory: (data) => new PointsLedger(data),
});
