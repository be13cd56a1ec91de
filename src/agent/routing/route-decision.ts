import type { SelectionCardData } from "../card/selection-card.js";
import type { BudgetCounters } from "../execution/budget-counters.js";
import type { Failure } from "../failure.js";
import type { AgentAction } from "../module/action-type.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { GuardHit } from "./statement-guard.js";

/** Which step decided; every path ends in the same AgentAction or a selection card. */
export type RouteSource =
  | "COMMAND"
  | "SEMANTIC"
  | "CACHE"
  | "MODEL"
  | "LOCAL_FALLBACK"
  | "CLARIFY"
  /** A clicked candidate or card button: a new structured request, never routed by the model. */
  | "STRUCTURED";

/** A module or reject class the local index found similar (similarity is a cosine, not a probability). */
export interface RouteCandidate {
  readonly moduleId: string;
  readonly similarity: number;
  readonly coverage: number;
  readonly reject: boolean;
  /** The target's closest sample, as registered. */
  readonly sample?: string;
  /** The query's words none of the target's samples has (what lowers coverage), as the index reads them. */
  readonly uncovered?: readonly string[];
}

/** Why a decision was taken: the steps tried in order and the local match figures. */
export interface RouteEvidence {
  /** e.g. `command:none`, `semantic:margin`, `cache:miss`, `model:invalid`. */
  readonly path: readonly string[];
  readonly candidates: readonly RouteCandidate[];
  /** Best similarity minus the best other target's (module or reject). */
  readonly margin: number;
  /** Share of the query's words found in the best target's samples. */
  readonly coverage: number;
  readonly guards: readonly GuardHit[];
}

/** The outcome of routing one text. `action` is set for every executable source; failures end the request. */
export interface RouteDecision {
  readonly source: RouteSource;
  readonly module?: AnyAgentModule;
  readonly action?: AgentAction;
  /** A command error (INPUT_INVALID with usage, UNKNOWN_COMMAND) or a refused structured request. */
  readonly failure?: Failure;
  /** Why the model router did not decide (the model down, its quota used up), for the admin's log. */
  readonly modelFailure?: Failure;
  /** Candidates to show (LOCAL_FALLBACK, CLARIFY). */
  readonly selection?: SelectionCardData;
  /** The request's counters; a routing model call is already on them; pass them to AgentEngine.execute. */
  readonly counters: BudgetCounters;
  readonly evidence: RouteEvidence;
}
