import type { Logger } from "../../util/logger.js";
import { type AgentResult, Status } from "../agent-result.js";
import type { Failure } from "../failure.js";
import type { AgentAction } from "../module/action-type.js";
import type { AgentJournal, EventTask } from "../storage/agent-journal.js";
import type { RunClaims } from "../storage/run-claims.js";
import { State } from "../storage/state.js";
import type { AgentEngine } from "./agent-engine.js";
import type { BoundedPool } from "./bounded-pool.js";
import type { EventRules } from "./event-rules.js";
import type { Standing } from "./standing.js";

/** An event offered by the host: its stable id (dedupe key), its type, the action to run and the player. */
export interface EventSubmission {
  readonly id: string;
  readonly eventType: string;
  readonly action: AgentAction;
  readonly playerId: string;
  /** The feature submitting it: its own configuration of the workflow handles the task, even if grants change. */
  readonly owner?: string;
  /** The advancement rule that asks for it (stored, re-checked when the task resumes). */
  readonly rule?: string;
}

/** Accepted (a durable QUEUED task exists), a duplicate of a known id, or refused before anything was stored. */
export type EventAdmission =
  | { readonly accepted: true; readonly task: EventTask }
  | { readonly accepted: false; readonly duplicate: true; readonly existing: EventTask | undefined }
  | { readonly accepted: false; readonly duplicate: false; readonly failure: Failure };

export interface EventExecutorOptions {
  readonly engine: AgentEngine;
  readonly journal: AgentJournal;
  /** The event pool of the TaskExecutor. */
  readonly pool: BoundedPool;
  /** The rule table, read at each check (features install after the executor is built). */
  readonly rules: () => EventRules;
  readonly isOnline: (playerId: string) => boolean;
  /** The player's enabled features now (the permission snapshot taken when a run starts). */
  readonly features: (playerId: string) => ReadonlySet<string>;
  readonly locale?: (playerId: string) => string;
  /** Checked before and after every call: revocation, lost permission. */
  readonly standing?: (playerId: string) => Standing;
  /** Told of every terminal task (to notify the player). Errors are logged. */
  readonly onSettled?: (task: EventTask, result: AgentResult) => void;
  /**
   * Told when a task's effect must wait (EFFECT_DEFERRED: nothing changed, tried again later), once per player
   * until one of their tasks settles or they join again (to tell the player the reward is waiting). Errors are logged.
   */
  readonly onDeferred?: (task: EventTask, result: AgentResult) => void;
  /** The backoff of a deferred task: the first wait, doubled per attempt up to `max`. Default DEFER_MILLIS. */
  readonly deferMillis?: { readonly initial: number; readonly max: number };
  /**
   * Servers sharing the journal (a network): a task runs only under this server's claim of it, with the claim's
   * journal; a task another server holds is left to it. Absent: this server is the journal's only writer.
   */
  readonly claims?: RunClaims;
  /**
   * How soon a task of an online player that could not run to an end here is offered again: its claim was held
   * by another server (which may have died: the claim expires), or the journal could not be reached. Default
   * `claims.retryMillis`, else 5 s.
   */
  readonly retryMillis?: number;
  /**
   * A task began to wait as its player is not online here (called once this server holds no claim of it): in a
   * network the server hosting them should read their tasks again. Must not throw.
   */
  readonly onAway?: (playerId: string) => void;
  readonly logger?: Logger;
}

/** How soon a task that could not run to an end is offered again, without `retryMillis` or the claims' own. */
export const RETRY_MILLIS = 5_000;

/** How soon a deferred task (EFFECT_DEFERRED) is tried again: 5 s, doubled per attempt, at most 5 minutes. */
export const DEFER_MILLIS = { initial: 5_000, max: 300_000 } as const;

/** The journal state a task ends in for its workflow's final status. */
export const TERMINAL: Readonly<Record<Status, State>> = {
  [Status.SUCCEEDED]: State.SUCCEEDED,
  [Status.FAILED]: State.FAILED,
  [Status.PARTIALLY_SUCCEEDED]: State.PARTIALLY_SUCCEEDED,
};
