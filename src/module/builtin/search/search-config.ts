import { z } from "zod";
import { codec } from "../../../util/codec.js";

const keyed = (url: string, env: string) =>
  z
    .object({
      url: z.string().url().default(url),
      /** The key itself; prefer `api_key_env` so keys stay out of data packs. */
      api_key: z.string().min(1).optional(),
      api_key_env: z.string().min(1).default(env),
    })
    .default({ url, api_key_env: env });

/** The `server` block of a `system:search` data-pack entry. */
export const SEARCH_CONFIG = codec(
  z.object({
    provider: z.enum(["searxng", "brave", "tavily"]).default("searxng"),
    searxng: z
      .object({ url: z.string().url().default("http://127.0.0.1:8888/") })
      .default({ url: "http://127.0.0.1:8888/" }),
    brave: keyed("https://api.search.brave.com/res/v1/web/search", "BRAVE_API_KEY"),
    tavily: keyed("https://api.tavily.com/search", "TAVILY_API_KEY"),
    max_results: z.number().int().min(1).max(10).default(5),
    /** Searches per player per day; 0 = unlimited. */
    daily_searches: z.number().int().min(0).default(50),
    timeout_millis: z.number().int().min(500).max(60_000).default(8_000),
    fetch: z
      .object({
        max_bytes: z
          .number()
          .int()
          .min(1_024)
          .max(8 * 1024 * 1024)
          .default(512 * 1024),
        timeout_millis: z.number().int().min(500).max(60_000).default(10_000),
        max_redirects: z.number().int().min(0).max(5).default(3),
        summary_chars: z.number().int().min(200).max(20_000).default(2_000),
      })
      .default({ max_bytes: 512 * 1024, timeout_millis: 10_000, max_redirects: 3, summary_chars: 2_000 }),
    /** `host:port` pairs a fetch may reach although they are private (an internal wiki; tests). */
    allow_private: z
      .array(z.string().regex(/^[^\s:]+:\d+$/))
      .max(32)
      .default([]),
  }),
);

export type SearchConfig = z.infer<typeof SEARCH_CONFIG.schema>;

/** An API key from the config or its environment variable; undefined when neither is set. */
export const apiKeyOf = (
  settings: { readonly api_key?: string | undefined; readonly api_key_env: string },
  environment: NodeJS.ProcessEnv,
): string | undefined => settings.api_key ?? (environment[settings.api_key_env] || undefined);
