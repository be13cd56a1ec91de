import type { EmbeddingSettings } from "./semantic-config.js";

/** Turns texts into vectors (one per text, same order). */
export interface EmbeddingProvider {
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface OpenAiEmbeddingsOptions {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly timeoutMillis?: number;
}

/** An OpenAI-compatible `POST {baseUrl}/embeddings` client over fetch (OpenAI, Ollama, LM Studio, vLLM…). */
export class OpenAiEmbeddings implements EmbeddingProvider {
  constructor(private readonly options: OpenAiEmbeddingsOptions) {}

  /** From `semantic.json`; the key is read from the named environment variable. */
  static fromSettings(settings: EmbeddingSettings, env: NodeJS.ProcessEnv = process.env): OpenAiEmbeddings {
    const apiKey = settings.apiKeyEnv === undefined ? undefined : env[settings.apiKeyEnv];
    return new OpenAiEmbeddings({
      baseUrl: settings.baseUrl,
      model: settings.model,
      timeoutMillis: settings.timeoutMillis,
      ...(apiKey === undefined ? {} : { apiKey }),
    });
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    const timeout = AbortSignal.timeout(this.options.timeoutMillis ?? 3_000);
    const response = await fetch(`${this.options.baseUrl.replace(/\/+$/, "")}/embeddings`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(this.options.apiKey === undefined ? {} : { authorization: `Bearer ${this.options.apiKey}` }),
      },
      body: JSON.stringify({ model: this.options.model, input: texts }),
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    if (!response.ok) throw new Error(`embeddings endpoint answered ${response.status}`);
    const body = (await response.json()) as { data?: { index?: number; embedding?: unknown }[] };
    const data = Array.isArray(body.data) ? body.data : [];
    const vectors: number[][] = new Array(texts.length);
    data.forEach((entry, position) => {
      const index = typeof entry.index === "number" ? entry.index : position;
      if (Array.isArray(entry.embedding) && entry.embedding.every((value) => typeof value === "number"))
        vectors[index] = entry.embedding as number[];
    });
    for (let index = 0; index < texts.length; index++)
      if (vectors[index] === undefined)
        throw new Error(`embeddings endpoint returned no vector for input ${index}`);
    return vectors;
  }
}
