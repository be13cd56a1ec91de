import { createHash, randomBytes } from "node:crypto";
import type { Tracer } from "@opentelemetry/api";
import type { TelemetryConfig } from "./telemetry-config.js";

/** Where traces go and what they may carry, once tracing is on. */
export interface TraceExport {
  readonly tracer: Tracer;
  readonly recordContent: boolean;
  /** The player as a span names them: a salted hash unless the admin opted in to UUIDs. */
  player(playerId: string): string;
  /** Sends what is buffered now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The OTLP/HTTP traces URL, or undefined when tracing is off: `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`
 * turn it off; `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (+ `/v1/traces`) turn it
 * on; else telemetry.json's `traces` (its endpoint, or the collector's default on this machine).
 */
export const traceEndpoint = (
  config: TelemetryConfig["traces"],
  environment: Readonly<Record<string, string | undefined>>,
): string | undefined => {
  if (environment.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (environment.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  const traces = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces !== undefined && traces !== "") return traces;
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base !== undefined && base !== "") return `${base.replace(/\/+$/u, "")}/v1/traces`;
  if (!config.enabled) return undefined;
  return config.endpoint ?? "http://localhost:4318/v1/traces";
};

/**
 * Starts exporting traces with the official SDK to `endpoint` (batched, OTLP/HTTP JSON). The provider is not
 * registered globally: System's spans go through the tracer handed out here, and nothing else in the process is
 * traced by accident. The SDK is loaded here, only when tracing is on (off by default): a server without traces
 * never holds it (about 2.5 MB of heap and 8 MB of RSS).
 */
export const startTraceExport = async (options: {
  readonly endpoint: string;
  readonly config: TelemetryConfig["traces"];
  readonly serviceName: string;
  readonly version: string;
}): Promise<TraceExport> => {
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }] =
    await Promise.all([
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/sdk-trace-node"),
    ]);
  const exporter = new OTLPTraceExporter({ url: options.endpoint });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      "service.name": options.serviceName,
      "service.version": options.version,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  const salt = options.config.playerSalt ?? randomBytes(16).toString("hex");
  return {
    tracer: provider.getTracer("system", options.version),
    recordContent: options.config.recordContent,
    player: (playerId) =>
      options.config.recordPlayers
        ? playerId
        : createHash("sha256").update(salt).update(playerId).digest("hex").slice(0, 16),
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
};
