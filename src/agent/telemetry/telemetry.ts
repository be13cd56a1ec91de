import type { AgentResult } from "../agent-result.js";
import type { RouteSource } from "../routing/route-decision.js";

/** How a request reached System: typed in chat, sent from the web panel, a card button, a durable game event. */
export type RequestEntry = "chat" | "panel" | "window" | "button" | "event";

/**
 * Which step of routing decided a request: an exact command, the local semantic match, the intent cache, the
 * model router, the local fallback card; `structured` for a clicked button, `mode` when the player's mode chose
 * the workflow, `none` when the request was answered before routing (BUSY, too large, a replayed answer).
 */
export type RoutePath =
  | "command"
  | "semantic"
  | "cache"
  | "model"
  | "fallback"
  | "structured"
  | "mode"
  | "none";

/** A value a span may carry: never a player's name or free text (see docs/telemetry.md). */
export type SpanValue = string | number | boolean;
export type SpanAttributes = Readonly<Record<string, SpanValue | undefined>>;

/** The span of one step while it runs. */
export interface TelemetrySpan {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the step failed with a stable failure code. */
  fail(code: string): void;
}

/** One model call as it ended: `outcome` is `ok` or a failure code. */
export interface ModelCallRecord {
  /** The request the call was made for (its refusals are counted once, with it). */
  readonly requestId?: string;
  readonly model: string;
  readonly workflow: string;
  readonly outcome: string;
  readonly seconds: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The player and request a request span names; the implementation hashes the player unless told otherwise. */
export interface RequestIdentity {
  /** The id the request runs under: what `routed` and `workflow` name to record against it. */
  readonly requestId: string;
  readonly playerId: string;
}

/**
 * Where a step's span hangs in its request's trace: a span the step runs inside (passed down from the step that
 * opened it), the request itself (its id), or the signal a tool's effect was given (a step deep in the effect: an
 * RCON command of a give). Undefined, or a parent that records nothing, makes no span.
 */
export type TraceParent = TelemetrySpan | string | AbortSignal;

/**
 * What the engine and the assembly record about requests: counts for metrics and spans for traces, at the seams
 * that already exist (admission, routing, model and tool calls, journal steps). The host implements it with
 * exporters; the engine never imports one. Every label is a bounded value (an id, a failure code), never text a
 * player wrote. Nesting is explicit: each step names its parent (a span, the request's id or an effect's signal);
 * nothing follows the async context, which in Node 20 would hook every promise of the process (see
 * docs/telemetry.md, Cost).
 */
export interface Telemetry {
  /** Runs one whole request as the root of a trace and counts it by entry, route path, workflow and outcome. */
  request(
    entry: RequestEntry,
    identity: RequestIdentity,
    work: () => Promise<AgentResult>,
  ): Promise<AgentResult>;
  /** Runs one step inside a span of its own under `parent`; `work` gets the span to name as its steps' parent. */
  span<T>(
    name: string,
    attributes: SpanAttributes,
    parent: TraceParent | undefined,
    work: (span: TelemetrySpan) => Promise<T>,
  ): Promise<T>;
  /** Spans opened with `signal` as their parent hang under `span` (the signal a tool's effect runs with). */
  link(signal: AbortSignal, span: TelemetrySpan): void;
  /** Request `requestId` was routed by `path` in `seconds`. */
  routed(path: RoutePath, seconds: number, requestId: string): void;
  /** Request `requestId` runs `workflow` (the first one named is the one counted). */
  workflow(workflow: string, requestId: string): void;
  modelCall(record: ModelCallRecord): void;
  /** One tool call ended; `outcome` is `ok` or a failure code. */
  toolCall(tool: string, outcome: string, seconds: number): void;
  /** One write step of the journal ended: `done`, `replayed`, `failed` or `unknown` (its effect's fate unknown). */
  journalStep(outcome: string): void;
  /** Whether the admin allowed prompts and answers in spans (off by default). */
  readonly recordsContent: boolean;
}

/** The span of a step that records nothing (traces off): attributes for it need not be worked out. */
export const NO_SPAN: TelemetrySpan = { setAttributes: () => {}, fail: () => {} };

/** Records nothing: the default when no telemetry is configured (and in tests of the engine alone). */
export const NO_TELEMETRY: Telemetry = {
  request: (_entry, _identity, work) => work(),
  span: (_name, _attributes, _parent, work) => work(NO_SPAN),
  link: () => {},
  routed: () => {},
  workflow: () => {},
  modelCall: () => {},
  toolCall: () => {},
  journalStep: () => {},
  recordsContent: false,
};

/** The outcome label of a result: `ok`, `partial`, or its failure code. */
export const outcomeOf = (result: AgentResult): string =>
  result.isPartial() ? "partial" : (result.failure?.code ?? "ok");

/** Attribute names by counter name, made once (a traced request's workflow span names them all). */
const BUDGET_KEYS = new Map<string, string>();

/** The budget counters of a request as span attributes (`assistant.budget.modelCalls`, …). */
export const budgetAttributes = (counters: {
  snapshot(): Readonly<Record<string, number>>;
}): SpanAttributes => {
  const attributes: Record<string, number> = {};
  const snapshot = counters.snapshot();
  for (const name in snapshot) {
    let key = BUDGET_KEYS.get(name);
    if (key === undefined) {
      key = `assistant.budget.${name}`;
      BUDGET_KEYS.set(name, key);
    }
    attributes[key] = snapshot[name] as number;
  }
  return attributes;
};

const PATHS: Readonly<Record<RouteSource, RoutePath>> = {
  COMMAND: "command",
  SEMANTIC: "semantic",
  CACHE: "cache",
  MODEL: "model",
  LOCAL_FALLBACK: "fallback",
  CLARIFY: "fallback",
  STRUCTURED: "structured",
};

/** The route path label of a routing decision (a clarifying question counts as the fallback). */
export const routePathOf = (source: RouteSource): RoutePath => PATHS[source];
