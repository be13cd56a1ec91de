import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-node";
import { describe, expect, it } from "vitest";
import { AgentResult } from "../../../agent/agent-result.js";
import { SystemTelemetry } from "./system-telemetry.js";
import { rateCap, samplerOf, type TraceExport } from "./trace-export.js";

/** A TraceExport over an in-memory exporter with the given sampler. */
const exportWith = (sampler: Sampler): { traces: TraceExport; exporter: InMemorySpanExporter } => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    exporter,
    traces: {
      tracer: provider.getTracer("test"),
      admit: () => true,
      recordContent: false,
      player: (playerId) => playerId,
      flush: () => provider.forceFlush(),
      close: () => provider.shutdown(),
    },
  };
};

/** The export with its tracer wrapped to count the spans asked for (`started()`). */
const counting = (traces: TraceExport): { traces: TraceExport; started: () => number } => {
  let started = 0;
  const tracer = traces.tracer;
  return {
    started: () => started,
    traces: {
      ...traces,
      tracer: {
        startSpan: (...args: Parameters<typeof tracer.startSpan>) => {
          started++;
          return tracer.startSpan(...args);
        },
        startActiveSpan: tracer.startActiveSpan.bind(tracer),
      } as typeof tracer,
    },
  };
};

/** One request with a workflow span and a tool span inside it. */
const oneRequest = (telemetry: SystemTelemetry): Promise<AgentResult> =>
  telemetry.request("chat", { playerId: "p", requestId: "r" }, () =>
    telemetry.span("workflow test:w", {}, "r", (workflow) =>
      telemetry.span("execute_tool test:t", {}, workflow, async () => AgentResult.success(undefined)),
    ),
  );

describe("trace sampling", () => {
  it("keeps every trace unless telemetry.json's sampleRatio is below 1; OTEL_TRACES_SAMPLER wins", () => {
    const sdk = { ParentBasedSampler, TraceIdRatioBasedSampler };
    expect(samplerOf(1, {}, sdk)).toBeUndefined();
    expect(samplerOf(0.25, { OTEL_TRACES_SAMPLER: "always_on" }, sdk)).toBeUndefined();
    const sampler = samplerOf(0.25, {}, sdk);
    expect(sampler).toBeInstanceOf(ParentBasedSampler);
    expect(sampler?.toString()).toContain("0.25");
  });

  it("admits at most maxPerSecond requests a second: every one while quiet, a bounded share when busy", () => {
    let now = 0;
    const admit = rateCap(10, () => now);
    const admitted = (count: number): number => {
      let kept = 0;
      for (let index = 0; index < count; index++) if (admit()) kept++;
      return kept;
    };
    // a burst of 100 at once: one second's worth is traced
    expect(admitted(100)).toBe(10);
    // a busy second later: 10 more of 1,000
    now += 1000;
    expect(admitted(1000)).toBe(10);
    // a quiet server (one request every 200 ms) has every request traced
    for (let second = 0; second < 5; second++) {
      now += 200;
      expect(admitted(1)).toBe(1);
    }
    // 0: no cap
    const open = rateCap(0, () => now);
    expect(Array.from({ length: 1000 }, () => open()).every(Boolean)).toBe(true);
  });

  it("asks the SDK for nothing, not even a root span, for a request over the cap", async () => {
    const on = exportWith(new AlwaysOnSampler());
    let admitNext = false;
    const { traces, started } = counting({ ...on.traces, admit: () => admitNext });
    const telemetry = new SystemTelemetry(undefined, traces);
    await oneRequest(telemetry);
    expect(started()).toBe(0);
    admitNext = true;
    await oneRequest(telemetry);
    expect(started()).toBe(3);
    expect(on.exporter.getFinishedSpans()).toHaveLength(3);
  });

  it("records a sampled request's whole tree and nothing of a request left out, below its root either", async () => {
    const on = exportWith(new AlwaysOnSampler());
    await oneRequest(new SystemTelemetry(undefined, on.traces));
    expect(on.exporter.getFinishedSpans().map((span) => span.name)).toEqual([
      "execute_tool test:t",
      "workflow test:w",
      "request chat",
    ]);
    const off = exportWith(new AlwaysOffSampler());
    const { traces, started } = counting(off.traces);
    await oneRequest(new SystemTelemetry(undefined, traces));
    expect(off.exporter.getFinishedSpans()).toEqual([]);
    // the root alone was asked for: no span object is made for the steps of a request left out
    expect(started()).toBe(1);
  });

  it("nests each step under the parent it names, across interleaved requests, parallel calls and effects", async () => {
    const on = exportWith(new AlwaysOnSampler());
    const telemetry = new SystemTelemetry(undefined, on.traces);
    const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));
    const effect = new AbortController().signal;
    const request = (id: string): Promise<AgentResult> =>
      telemetry.request("chat", { playerId: id, requestId: id }, async () => {
        await telemetry.span(`route ${id}`, {}, id, tick);
        return telemetry.span(`workflow ${id}`, {}, id, async (workflow) => {
          // two tool calls at once under one parent; an RCON command found through its effect's signal
          await Promise.all([
            telemetry.span(`tool a ${id}`, {}, workflow, async (tool) => {
              if (id === "one") telemetry.link(effect, tool);
              await tick();
              await telemetry.span("rcon give", {}, id === "one" ? effect : undefined, tick);
            }),
            telemetry.span(`tool b ${id}`, {}, workflow, tick),
          ]);
          return AgentResult.success(undefined);
        });
      });
    await Promise.all([request("one"), request("two")]);
    // a step naming a request that is not running, or no parent at all, records nothing
    await telemetry.span("stray", {}, "gone", tick);
    await telemetry.span("stray", {}, undefined, tick);
    const spans = on.exporter.getFinishedSpans();
    const byName = new Map(spans.map((span) => [span.name, span]));
    const parentOf = (name: string): string | undefined => {
      const parent = byName.get(name)?.parentSpanContext?.spanId;
      return spans.find((span) => span.spanContext().spanId === parent)?.name;
    };
    expect(spans.map((span) => span.name).sort()).toEqual(
      [
        "request chat",
        "request chat",
        "route one",
        "route two",
        "workflow one",
        "workflow two",
        "tool a one",
        "tool b one",
        "tool a two",
        "tool b two",
        "rcon give",
      ].sort(),
    );
    expect(parentOf("tool a one")).toBe("workflow one");
    expect(parentOf("tool b one")).toBe("workflow one");
    expect(parentOf("tool a two")).toBe("workflow two");
    expect(parentOf("rcon give")).toBe("tool a one");
    expect(byName.get("workflow one")?.spanContext().traceId).toBe(
      byName.get("tool b one")?.spanContext().traceId,
    );
    expect(byName.get("workflow one")?.spanContext().traceId).not.toBe(
      byName.get("workflow two")?.spanContext().traceId,
    );
  });
});
