import type { MetricValue } from "prom-client";
import type { SystemMetrics } from "./system-metrics.js";

/** What the operators' page draws, sampled from the metrics registry (never from anything else). */
export interface TelemetrySnapshot {
  /** Minutes (epoch millis of each minute), oldest first, with the requests of each by route path. */
  readonly minutes: readonly { readonly at: number; readonly routes: Readonly<Record<string, number>> }[];
  /** Request latency per minute in seconds (from the histogram's buckets); undefined when a minute had none. */
  readonly latency: readonly { readonly at: number; readonly p50?: number; readonly p99?: number }[];
  /** Model calls and tokens per day (UTC) and model. */
  readonly modelDays: readonly {
    readonly day: string;
    readonly model: string;
    readonly calls: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
  }[];
  /** Requests that failed, by failure code, since start. */
  readonly failures: Readonly<Record<string, number>>;
  /** The most requested workflows since start. */
  readonly workflows: readonly { readonly workflow: string; readonly requests: number }[];
  readonly unconfirmedDeliveries: number;
  /** Gateway only: players relayed now and RCON commands by outcome (undefined in the embedded world). */
  readonly gateway?: {
    readonly players: number;
    readonly rcon: Readonly<Record<string, number>>;
    readonly rconP99?: number;
  };
}

const MINUTES = 60;
const DAYS = 14;

const valuesOf = async (metrics: SystemMetrics, name: string): Promise<MetricValue<string>[]> =>
  ((await metrics.registry.getSingleMetric(name)?.get())?.values ?? []) as MetricValue<string>[];

const sumBy = (values: readonly MetricValue<string>[], label: string): Map<string, number> => {
  const sums = new Map<string, number>();
  for (const value of values) {
    const key = String(value.labels[label] ?? "");
    sums.set(key, (sums.get(key) ?? 0) + value.value);
  }
  return sums;
};

/** Cumulative bucket counts of a histogram summed over its label sets, by upper bound. */
const bucketsOf = (values: readonly MetricValue<string>[]): Map<number, number> => {
  const buckets = new Map<number, number>();
  for (const value of values) {
    if (!(value as { metricName?: string }).metricName?.endsWith("_bucket")) continue;
    const le = value.labels.le;
    const bound = le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + value.value);
  }
  return buckets;
};

/** The upper bound of the bucket holding quantile `q` of the counts between two cumulative snapshots. */
const quantileOf = (now: Map<number, number>, before: Map<number, number>, q: number): number | undefined => {
  const bounds = [...now.keys()].sort((a, b) => a - b);
  const total = (now.get(Number.POSITIVE_INFINITY) ?? 0) - (before.get(Number.POSITIVE_INFINITY) ?? 0);
  if (total <= 0) return undefined;
  for (const bound of bounds) {
    const count = (now.get(bound) ?? 0) - (before.get(bound) ?? 0);
    if (count >= q * total) return Number.isFinite(bound) ? bound : (bounds.at(-2) ?? bound);
  }
  return undefined;
};

const delta = (now: Map<string, number>, before: Map<string, number>): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const [key, value] of now) {
    const change = value - (before.get(key) ?? 0);
    if (change > 0) out[key] = change;
  }
  return out;
};

/**
 * Keeps the last hour per minute and the last 14 days per day of what the page charts, sampled from the registry
 * once a minute (and at each read, for the minute in progress). Everything it holds is already a bounded label.
 */
