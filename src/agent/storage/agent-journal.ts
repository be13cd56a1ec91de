import type { Json } from "../../util/codec.js";
import type { State } from "./state.js";

/** A failure as persisted in a receipt (code, translation key, arguments); never a class instance. */
export interface StoredFailure {
  readonly code: string;
  readonly key: string;
  readonly args: readonly string[];
  /** The handler refused before changing anything (NoEffectException): the step may run again. */
  readonly noEffect?: boolean;
}

/**
 * The durable record of one write step, keyed by a stable step key (`<requestId>/<stepId>`).
 * RUNNING: the intent is durable, the outcome is unknown. DONE: `result` holds the encoded tool output.
 * FAILED: the handler completed by refusing; `failure` holds why (with `noEffect` when nothing was changed).
 */
export interface StepReceipt {
  readonly key: string;
  /** The tool type id. */
  readonly tool: string;
  readonly state: State;
  readonly result?: Json;
  readonly failure?: StoredFailure;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** The outcome of appending a step: created (RUNNING now), or the first record of that key, unchanged. */
export type AppendStepResult =
  | { readonly created: true; readonly receipt: StepReceipt }
  | { readonly created: false; readonly receipt: StepReceipt };

/** A durable event task: enough to resume it after a crash with its original policy. */
export interface EventTask {
  /** The event id; the journal refuses a second task with the same id (dedupe). */
  readonly id: string;
  /** The action type id (the workflow's input type) that handles the event. */
  readonly type: string;
  /** The encoded action input. */
  readonly input: Json;
  readonly playerId: string;
  /** The feature whose configuration of the workflow handles the task (absent: unowned or first registered). */
  readonly owner?: string;
  /** The event type that started it; a resumed task is authorised again for this type (absent in older tasks). */
  readonly eventType?: string;
  /** The advancement rule that started it, re-checked on resume (absent for a feature's own deliveries). */
  readonly rule?: string;
  /** The ExecutionPolicy selected when the event was accepted, encoded; resumed work keeps it. */
  readonly policy: Json;
  readonly state: State;
  readonly attempts: number;
  /** The encoded AgentResult once terminal, when the executor keeps one. */
  readonly result?: Json;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What may change on an event task; id, type, input, player and policy never change. */
export interface EventTaskChange {
  readonly state?: State;
  readonly attempts?: number;
  readonly result?: Json;
}

/** The outcome of offering an event: created, or the task that already holds this id. */
export type PutEventResult =
  | { readonly created: true; readonly task: EventTask }
  | { readonly created: false; readonly existing: EventTask | undefined };

/** A persisted entry whose state (or shape) could not be read; it is kept, reported, and never run. */
export interface UnreadableEntry {
  readonly table: "steps" | "events";
  readonly key: string;
  readonly reason: string;
}

/**
 * The global journal of one world save: write-step receipts and event tasks. Reads come from memory and
 * return copies; every write resolves only once it is durable. Over a table's limits the oldest terminal
 * entries are evicted (but not DONE receipts of an unfinished event's steps, keys `event:<eventId>/…`); a new
 * entry is refused with STORAGE_FULL (AgentException) only when no entry can be evicted.
 */
export interface AgentJournal {
  /** The receipt of a step, or undefined when none was recorded (or it was evicted). */
  step(key: string): StepReceipt | undefined;
  /**
   * Durably records RUNNING for a key never recorded. For a known key nothing is written and the first record
   * comes back: when several servers share the journal and race on one step, exactly one creates it.
   */
  appendStep(key: string, tool: string): Promise<AppendStepResult>;
  /** Durably records RUNNING before the effect (creates or restarts the receipt). */
  beginStep(key: string, tool: string): Promise<void>;
  /** Durably records DONE with the encoded result. Never refused for space: the effect already ran. */
  completeStep(key: string, result: Json): Promise<void>;
  /** Durably records that the handler completed with a failure. */
  failStep(key: string, failure: StoredFailure): Promise<void>;

  /** Durably stores a new event task unless its id is already known (dedupe, also against unreadable ones). */
  putEvent(task: Omit<EventTask, "createdAt" | "updatedAt">): Promise<PutEventResult>;
  event(id: string): EventTask | undefined;
  /** Durably changes an event task; throws NOT_FOUND (AgentException) for an unknown id. */
  updateEvent(id: string, change: EventTaskChange): Promise<EventTask>;
  /** QUEUED, RUNNING and WAITING tasks in insertion order (what the executor resumes at start). */
  unfinishedEvents(): EventTask[];
  /** UNCONFIRMED tasks in insertion order: effects an admin must check (never resumed, never evicted). */
  unconfirmedEvents(): EventTask[];
  /** The most recently changed tasks (any state), newest first, at most `limit`, optionally of one player. */
  recentEvents(limit: number, playerId?: string): EventTask[];
  /** Entries kept but never run because their state was not a known state. */
  unreadable(): readonly UnreadableEntry[];
  /**
   * A journal shared by several servers reads the player's event tasks again (another server may have queued
   * or moved some on); a journal with one writer has nothing to read.
   */
  refreshPlayer?(playerId: string): Promise<void>;

  /** Waits for pending writes, then releases files. */
  close(): Promise<void>;
}
