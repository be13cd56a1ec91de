import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Seconds buckets of a request or a routing decision (a command answers in milliseconds, a model in seconds). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds buckets of one model call. */
const MODEL_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];
/** Seconds buckets of one tool call or RCON command. */
const TOOL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Default metrics whose names break Prometheus' conventions (a gauge ending in `_total`). */
const LINT_FAILURES = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

const LABEL = /^[A-Za-z0-9_.:/-]{1,80}$/u;
/** Label values already found bounded (the same ids and codes come with every request); at most 4,096. */
const KNOWN_LABELS = new Set<string>();
const MAX_KNOWN_LABELS = 4096;

/** A label value Prometheus gets: ids and codes as they are, anything else (free text, a name with spaces) `other`. */
export const boundedLabel = (value: string | undefined, fallback = "none"): string => {
  if (value === undefined || value === "") return fallback;
  if (KNOWN_LABELS.has(value)) return value;
  if (!LABEL.test(value)) return "other";
  if (KNOWN_LABELS.size < MAX_KNOWN_LABELS) KNOWN_LABELS.add(value);
  return value;
};

/** A gauge read when Prometheus scrapes: `read` returns one value per label set (or one value without labels). */
export type GaugeReading = number | readonly (readonly [Readonly<Record<string, string>>, number])[];

/**
 * The metric families of one System process in their own registry (never the global one, so two servers in one
 * process never share counts), with Node's default process metrics. Names follow Prometheus conventions: the
 * `system_` prefix, base units (seconds, bytes), `_total` for counters, bounded label values only.
 */
export class SystemMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<"entry" | "route" | "workflow" | "outcome">;
  readonly requestSeconds: Histogram<"entry" | "route">;
  readonly routingSeconds: Histogram<"route">;
  readonly modelCalls: Counter<"model" | "workflow" | "outcome">;
  readonly modelSeconds: Histogram<"model" | "workflow">;
  readonly inputTokens: Counter<"model" | "workflow">;
  readonly outputTokens: Counter<"model" | "workflow">;
  readonly quotaRefusals: Counter;
  readonly busy: Counter<"source">;
  readonly cancellations: Counter;
  readonly toolCalls: Counter<"tool" | "outcome">;
  readonly toolSeconds: Histogram<"tool">;
  readonly journalSteps: Counter<"outcome">;
  readonly playerFileErrors: Counter<"kind">;
  readonly databaseErrors: Counter<"kind">;
  readonly relayFrames: Counter<"direction">;
  readonly relayBytes: Counter<"direction">;
  readonly decodedFrames: Counter<"direction">;
  readonly rconCommands: Counter<"command" | "outcome">;
  readonly rconSeconds: Histogram<"command">;
  readonly saveWaits: Counter<"outcome">;
  readonly saveWaitSeconds: Histogram;

  constructor(options: { readonly defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Counter<L>({ name, help, labelNames, registers });
    const histogram = <L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      buckets: number[],
    ) => new Histogram<L>({ name, help, labelNames, buckets, registers });
    this.requests = counter(
      "system_requests_total",
      "Player requests by entry, route path, workflow and outcome.",
      ["entry", "route", "workflow", "outcome"],
    );
    this.requestSeconds = histogram(
      "system_request_duration_seconds",
      "Time from admission to the answer of one request.",
      ["entry", "route"],
      REQUEST_BUCKETS,
    );
    this.routingSeconds = histogram(
      "system_routing_duration_seconds",
      "Time the hybrid router took to decide, by the path that decided.",
      ["route"],
      REQUEST_BUCKETS,
    );
    this.modelCalls = counter("system_model_calls_total", "Model calls by model, workflow and outcome.", [
      "model",
      "workflow",
      "outcome",
    ]);
    this.modelSeconds = histogram(
      "system_model_call_duration_seconds",
      "Time of one model call (queueing for the server-wide limit included).",
      ["model", "workflow"],
      MODEL_BUCKETS,
    );
    this.inputTokens = counter("system_model_input_tokens_total", "Input tokens the model reported.", [
      "model",
      "workflow",
    ]);
    this.outputTokens = counter("system_model_output_tokens_total", "Output tokens the model reported.", [
      "model",
      "workflow",
    ]);
    this.quotaRefusals = counter(
      "system_quota_refusals_total",
      "Requests or model calls refused because a player's daily model quota was used up.",
    );
    this.busy = counter(
      "system_busy_refusals_total",
      "Requests refused BUSY: the player had one running (player) or the model limit was full (model).",
      ["source"],
    );
    this.cancellations = counter("system_cancellations_total", "Requests that ended cancelled.");
    this.toolCalls = counter("system_tool_calls_total", "Tool calls by tool and outcome.", [
      "tool",
      "outcome",
    ]);
    this.toolSeconds = histogram(
      "system_tool_call_duration_seconds",
      "Time of one tool call (a write step's journal records included).",
      ["tool"],
      TOOL_BUCKETS,
    );
    this.journalSteps = counter(
      "system_journal_steps_total",
      "Write steps run through the journal: done, failed, or unknown (effect held for an admin).",
      ["outcome"],
    );
    this.playerFileErrors = counter(
      "system_player_file_errors_total",
      "Player files found damaged (kept aside) or that could not be written.",
      ["kind"],
    );
    this.databaseErrors = counter(
      "system_database_errors_total",
      "Errors of the network's PostgreSQL database (connection lost, unreachable).",
      ["kind"],
    );
    this.relayFrames = counter("system_gateway_frames_total", "Frames the gateway relayed, by direction.", [
      "direction",
    ]);
    this.relayBytes = counter(
      "system_gateway_bytes_total",
      "Bytes of frames the gateway relayed, by direction.",
      ["direction"],
    );
    this.decodedFrames = counter(
      "system_gateway_frames_decoded_total",
      "Relayed frames the gateway decoded (the packets it reads), by direction.",
      ["direction"],
    );
    this.rconCommands = counter("system_rcon_commands_total", "RCON commands by command and outcome.", [
      "command",
      "outcome",
    ]);
    this.rconSeconds = histogram(
      "system_rcon_command_duration_seconds",
      "Time of one RCON command, connecting included.",
      ["command"],
      TOOL_BUCKETS,
    );
    this.saveWaits = counter(
      "system_rcon_save_waits_total",
      "Waits for a save-all after a give (a delivery is DONE only after one), by outcome.",
      ["outcome"],
    );
    this.saveWaitSeconds = histogram(
      "system_rcon_save_wait_duration_seconds",
      "Time a delivery waited for its save-all.",
      [],
      TOOL_BUCKETS,
    );
    if (options.defaultMetrics !== false) {
      collectDefaultMetrics({ register: this.registry });
      // gauges named like counters (promtool rejects them); nodejs_active_handles and friends say the same
      for (const name of LINT_FAILURES) this.registry.removeSingleMetric(name);
    }
  }

  /**
   * Adds a gauge read at scrape time (queue depth, pool use, players online). A reading that throws leaves the
   * gauge unset for that scrape rather than failing the whole exposition.
   */
  gauge(
    name: string,
    help: string,
    labelNames: readonly string[],
    read: () => GaugeReading | Promise<GaugeReading>,
  ): void {
    if (this.registry.getSingleMetric(name) !== undefined) return;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        let reading: GaugeReading;
        try {
          reading = await read();
        } catch {
          return;
        }
        if (typeof reading === "number") this.set(reading);
        else for (const [labels, value] of reading) this.set(labels, value);
      },
    });
  }

  /** The exposition in Prometheus' text format. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
