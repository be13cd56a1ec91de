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

const REPLY = z.object({
  web: z.object({ results: z.array(resultItem("description")).max(200) }).optional(),
});

/** Brave Search API (`X-Subscription-Token`). */
export class BraveProvider implements SearchProvider {
  readonly id = "brave";

  constructor(
    private readonly options: {
      readonly url: string;
      readonly apiKey: string;
      readonly timeoutMillis: number;
    },
  ) {}

  async search(request: SearchRequest): Promise<SearchResult[]> {
    const url = new URL(this.options.url);
    url.searchParams.set("q", request.query);
    url.searchParams.set("count", String(request.limit));
    const headers = { accept: "application/json", "x-subscription-token": this.options.apiKey };
    const data = await providerJson(
      this.id,
      url.href,
      { headers },
      this.options.timeoutMillis,
      request.signal,
    );
    const reply = decodeReply(this.id, REPLY, data);
    const items = reply.web?.results ?? [];
    return usable(
      items.map((item) => ({ title: item.title, url: item.url, snippet: item.description ?? "" })),
      request.limit,
    );
  }
}
