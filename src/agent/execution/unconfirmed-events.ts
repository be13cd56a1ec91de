import type { Json } from "../../util/codec.js";
import type { EventTask } from "../storage/agent-journal.js";
import { State } from "../storage/state.js";

/** An event task held UNCONFIRMED: one of its write steps was interrupted, so its effect is unknown. */
export interface UnconfirmedEvent {
  readonly id: string;
  /** The workflow that ran it (the action type id). */
  readonly type: string;
  readonly playerId: string;
  /** The encoded action input: what the task was to do (the items of a delivery). */
  readonly input: Json;
  readonly createdAt: number;
  /** When the task was found unconfirmed. */
  readonly updatedAt: number;
}

/** One event task as an admin reads it in `/system events`: what ran it, for whom, and where it stands. */
export interface EventTaskSummary {
  readonly id: string;
  /** The workflow (action type id). */
  readonly type: string;
  readonly playerId: string;
  /** The event type that started it, when recorded. */
  readonly eventType?: string;
  /** The advancement rule that started it (absent for a feature's own deliveries). */
  readonly rule?: string;
  /** QUEUED, RUNNING, WAITING, SUCCEEDED, FAILED, UNCONFIRMED… */
  readonly state: string;
  readonly attempts: number;
  readonly updatedAt: number;
}

/**
 * Event tasks whose effect could not be confirmed, and how an admin resolves them after checking the player.
 * The EventExecutor implements it. Both resolutions throw NOT_FOUND (AgentException) unless the id names an
 * UNCONFIRMED task (or, for `redeliver`, a FAILED one), so a task is resolved once.
 */
export interface UnconfirmedEvents {
  /** UNCONFIRMED tasks, oldest first. */
  unconfirmed(): UnconfirmedEvent[];
  /** The most recently changed event tasks, newest first, at most `limit`, optionally of one player. */
  recent(limit: number, playerId?: string): EventTaskSummary[];
  /**
   * Runs an UNCONFIRMED task's workflow again as a new durable task (`<id>/redeliver`, new step keys, so its write
   * steps run anew) and marks the original FAILED; resolves with the new task id once both are durable. A FAILED
   * task runs again in place (same id and step keys: what it gave is replayed, never given twice, and a step
   * refused without effect runs anew); resolves with its id once it is queued.
   */
  redeliver(id: string): Promise<string>;
  /** Marks the task SUCCEEDED without running anything: the admin found its effect applied. */
  markDone(id: string): Promise<void>;
}

/** The id of the task that redelivers an unconfirmed one. */
export const redeliveryId = (id: string): string => `${id}/redeliver`;

/** The task that redelivers an unconfirmed one: the same workflow variant, authorised again as the original. */
export const redeliveryOf = (task: EventTask): Omit<EventTask, "createdAt" | "updatedAt"> => ({
  id: redeliveryId(task.id),
  type: task.type,
  input: task.input,
  playerId: task.playerId,
  ...(task.owner === undefined ? {} : { owner: task.owner }),
  ...(task.eventType === undefined ? {} : { eventType: task.eventType }),
  ...(task.rule === undefined ? {} : { rule: task.rule }),
  policy: task.policy,
  state: State.QUEUED,
  attempts: 0,
});

/** A task held UNCONFIRMED as an admin's list shows it. */
export const unconfirmedEvent = (task: EventTask): UnconfirmedEvent => ({
  id: task.id,
  type: task.type,
  playerId: task.playerId,
  input: task.input,
  createdAt: task.createdAt,
  updatedAt: task.updatedAt,
});

/** A task as `/system events` shows it. */
export const eventSummary = (task: EventTask): EventTaskSummary => ({
  id: task.id,
  type: task.type,
  playerId: task.playerId,
  ...(task.eventType === undefined ? {} : { eventType: task.eventType }),
  ...(task.rule === undefined ? {} : { rule: task.rule }),
  state: task.state,
  attempts: task.attempts,
  updatedAt: task.updatedAt,
});
