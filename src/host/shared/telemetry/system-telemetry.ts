import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import type { AgentResult } from "../../../agent/agent-result.js";
import {
  type ModelCallRecord,
  NO_SPAN,
  outcomeOf,
  type RequestEntry,
  type RequestIdentity,
  type RoutePath,
  type SpanAttributes,
  type Telemetry,
  type TelemetrySpan,
  type TraceParent,
} from "../../../agent/telemetry/telemetry.js";
import { boundedLabel, type SystemMetrics } from "./system-metrics.js";
import type { TraceExport } from "./trace-export.js";

/** What one running request has recorded so far (its labels are set once it ends). */
interface RequestState {
  route: RoutePath | undefined;
  workflow: string | undefined;
  /** A refusal already counted by the model call that met it (not counted again for the request). */
  quotaCounted: boolean;
  busyCounted: boolean;
  /** The request's root span, while traces are on. */
  span: Span | undefined;
}

const defined = (attributes: SpanAttributes): Record<string, string | number | boolean> => {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
};

/** A span of System's as the engine holds it: the parent its nested steps name. */
class RecordedSpan implements TelemetrySpan {
  constructor(readonly span: Span) {}

  setAttributes(attributes: SpanAttributes): void {
    this.span.setAttributes(defined(attributes));
  }

  fail(code: string): void {
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  }
}

const QUOTA = AgentFailure.QUOTA_EXCEEDED.code;
const BUSY = AgentFailure.BUSY.code;
const CANCELLED = AgentFailure.CANCELLED.code;

/**
 * The host's Telemetry: Prometheus counts in `metrics` (when on) and OpenTelemetry spans through `traces` (when
 * on). A request's labels and its root span are kept against its id (routing and the engine name it); each step
 * names its parent span explicitly, so nothing follows the async context (in Node 20 that hooks every promise of
 * the process, the game's own included). Steps outside any request (a save-all batch) make no spans.
 */
export class SystemTelemetry implements Telemetry {
  /** The span a tool call's effect runs in, by the signal the effect was given. */
  readonly #linked = new WeakMap<AbortSignal, Span>();
  /** The requests running now, by id. */
  readonly #requests = new Map<string, RequestState>();

  constructor(
    readonly metrics: SystemMetrics | undefined,
    readonly traces: TraceExport | undefined,
  ) {}

  get recordsContent(): boolean {
    return this.traces?.recordContent === true;
  }

  async request(
    entry: RequestEntry,
    identity: RequestIdentity,
    work: () => Promise<AgentResult>,
  ): Promise<AgentResult> {
    const state: RequestState = {
      route: undefined,
      workflow: undefined,
      quotaCounted: false,
      busyCounted: false,
      span: undefined,
    };
    const traces = this.traces;
    // a request over the traces' rate cap asks the SDK for nothing
    const span =
      traces === undefined || !traces.admit()
        ? undefined
        : traces.tracer.startSpan(
            `request ${entry}`,
            {
              kind: SpanKind.SERVER,
              attributes: {
                "assistant.entry": entry,
                "assistant.player": traces.player(identity.playerId),
                "assistant.request.id": identity.requestId,
              },
            },
            ROOT_CONTEXT,
          );
    state.span = span;
    const started = process.hrtime.bigint();
    let outcome = AgentFailure.MODULE_FAILED.code;
    this.#requests.set(identity.requestId, state);
    try {
      const result = await work();
      outcome = outcomeOf(result);
      return result;
    } finally {
      this.#requests.delete(identity.requestId);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = state.route ?? "none";
      const workflow = boundedLabel(state.workflow);
      const metrics = this.metrics;
      if (metrics !== undefined) {
        metrics.requests.inc({ entry, route, workflow, outcome: boundedLabel(outcome) });
        metrics.requestSeconds.observe({ entry, route }, seconds);
        if (outcome === QUOTA && !state.quotaCounted) metrics.quotaRefusals.inc();
        if (outcome === BUSY && !state.busyCounted) metrics.busy.inc({ source: "player" });
        if (outcome === CANCELLED) metrics.cancellations.inc();
      }
      if (span !== undefined) {
        span.setAttributes({
          "assistant.route.path": route,
          "assistant.workflow": workflow,
          "assistant.outcome": outcome,
        });
        if (outcome !== "ok") span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
        span.end();
      }
    }
  }

