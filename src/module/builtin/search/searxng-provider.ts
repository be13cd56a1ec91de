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

/** SearXNG's JSON API (`/search?format=json`); the instance must have the json format enabled. */
export class SearxngProvider implements SearchProvider {
  readonly id = "searxng";

  constructor(private readonly options: { readonly url: string; readonly timeoutMillis: number }) {}

  async search(request: SearchRequest): Promise<SearchResult[]> {
    const url = new URL("search", this.options.url.endsWith("/") ? this.options.url : `${this.options.url}/`);
    url.searchParams.set("q", request.query);
    url.searchParams.set("format", "json");
    url.searchParams.set("language", request.locale.startsWith("zh") ? "zh-CN" : "en");
    const data = await providerJson(
      this.id,
      url.href,
      { headers: { accept: "application/json" } },
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
