import { z } from "zod";
import { codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";

/** An OpenAI-compatible `/v1/embeddings` endpoint that replaces the local vectors when set. */
export interface EmbeddingSettings {
  readonly baseUrl: string;
  readonly model: string;
  /** Name of the environment variable holding the key (keys never live in the file). */
  readonly apiKeyEnv?: string;
  readonly timeoutMillis: number;
}

/**
 * `config/system/semantic.json`: the thresholds of local direct routing (all must hold), the intent
 * cache size and the number of fallback candidates. Similarity is a cosine, not a probability.
 */
export interface SemanticSettings {
  readonly minSimilarity: number;
  readonly minMargin: number;
  readonly minCoverage: number;
  readonly cacheEntriesPerPlayer: number;
  readonly fallbackCandidates: number;
  readonly embeddings?: EmbeddingSettings;
}

const unit = z.number().min(0).max(1);

export const SEMANTIC_SETTINGS_CODEC = codec<SemanticSettings>(
  z.object({
    minSimilarity: unit.default(0.3),
    minMargin: unit.default(0.05),
    minCoverage: unit.default(0.5),
    cacheEntriesPerPlayer: z.number().int().min(0).max(10_000).default(64),
    fallbackCandidates: z.number().int().min(1).max(10).default(4),
    embeddings: z
      .object({
        baseUrl: z.string().url(),
        model: z.string().min(1),
        apiKeyEnv: z.string().min(1).optional(),
        timeoutMillis: z.number().int().min(100).max(60_000).default(3_000),
      })
      .optional(),
  }) as z.ZodType<SemanticSettings>,
);

/**
 * The built-in thresholds, fitted with `npx system route fit test/fixtures/routing-dev.tsv` (docs/routing.md
 * quotes them and the figures).
 */
export const DEFAULT_SEMANTIC_SETTINGS: SemanticSettings = Object.freeze({
  minSimilarity: 0.3,
  minMargin: 0.05,
  minCoverage: 0.5,
  cacheEntriesPerPlayer: 64,
  fallbackCandidates: 4,
});

export class SemanticConfig extends ConfigInstance<SemanticSettings> {
  constructor(path: string | undefined, logger: Logger) {
    super({
      path,
      codec: SEMANTIC_SETTINGS_CODEC,
      defaults: DEFAULT_SEMANTIC_SETTINGS,
      logger,
      name: "semantic.json",
    });
  }
}
