/** One change of a player's points as a caller asks for it: a positive amount under a caller-chosen id. */
export interface PointsChange {
  /** The idempotency key: a change whose id was recorded before changes nothing. */
  readonly id: string;
  /** Whole points, positive. */
  readonly amount: number;
  readonly reason: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

/** One recorded change: credits positive, debits negative. */
export interface PointsEntry {
  readonly id: string;
  readonly amount: number;
  readonly reason: string;
  readonly at: number;
}

/** What a debit did. */
export type DebitOutcome = "done" | "duplicate" | "insufficient";

/** Where the points live: each server's player files, or a database every server of a network shares. */
export type PointsScope = "player-file" | "shared";

/**
 * Players' points: a ledger whose sum is the balance, never below zero, every change keyed by its id so a
 * replayed change does nothing. Two implementations: the player files of one server (the default) and
 * PostgreSQL for a network, where each change is one statement with a unique key.
 */
export interface PointsAccounts {
  readonly scope: PointsScope;
  balance(playerId: string): Promise<number>;
  /** The balance and the latest `limit` entries, newest last (copies). */
  statement(
    playerId: string,
    limit: number,
  ): Promise<{ readonly balance: number; readonly entries: readonly PointsEntry[] }>;
  /** Adds points; `recorded` is false when the id was recorded before (nothing changed). */
  credit(
    playerId: string,
    change: PointsChange,
  ): Promise<{ readonly recorded: boolean; readonly balance: number }>;
  /** Takes points unless the id was recorded or the balance would go below zero. */
  debit(
    playerId: string,
    change: PointsChange,
  ): Promise<{ readonly outcome: DebitOutcome; readonly balance: number }>;
}

/** Refuses what neither backend could store: an empty or long id, a non-positive or fractional amount. */
export const checkPointsChange = (change: PointsChange, reserved: readonly string[] = []): void => {
  if (change.id.length === 0 || change.id.length > 128 || reserved.includes(change.id))
    throw new RangeError(`invalid points entry id: ${change.id}`);
  if (!Number.isSafeInteger(change.amount) || change.amount <= 0)
    throw new RangeError(`points amount must be a positive integer: ${change.amount}`);
  if (change.reason.length > 128) throw new RangeError("points reason longer than 128 characters");
  if (!Number.isSafeInteger(change.at) || change.at < 0)
    throw new RangeError(`invalid points time: ${change.at}`);
};
