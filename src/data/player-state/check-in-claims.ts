/** A reward stack as a check-in records it. */
export interface ClaimedStack {
  readonly item: string;
  readonly count: number;
}

/** A claimed check-in day: the streak and total it made and the reward it recorded. */
export interface ClaimedDay {
  readonly day: string;
  readonly streak: number;
  readonly total: number;
  readonly items: readonly ClaimedStack[];
}

/** A whole check-in of one day: the streak and total follow from the player's latest earlier day. */
export interface CheckInRequest {
  readonly playerId: string;
  readonly day: string;
  /** The day before `day`: a latest earlier day equal to it carries the streak on. */
  readonly yesterday: string;
  /** The day's reward: `items`, plus `bonus.items` when the streak it makes is a multiple of `bonus.every`. */
  readonly rewards: {
    readonly items: readonly ClaimedStack[];
    readonly bonus?: { readonly every: number; readonly items: readonly ClaimedStack[] } | undefined;
  };
  /** Points credited with it (ledger id `check_in:<day>`, reason `check_in`); 0 for none. */
  readonly points: number;
  /** Epoch milliseconds. */
  readonly at: number;
}

/**
 * Check-in days shared by every server of a network: once per player per day, whoever asks first wins, with the
 * day's reward and points recorded in the same effect. Days are never rewritten, so the streak of a day follows
 * from the latest earlier day.
 */
export interface CheckInClaims {
  /** The player's claim of `day`, if any. */
  claimed(playerId: string, day: string): Promise<ClaimedDay | undefined>;
  /**
   * Reads the latest earlier day and claims the day with the streak, total and reward that follow, crediting
   * its points in the same effect; `claimed: false` with the day as it was claimed before. With `delivers`, the
   * same effect queues the day's reward for the server hosting the player to give.
   */
  checkIn(request: CheckInRequest): Promise<{ readonly claimed: boolean; readonly day: ClaimedDay }>;
  /** Whether a claim queues its reward itself (a network's outbox); otherwise the claiming server pays it. */
  readonly delivers?: boolean;
}
