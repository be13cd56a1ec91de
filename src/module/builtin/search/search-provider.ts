import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";

/** One web search result as every provider returns it. */
export interface SearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

export interface SearchRequest {
  readonly query: string;
  readonly limit: number;
  readonly locale: string;
  readonly signal: AbortSignal;
}

/** A web search backend (SearXNG, Brave, Tavily, or a test double speaking one of their protocols). */
export interface SearchProvider {
  readonly id: string;
  search(request: SearchRequest): Promise<SearchResult[]>;
}

/** A provider's HTTP call with a timeout; failures become MODULE_FAILED/TIMEOUT/CANCELLED, never an empty list. */
export const providerJson = async (
  provider: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  timeoutMillis: number,
  signal: AbortSignal,
): Promise<unknown> => {
  const timeout = AbortSignal.timeout(timeoutMillis);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.any([signal, timeout]), redirect: "error" });
  } catch (error) {
    if (signal.aborted) throw new AgentException(AgentFailure.CANCELLED, { cause: error });
    if (timeout.aborted) throw new AgentException(AgentFailure.TIMEOUT, { cause: error });
    throw new AgentException(AgentFailure.MODULE_FAILED.with(`web.search ${provider}`), { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new AgentException(
      AgentFailure.MODULE_FAILED.with(`web.search ${provider} HTTP ${response.status}`),
    );
  }
  try {
    return (await response.json()) as unknown;
  } catch (error) {
    throw new AgentException(AgentFailure.MODULE_FAILED.with(`web.search ${provider} reply`), {
      cause: error,
    });
  }
};

/** Decodes a provider reply; a reply of the wrong shape is a provider failure. */
export const decodeReply = <T>(provider: string, schema: z.ZodType<T>, data: unknown): T => {
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new AgentException(AgentFailure.MODULE_FAILED.with(`web.search ${provider} reply`));
  return parsed.data;
};

const text = z.string().max(10_000).catch("");

/** A list item of any provider: title, url and a text field whose name differs by provider. */
export const resultItem = <K extends string>(snippetField: K) =>
  z.object({ title: text, url: z.string().max(2_048), [snippetField]: text.optional() } as {
    title: typeof text;
    url: z.ZodString;
  } & Record<K, z.ZodOptional<typeof text>>);

/** Keeps http(s) results with a URL, at most `limit`. */
export const usable = (results: readonly SearchResult[], limit: number): SearchResult[] =>
  results.filter((result) => /^https?:\/\//i.test(result.url)).slice(0, limit);
