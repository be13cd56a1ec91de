import { z } from "zod";
import { codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";
import type { ModelClient } from "./model-client.js";
import type { ModelGateway, ModelGatewayOptions } from "./model-gateway.js";
import { OpenAiModelClient } from "./openai-model-client.js";

/**
 * `config/system/model.json`: the OpenAI-compatible endpoint and the server's model limits. A file of its own
 * (not a section of system-agent.json) so the API key can be kept with tighter file permissions.
 */
export interface ModelSettings {
  /** e.g. `https://api.deepseek.com/v1`, `http://127.0.0.1:11434/v1`; "" = no model. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** e.g. `gpt-4o-mini`, `deepseek-chat`, `qwen2.5:7b`; "" = no model. */
  readonly model: string;
  /** Extra HTTP headers sent with every request (some gateways want an organisation or a route header). */
  readonly headers: Readonly<Record<string, string>>;
  /** Model calls in flight across the whole server. */
  readonly concurrency: number;
  /** Model calls per player per local day; 0 = unlimited. */
  readonly dailyCalls: number;
  /** Input + output tokens per player per local day; 0 = unlimited. */
  readonly dailyTokens: number;
}

/** Environment variables that override the file (handy for containers and secrets). */
export const MODEL_ENVIRONMENT = {
  baseUrl: "SYSTEM_MODEL_BASE_URL",
  apiKey: "SYSTEM_MODEL_API_KEY",
  model: "SYSTEM_MODEL",
} as const;

export const DEFAULT_MODEL_SETTINGS: ModelSettings = Object.freeze({
  baseUrl: "",
  apiKey: "",
  model: "",
  headers: {},
  concurrency: 4,
  dailyCalls: 200,
  dailyTokens: 500_000,
});

const limit = (fallback: number, min: number) => z.number().int().min(min).max(100_000_000).default(fallback);

export const MODEL_SETTINGS_CODEC = codec<ModelSettings>(
  z.object({
    baseUrl: z
      .string()
      .default("")
      .refine((value) => value === "" || /^https?:\/\//i.test(value), "must be an http(s) URL or empty")
      .refine((value) => value === "" || URL.canParse(value), "must be a valid URL"),
    apiKey: z.string().default(""),
    model: z.string().default(""),
    headers: z.record(z.string(), z.string()).default({}),
    concurrency: z.number().int().min(1).max(256).default(DEFAULT_MODEL_SETTINGS.concurrency),
    dailyCalls: limit(DEFAULT_MODEL_SETTINGS.dailyCalls, 0),
    dailyTokens: limit(DEFAULT_MODEL_SETTINGS.dailyTokens, 0),
  }),
);

/** A non-empty environment variable, trimmed, or the file's value. */
const pick = (
  environment: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: string,
): string => {
  const value = environment[name]?.trim();
  return value === undefined || value === "" ? fallback : value;
};

/** The model settings file plus environment overrides; `bind` keeps a gateway in step with reloads. */
export class ModelConfig extends ConfigInstance<ModelSettings> {
  readonly #environment: Readonly<Record<string, string | undefined>>;

  constructor(options: {
    readonly path: string | undefined;
    readonly logger: Logger;
    /** Defaults to process.env. */
    readonly environment?: Readonly<Record<string, string | undefined>>;
  }) {
    super({
      path: options.path,
      codec: MODEL_SETTINGS_CODEC,
      defaults: DEFAULT_MODEL_SETTINGS,
      logger: options.logger,
      name: "model.json",
    });
    this.#environment = options.environment ?? process.env;
  }

  /** The file's settings with non-empty environment variables applied on top. */
  effective(): ModelSettings {
    const file = this.get();
    const environment = this.#environment;
    return {
      ...file,
      baseUrl: pick(environment, MODEL_ENVIRONMENT.baseUrl, file.baseUrl),
      apiKey: pick(environment, MODEL_ENVIRONMENT.apiKey, file.apiKey),
      model: pick(environment, MODEL_ENVIRONMENT.model, file.model),
    };
  }

  /**
   * False when there is no base URL or no model name: the server runs without model features. Asked on every
   * request (routing, availability), so it reads just those two settings.
   */
  configured(): boolean {
    const file = this.get();
    const environment = this.#environment;
    return (
      pick(environment, MODEL_ENVIRONMENT.baseUrl, file.baseUrl) !== "" &&
      pick(environment, MODEL_ENVIRONMENT.model, file.model) !== ""
    );
  }

  /** A client for the current settings, or undefined when not configured. */
  client(): ModelClient | undefined {
    if (!this.configured()) return undefined;
    const settings = this.effective();
    return new OpenAiModelClient({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      model: settings.model,
      headers: settings.headers,
    });
  }

  /** The gateway options these settings imply (the host adds the usage store). */
  gatewayOptions(): Pick<ModelGatewayOptions, "client" | "concurrency" | "dailyCalls" | "dailyTokens"> {
    const settings = this.effective();
    return {
      client: this.client(),
      concurrency: settings.concurrency,
      dailyCalls: settings.dailyCalls,
      dailyTokens: settings.dailyTokens,
    };
  }

  /** Reconfigures the gateway now and after every set/reload; running calls keep their client. */
  bind(gateway: ModelGateway): void {
    gateway.reconfigure(this.gatewayOptions());
    this.onChange(() => gateway.reconfigure(this.gatewayOptions()));
  }
}
