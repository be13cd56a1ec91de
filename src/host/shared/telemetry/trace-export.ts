import { createHash, randomBytes } from "node:crypto";
import type { Tracer } from "@opentelemetry/api";
import type { Sampler } from "@opentelemetry/sdk-trace-node";
import type { TelemetryConfig } from "./telemetry-config.js";

/** Where traces go and what they may carry, once tracing is on. */
export interface TraceExport {
  readonly tracer: Tracer;
  /** Whether a request starting now may be traced (telemetry.json's `maxPerSecond`); the sampler decides after. */
  admit(): boolean;
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

/** How spans travel to the collector over OTLP/HTTP. */
export type TraceProtocol = "http/protobuf" | "http/json";

/**
 * The encoding the standard variables ask for (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else
 * `OTEL_EXPORTER_OTLP_PROTOCOL`): `http/json`, or `http/protobuf`, the standard's default, for anything else
 * (`grpc` is not spoken here; `asked` says what was named, for the start line).
 */
export const traceProtocol = (
  environment: Readonly<Record<string, string | undefined>>,
): { readonly protocol: TraceProtocol; readonly asked: string | undefined } => {
  const asked = (environment.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? environment.OTEL_EXPORTER_OTLP_PROTOCOL)
    ?.trim()
    .toLowerCase();
  return { protocol: asked === "http/json" ? "http/json" : "http/protobuf", asked: asked || undefined };
};

/** The most players whose hashes are kept; past it the map starts again (a hash costs a SHA-256). */
const HASHED_PLAYERS = 4_096;

/**
 * Admits at most `perSecond` requests a second to be traced (a token bucket holding one second's worth), so a quiet
 * server traces every request and a busy one a share whose cost stays bounded. A request left out asks the SDK for
 * nothing: no span, no trace id.
 */
export const rateCap = (perSecond: number, now: () => number = () => performance.now()): (() => boolean) => {
  if (!(perSecond > 0)) return () => true;
  let tokens = perSecond;
  let refilled = now();
  return () => {
    const at = now();
    tokens = Math.min(perSecond, tokens + ((at - refilled) / 1000) * perSecond);
    refilled = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
};

/**
 * The sampler of telemetry.json's `sampleRatio`, or undefined to let the SDK read `OTEL_TRACES_SAMPLER` (which wins
 * when set) or keep its default, every trace.
 */
export const samplerOf = (
  ratio: number,
  environment: Readonly<Record<string, string | undefined>>,
  sdk: Pick<
    typeof import("@opentelemetry/sdk-trace-node"),
    "ParentBasedSampler" | "TraceIdRatioBasedSampler"
  >,
): Sampler | undefined => {
  if (samplerFromEnvironment(environment)) return undefined;
  if (ratio >= 1) return undefined;
  return new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(ratio) });
};

const samplerFromEnvironment = (environment: Readonly<Record<string, string | undefined>>): boolean =>
  (environment.OTEL_TRACES_SAMPLER?.trim() ?? "") !== "";

/**
 * Starts exporting traces with the official SDK to `endpoint` (batched, OTLP/HTTP in `protocol`). The provider is not
 * registered globally: System's spans go through the tracer handed out here, and nothing else in the process is
 * traced by accident. The SDK is loaded here, only when tracing is on (off by default): a server without traces
 * never holds it (about 2.5 MB of heap and 8 MB of RSS).
 */
export const startTraceExport = async (options: {
  readonly endpoint: string;
  readonly protocol: TraceProtocol;
  readonly config: TelemetryConfig["traces"];
  readonly serviceName: string;
  readonly version: string;
}): Promise<TraceExport> => {
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, sdk] = await Promise.all([
    // protobuf is written straight from the spans; JSON first builds a copy of every span, then the text
    options.protocol === "http/json"
      ? import("@opentelemetry/exporter-trace-otlp-http")
      : import("@opentelemetry/exporter-trace-otlp-proto"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-node"),
  ]);
  const exporter = new OTLPTraceExporter({ url: options.endpoint });
  const { BatchSpanProcessor, NodeTracerProvider } = sdk;
  const sampler = samplerOf(options.config.sampleRatio, process.env, sdk);
  const provider = new NodeTracerProvider({
    ...(sampler === undefined ? {} : { sampler }),
    resource: resourceFromAttributes({
      "service.name": options.serviceName,
      "service.version": options.version,
    }),
    // a busy server ends thousands of spans a second: a queue of several seconds' worth, sent in large batches
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        scheduledDelayMillis: 1_000,
        maxQueueSize: 16_384,
        maxExportBatchSize: 2_048,
      }),
    ],
  });
  const salt = options.config.playerSalt ?? randomBytes(16).toString("hex");
  const hashed = new Map<string, string>();
  const hash = (playerId: string): string => {
    const known = hashed.get(playerId);
    if (known !== undefined) return known;
    const made = createHash("sha256").update(salt).update(playerId).digest("hex").slice(0, 16);
    if (hashed.size >= HASHED_PLAYERS) hashed.clear();
    hashed.set(playerId, made);
    return made;
  };
  return {
    tracer: provider.getTracer("system", options.version),
    admit: samplerFromEnvironment(process.env) ? () => true : rateCap(options.config.maxPerSecond),
    recordContent: options.config.recordContent,
    player: (playerId) => (options.config.recordPlayers ? playerId : hash(playerId)),
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
};