  span<T>(
    name: string,
    attributes: SpanAttributes,
    parent: TraceParent | undefined,
    work: (span: TelemetrySpan) => Promise<T>,
  ): Promise<T> {
    const traces = this.traces;
    if (traces === undefined || parent === undefined) return work(NO_SPAN);
    const above = this.#parentOf(parent);
    // outside a request, or in one the sampler left out: no span
    if (above === undefined || !above.isRecording()) return work(NO_SPAN);
    const span = traces.tracer.startSpan(
      name,
      { kind: SpanKind.INTERNAL, attributes: defined(attributes) },
      trace.setSpan(ROOT_CONTEXT, above),
    );
    return this.#run(span, work);
  }

  async #run<T>(span: Span, work: (span: TelemetrySpan) => Promise<T>): Promise<T> {
    try {
      return await work(new RecordedSpan(span));
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: AgentException.failure(error).code });
      throw error;
    } finally {
      span.end();
    }
  }

  #parentOf(parent: TraceParent): Span | undefined {
    if (typeof parent === "string") return this.#requests.get(parent)?.span;
    if (parent instanceof RecordedSpan) return parent.span;
    if (parent instanceof AbortSignal) return this.#linked.get(parent);
    return undefined;
  }

  link(signal: AbortSignal, span: TelemetrySpan): void {
    if (span instanceof RecordedSpan) this.#linked.set(signal, span.span);
  }

  routed(path: RoutePath, seconds: number, requestId: string): void {
    const request = this.#requests.get(requestId);
    if (request !== undefined) request.route = path;
    if (seconds > 0) this.metrics?.routingSeconds.observe({ route: path }, seconds);
  }

  workflow(workflow: string, requestId: string): void {
    const request = this.#requests.get(requestId);
    if (request !== undefined && request.workflow === undefined) request.workflow = workflow;
  }

  modelCall(record: ModelCallRecord): void {
    const metrics = this.metrics;
    if (metrics === undefined) return;
    const labels = { model: boundedLabel(record.model, "unknown"), workflow: boundedLabel(record.workflow) };
    metrics.modelCalls.inc({ ...labels, outcome: boundedLabel(record.outcome) });
    metrics.modelSeconds.observe(labels, record.seconds);
    if (record.inputTokens > 0) metrics.inputTokens.inc(labels, record.inputTokens);
    if (record.outputTokens > 0) metrics.outputTokens.inc(labels, record.outputTokens);
    const request = record.requestId === undefined ? undefined : this.#requests.get(record.requestId);
    if (record.outcome === QUOTA) {
      metrics.quotaRefusals.inc();
      if (request !== undefined) request.quotaCounted = true;
    }
    if (record.outcome === BUSY) {
      metrics.busy.inc({ source: "model" });
      if (request !== undefined) request.busyCounted = true;
    }
  }

  toolCall(tool: string, outcome: string, seconds: number): void {
    const metrics = this.metrics;
    if (metrics === undefined) return;
    metrics.toolCalls.inc({ tool: boundedLabel(tool), outcome: boundedLabel(outcome) });
    metrics.toolSeconds.observe({ tool: boundedLabel(tool) }, seconds);
  }

  journalStep(outcome: string): void {
    this.metrics?.journalSteps.inc({ outcome: boundedLabel(outcome) });
  }

  /** Sends buffered spans now (tests; shutdown calls `close`). */
  async flush(): Promise<void> {
    await this.traces?.flush();
  }

  async close(): Promise<void> {
    await this.traces?.close();
  }
}
