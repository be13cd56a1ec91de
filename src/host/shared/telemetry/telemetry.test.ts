import { describe, expect, it } from "vitest";
import { isLoopback } from "./host-telemetry.js";
import { boundedLabel } from "./system-metrics.js";
import { DEFAULT_TELEMETRY_CONFIG } from "./telemetry-config.js";
import { traceEndpoint } from "./trace-export.js";

describe("telemetry settings", () => {
  const traces = DEFAULT_TELEMETRY_CONFIG.traces;

  it("keeps traces off unless the standard variables or telemetry.json turn them on", () => {
    expect(traceEndpoint(traces, {})).toBeUndefined();
    expect(traceEndpoint(traces, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" })).toBe(
      "http://c:4318/v1/traces",
    );
    expect(traceEndpoint(traces, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/x" })).toBe(
      "http://c:4318/x",
    );
    expect(traceEndpoint({ ...traces, enabled: true }, {})).toBe("http://localhost:4318/v1/traces");
    expect(
      traceEndpoint(traces, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBeUndefined();
    expect(traceEndpoint({ ...traces, enabled: true }, { OTEL_TRACES_EXPORTER: "none" })).toBeUndefined();
  });

  it("lets only ids and codes through as label values", () => {
    expect(boundedLabel("system:reasoning")).toBe("system:reasoning");
    expect(boundedLabel("QUOTA_EXCEEDED")).toBe("QUOTA_EXCEEDED");
    expect(boundedLabel("where do I find diamonds")).toBe("other");
    expect(boundedLabel("名字")).toBe("other");
    expect(boundedLabel(undefined)).toBe("none");
    expect(boundedLabel("x".repeat(81))).toBe("other");
  });

  it("knows loopback peers", () => {
    expect(isLoopback("127.0.0.1")).toBe(true);
    expect(isLoopback("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopback("::1")).toBe(true);
    expect(isLoopback("192.0.2.2")).toBe(false);
    expect(isLoopback("::ffff:192.0.2.2")).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });
});
