import { z } from "zod";
import {
  decodeReply,
  providerJson,
  resultItem,
  type SearchProvider,
  type SearchRequest,
  type SearchResult,
  usable,
} from "./search-provider.js";

const REPLY = z.object({ results: z.array(resultItem("content")).max(200) });

/** Tavily search API (`POST /search`, bearer key). */
export class TavilyProvider implements SearchProvider {
  readonly id = "tavily";

  constructor(
    private readonly options: {
      readonly url: string;
      readonly apiKey: string;
      readonly timeoutMillis: number;
    },
  ) {}

  async search(request: SearchRequest): Promise<SearchResult[]> {
    const headers = { "content-type": "application/json", authorization: `Bearer ${this.options.apiKey}` };
    const body = JSON.stringify({ query: request.query, max_results: request.limit });
    const data = await providerJson(
      this.id,
      this.options.url,
      { method: "POST", headers, body },
      this.options.timeoutMillis,
      request.signal,
    );
    const reply = decodeReply(this.id, REPLY, data);
    return usable(
      reply.results.map((item) => ({ title: item.title, url: item.url, snippet: item.content ?? "" })),
      request.limit,
    );
  }
}
