import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { codec } from "../../../util/codec.js";
import { ConfigInstance } from "../../../util/config-instance.js";
import type { Logger } from "../../../util/logger.js";

/** Requests traced a second at most, unless telemetry.json says otherwise. */
export const DEFAULT_TRACES_PER_SECOND = 50;

/** `config/system/telemetry.json`: what System exports for admins' monitoring. */
export interface TelemetryConfig {
  readonly metrics: {
    /** Count requests, model calls, the journal, the gateway (default true); `/metrics` answers 404 when false. */
    readonly enabled: boolean;
    /**
     * A file (relative to `config/system`) holding the bearer token scrapers must send from other machines; without
     * it `/metrics` answers loopback clients only and 401 to every other address.
     */
    readonly bearerTokenFile?: string;
    /** The address `--metrics-port` listens on (127.0.0.1 unless a token file is named). */
    readonly host: string;
  };
  readonly traces: {
    /** Export OpenTelemetry traces (also turned on by `OTEL_EXPORTER_OTLP_ENDPOINT`). Default false. */
    readonly enabled: boolean;
    /** The OTLP/HTTP traces URL (`…/v1/traces`); the standard variables when absent. */
    readonly endpoint?: string;
    /** Put prompts and answers into model spans (default false). */
    readonly recordContent: boolean;
    /** Put players' UUIDs into request spans instead of a salted hash (default false). */
    readonly recordPlayers: boolean;
    /** The salt of the players' hash; a random one per start when absent (hashes then differ across restarts). */
    readonly playerSalt?: string;
    /**
     * The share of requests traced, 0 to 1 (default 1: every request). A request's trace is kept or left out whole;
     * `OTEL_TRACES_SAMPLER` (with `OTEL_TRACES_SAMPLER_ARG`) wins when set.
     */
    readonly sampleRatio: number;
    /**
     * At most this many requests traced a second (default 50; 0: no cap), so a busy server's traces cost a bounded
     * share of its time; a request is kept or left out whole. Applies before `sampleRatio`; not when
     * `OTEL_TRACES_SAMPLER` is set.
     */
    readonly maxPerSecond: number;
  };
}

export const DEFAULT_TELEMETRY_CONFIG: TelemetryConfig = {
  metrics: { enabled: true, host: "127.0.0.1" },
  traces: {
    enabled: false,
    recordContent: false,
    recordPlayers: false,
    sampleRatio: 1,
    maxPerSecond: DEFAULT_TRACES_PER_SECOND,
  },
};

const TELEMETRY_CONFIG = codec<TelemetryConfig>(
  z.object({
    metrics: z
      .object({
        enabled: z.boolean().default(true),
        bearerTokenFile: z.string().min(1).max(1024).optional(),
        host: z.string().min(1).max(253).default("127.0.0.1"),
      })
      .default(DEFAULT_TELEMETRY_CONFIG.metrics),
    traces: z
      .object({
        enabled: z.boolean().default(false),
        endpoint: z.url().optional(),
        recordContent: z.boolean().default(false),
        recordPlayers: z.boolean().default(false),
        playerSalt: z.string().min(8).max(256).optional(),
        sampleRatio: z.number().min(0).max(1).default(1),
        maxPerSecond: z.number().int().min(0).max(1_000_000).default(DEFAULT_TRACES_PER_SECOND),
      })
      .default(DEFAULT_TELEMETRY_CONFIG.traces),
  }) as unknown as z.ZodType<TelemetryConfig>,
);

/** The settings with the bearer token read (its file must exist and hold 16+ characters). */
export interface TelemetrySettings extends TelemetryConfig {
  readonly bearerToken?: string;
}

/**
 * Reads `config/system/telemetry.json` (written with the defaults when missing; a broken file, or a named token
 * file that is missing or too short, stops the start naming it).
 */
export const loadTelemetryConfig = async (dataDir: string, logger: Logger): Promise<TelemetrySettings> => {
  const configDir = join(dataDir, "config", "system");
  const config = new ConfigInstance<TelemetryConfig>({
    path: join(configDir, "telemetry.json"),
    codec: TELEMETRY_CONFIG,
    defaults: DEFAULT_TELEMETRY_CONFIG,
    logger,
    name: "telemetry.json",
    onInvalid: "refuse",
  });
  await config.reload();
  const value = config.get();
  const file = value.metrics.bearerTokenFile;
  if (file === undefined) return value;
  const path = isAbsolute(file) ? file : join(configDir, file);
  let token: string;
  try {
    token = (await readFile(path, "utf8")).trim();
  } catch (error) {
    throw new Error(
      `telemetry.json: the metrics token file ${path} cannot be read (${(error as Error).message})`,
    );
  }
  if (token.length < 16 || /\s/u.test(token))
    throw new Error(`telemetry.json: the metrics token in ${path} must be 16+ characters without spaces`);
  return { ...value, bearerToken: token };
};
