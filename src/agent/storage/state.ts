import { z } from "zod";
import { type Codec, codec } from "../../util/codec.js";

/**
 * The one state enum of durable event tasks and write-step receipts, persisted under these exact names.
 * Events: QUEUED → RUNNING (↔ WAITING while the player is offline) → SUCCEEDED | FAILED | PARTIALLY_SUCCEEDED,
 * or UNCONFIRMED when a write step's effect could not be confirmed (EFFECT_UNKNOWN): held for an admin, never
 * resumed and never evicted, until the admin resolves it (redelivered as a new task, or marked done).
 * Steps: RUNNING (intent recorded, outcome unknown) → DONE (result stored) | FAILED (the handler refused).
 */
export const State = {
  QUEUED: "QUEUED",
  RUNNING: "RUNNING",
  WAITING: "WAITING",
  SUCCEEDED: "SUCCEEDED",
  FAILED: "FAILED",
  PARTIALLY_SUCCEEDED: "PARTIALLY_SUCCEEDED",
  DONE: "DONE",
  UNCONFIRMED: "UNCONFIRMED",
} as const;

export type State = (typeof State)[keyof typeof State];

/** Every state, in declaration order. */
export const STATES: readonly State[] = Object.values(State);

const UNFINISHED: ReadonlySet<State> = new Set([State.QUEUED, State.RUNNING, State.WAITING]);

/** Unfinished states are crash-recovery markers: resumed at start and never evicted. */
export const isUnfinished = (state: State): boolean => UNFINISHED.has(state);

/**
 * Terminal states may be evicted (oldest first) when a table is over its limits. UNCONFIRMED is neither
 * unfinished nor terminal: it is not resumed, and it stays until an admin resolves it.
 */
export const isTerminal = (state: State): boolean => !UNFINISHED.has(state) && state !== State.UNCONFIRMED;

/** Whether untrusted text names a state; anything else is refused, never read as new work. */
export const isState = (value: unknown): value is State =>
  typeof value === "string" && (STATES as readonly string[]).includes(value);

/** Refuses every string that is not a declared state name (no fallback to QUEUED). */
export const STATE_CODEC: Codec<State> = codec(
  z.enum([
    State.QUEUED,
    State.RUNNING,
    State.WAITING,
    State.SUCCEEDED,
    State.FAILED,
    State.PARTIALLY_SUCCEEDED,
    State.DONE,
    State.UNCONFIRMED,
  ]),
);
