/** What one model call cost, as the gateway records it. */
export interface UsageEntry {
  readonly playerId: string;
  /** The server's local date, `YYYY-MM-DD`: daily quotas reset at local midnight. */
  readonly day: string;
  readonly workflow: string;
  /** True when the call reached the model but failed (timeout, HTTP error, invalid reply). */
  readonly failed: boolean;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMillis: number;
}

/** Summed usage of one player, day and workflow (for the admin `usage` command and quotas). */
export interface UsageRecord {
  readonly playerId: string;
  readonly day: string;
  readonly workflow: string;
  readonly calls: number;
  readonly failures: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMillis: number;
}

/** Narrows a usage query; every field is optional, days are inclusive `YYYY-MM-DD`. */
export interface UsageQuery {
  readonly playerId?: string;
  readonly workflow?: string;
  readonly fromDay?: string;
  readonly toDay?: string;
}

/** A player's totals for one day, what the daily quota is checked against. */
export interface DailyUsage {
  readonly calls: number;
  readonly tokens: number;
}

/** One model call asked for under a player's daily allowance; 0 in a limit means no limit on it. */
export interface QuotaRequest {
  readonly playerId: string;
  readonly day: string;
  readonly calls: number;
  readonly tokens: number;
}

/** Which daily limit refused a reservation. */
export type QuotaLimit = "calls" | "tokens";

/**
 * Model usage counters that survive restarts, and the daily quota they are checked against. A call is reserved
 * before it starts (`reserve`, atomic: parallel reservations never pass the limit together, across every server
 * that shares the store), then either recorded (`add`, which turns the reservation into the call) or given back
 * (`refund`, the call never reached the model). Reads are synchronous (served from memory, which a shared store
 * refreshes); `add` persists before it resolves, so a restart never forgets a charged call.
 */
export interface UsageStore {
  /** Reserves one call; the limit that refuses it, or undefined when it is reserved. */
  reserve(request: QuotaRequest): Promise<QuotaLimit | undefined>;
  /** Gives back one reservation of the player's day whose call never reached the model. */
  refund(playerId: string, day: string): Promise<void>;
  /** Records a call that reached the model (its reservation becomes this call). */
  add(entry: UsageEntry): Promise<void>;
  daily(playerId: string, day: string): DailyUsage;
  /** Matching records sorted by day, player and workflow; copies, never live state. */
  query(query?: UsageQuery): UsageRecord[];
}

/**
 * The reservations of one process (the files backend): calls admitted but not yet recorded, per player and day.
 * Checking and counting happen in one synchronous step, so parallel calls of this process cannot overrun a quota.
 */
export class LocalReservations {
  readonly #pending = new Map<string, number>();

  reserve(request: QuotaRequest, used: DailyUsage): QuotaLimit | undefined {
    const key = JSON.stringify([request.playerId, request.day]);
    const pending = this.#pending.get(key) ?? 0;
    if (request.calls > 0 && used.calls + pending >= request.calls) return "calls";
    if (request.tokens > 0 && used.tokens >= request.tokens) return "tokens";
    this.#pending.set(key, pending + 1);
    return undefined;
  }

  /** Ends one reservation (refunded or recorded); nothing when none is open. */
  release(playerId: string, day: string): void {
    const key = JSON.stringify([playerId, day]);
    const left = (this.#pending.get(key) ?? 0) - 1;
    if (left <= 0) this.#pending.delete(key);
    else this.#pending.set(key, left);
  }
}

/** The key of a usage record. */
export const usageKey = (playerId: string, day: string, workflow: string): string =>
  JSON.stringify([playerId, day, workflow]);

/** Adds one entry to a record (or starts one); pure. */
export const accumulate = (previous: UsageRecord | undefined, entry: UsageEntry): UsageRecord => ({
  playerId: entry.playerId,
  day: entry.day,
  workflow: entry.workflow,
  calls: (previous?.calls ?? 0) + 1,
  failures: (previous?.failures ?? 0) + (entry.failed ? 1 : 0),
  inputTokens: (previous?.inputTokens ?? 0) + Math.max(0, entry.inputTokens),
  outputTokens: (previous?.outputTokens ?? 0) + Math.max(0, entry.outputTokens),
  latencyMillis: (previous?.latencyMillis ?? 0) + Math.max(0, entry.latencyMillis),
});

/** Filters and sorts records for `query`. */
export const selectUsage = (records: Iterable<UsageRecord>, query: UsageQuery = {}): UsageRecord[] =>
  [...records]
    .filter(
      (record) =>
        (query.playerId === undefined || record.playerId === query.playerId) &&
        (query.workflow === undefined || record.workflow === query.workflow) &&
        (query.fromDay === undefined || record.day >= query.fromDay) &&
        (query.toDay === undefined || record.day <= query.toDay),
    )
    .sort(
      (a, b) =>
        a.day.localeCompare(b.day) ||
        a.playerId.localeCompare(b.playerId) ||
        a.workflow.localeCompare(b.workflow),
    )
    .map((record) => ({ ...record }));

/** Sums one player's records of one day. */
export const dailyOf = (records: Iterable<UsageRecord>, playerId: string, day: string): DailyUsage => {
  let calls = 0;
  let tokens = 0;
  for (const record of records)
    if (record.playerId === playerId && record.day === day) {
      calls += record.calls;
      tokens += record.inputTokens + record.outputTokens;
    }
  return { calls, tokens };
};

/** A UsageStore kept in memory only (tests, or a server that chose not to persist usage). */
export class MemoryUsageStore implements UsageStore {
  readonly #records = new Map<string, UsageRecord>();
  readonly #reservations = new LocalReservations();

  async reserve(request: QuotaRequest): Promise<QuotaLimit | undefined> {
    return this.#reservations.reserve(request, this.daily(request.playerId, request.day));
  }

  async refund(playerId: string, day: string): Promise<void> {
    this.#reservations.release(playerId, day);
  }

  async add(entry: UsageEntry): Promise<void> {
    const key = usageKey(entry.playerId, entry.day, entry.workflow);
    this.#records.set(key, accumulate(this.#records.get(key), entry));
    this.#reservations.release(entry.playerId, entry.day);
  }

  daily(playerId: string, day: string): DailyUsage {
    return dailyOf(this.#records.values(), playerId, day);
  }

  query(query?: UsageQuery): UsageRecord[] {
    return selectUsage(this.#records.values(), query);
  }
}

/** The server's local date of an instant as `YYYY-MM-DD`. */
export const localDay = (millis: number): string => {
  const date = new Date(millis);
  const month = String(date.getMonth() + 1).padStart(2, "0");
  const day = String(date.getDate()).padStart(2, "0");
  return `${date.getFullYear()}-${month}-${day}`;
};