export class TelemetryHistory {
  readonly #minutes: { at: number; routes: Record<string, number>; p50?: number; p99?: number }[] = [];
  readonly #days = new Map<string, { calls: number; inputTokens: number; outputTokens: number }>();
  #last:
    | {
        routes: Map<string, number>;
        buckets: Map<number, number>;
        calls: Map<string, number>;
        input: Map<string, number>;
        output: Map<string, number>;
      }
    | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly metrics: SystemMetrics,
    private readonly now: () => number = Date.now,
  ) {
    this.#timer = setInterval(() => void this.sample().catch(() => {}), 60_000);
    this.#timer.unref();
  }

  /** Takes a sample now: the requests, latency and model use since the previous one. */
  async sample(): Promise<void> {
    const metrics = this.metrics;
    const requests = await valuesOf(metrics, "system_requests_total");
    const routes = sumBy(requests, "route");
    const buckets = bucketsOf(await valuesOf(metrics, "system_request_duration_seconds"));
    const byModel = async (name: string) => sumBy(await valuesOf(metrics, name), "model");
    const calls = await byModel("system_model_calls_total");
    const input = await byModel("system_model_input_tokens_total");
    const output = await byModel("system_model_output_tokens_total");
    const last = this.#last ?? {
      routes: new Map(),
      buckets: new Map(),
      calls: new Map(),
      input: new Map(),
      output: new Map(),
    };
    const at = Math.floor(this.now() / 60_000) * 60_000;
    let minute = this.#minutes.at(-1);
    if (minute === undefined || minute.at !== at) {
      minute = { at, routes: {} };
      this.#minutes.push(minute);
      this.#minutes.splice(0, Math.max(0, this.#minutes.length - MINUTES));
    }
    for (const [route, count] of Object.entries(delta(routes, last.routes)))
      minute.routes[route] = (minute.routes[route] ?? 0) + count;
    const p50 = quantileOf(buckets, last.buckets, 0.5);
    const p99 = quantileOf(buckets, last.buckets, 0.99);
    if (p50 !== undefined) minute.p50 = p50;
    if (p99 !== undefined) minute.p99 = p99;
    const day = new Date(this.now()).toISOString().slice(0, 10);
    const callDelta = delta(calls, last.calls);
    const inputDelta = delta(input, last.input);
    const outputDelta = delta(output, last.output);
    for (const model of new Set([...Object.keys(callDelta), ...Object.keys(inputDelta)])) {
      const key = `${day}\u0000${model}`;
      const entry = this.#days.get(key) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
      entry.calls += callDelta[model] ?? 0;
      entry.inputTokens += inputDelta[model] ?? 0;
      entry.outputTokens += outputDelta[model] ?? 0;
      this.#days.set(key, entry);
    }
    const days = [...new Set([...this.#days.keys()].map((key) => key.split("\u0000")[0]))].sort();
    for (const old of days.slice(0, Math.max(0, days.length - DAYS)))
      for (const key of [...this.#days.keys()]) if (key.startsWith(`${old}\u0000`)) this.#days.delete(key);
    this.#last = { routes, buckets, calls, input, output };
  }

  /** The page's data now (samples first, so the minute in progress is current). */
  async snapshot(): Promise<TelemetrySnapshot> {
    await this.sample();
    const metrics = this.metrics;
    const requests = await valuesOf(metrics, "system_requests_total");
    const failures: Record<string, number> = {};
    for (const [code, count] of sumBy(requests, "outcome"))
      if (code !== "ok" && code !== "partial" && count > 0) failures[code] = count;
    const workflows = [...sumBy(requests, "workflow")]
      .filter(([workflow]) => workflow !== "none")
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([workflow, count]) => ({ workflow, requests: count }));
    const gauge = async (name: string): Promise<number | undefined> =>
      (await valuesOf(metrics, name))[0]?.value;
    const players = await gauge("system_gateway_players");
    const rconValues = await valuesOf(metrics, "system_rcon_commands_total");
    const rconP99 = quantileOf(
      bucketsOf(await valuesOf(metrics, "system_rcon_command_duration_seconds")),
      new Map(),
      0.99,
    );
    return {
      minutes: this.#minutes.map((minute) => ({ at: minute.at, routes: { ...minute.routes } })),
      latency: this.#minutes.map((minute) => ({
        at: minute.at,
        ...(minute.p50 === undefined ? {} : { p50: minute.p50 }),
        ...(minute.p99 === undefined ? {} : { p99: minute.p99 }),
      })),
      modelDays: [...this.#days].map(([key, entry]) => {
        const [day = "", model = ""] = key.split("\u0000");
        return { day, model, ...entry };
      }),
      failures,
      workflows,
      unconfirmedDeliveries: (await gauge("system_unconfirmed_deliveries")) ?? 0,
      ...(players === undefined
        ? {}
        : {
            gateway: {
              players,
              rcon: Object.fromEntries(sumBy(rconValues, "outcome")),
              ...(rconP99 === undefined ? {} : { rconP99 }),
            },
          }),
    };
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
