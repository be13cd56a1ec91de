import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import type { FetchedPage, GuardedFetcher } from "./guarded-fetch.js";
import { SearchMeter, type WebUsage } from "./search-meter.js";
import type { SearchProvider, SearchResult } from "./search-provider.js";

export interface SearchGatewayOptions {
  readonly provider: SearchProvider;
  readonly fetcher: GuardedFetcher;
  /** Searches per player per day; 0 = unlimited. */
  readonly dailySearches: number;
  readonly maxResults: number;
  readonly meter?: SearchMeter;
}

/**
 * The only way to the web: one configured provider for searches, the SSRF-guarded fetcher for pages, and a
 * per-player daily meter. Never retries (a provider call may cost money).
 */
export class SearchGateway {
  readonly #meter: SearchMeter;

  constructor(private readonly options: SearchGatewayOptions) {
    this.#meter = options.meter ?? new SearchMeter();
  }

  get providerId(): string {
    return this.options.provider.id;
  }

  usage(playerId: string): WebUsage {
    return this.#meter.today(playerId);
  }

  async search(
    playerId: string,
    query: string,
    locale: string,
    signal: AbortSignal,
  ): Promise<SearchResult[]> {
    const limit = this.options.dailySearches;
    if (limit > 0 && this.#meter.today(playerId).searches >= limit)
      throw new AgentException(AgentFailure.QUOTA_EXCEEDED.with("web.search"));
    this.#meter.add(playerId, "searches");
    return this.options.provider.search({ query, limit: this.options.maxResults, locale, signal });
  }

  /** Fetches a page through the guard; refusals throw FetchRefused. */
  fetch(playerId: string, url: string, signal: AbortSignal): Promise<FetchedPage> {
    this.#meter.add(playerId, "fetches");
    return this.options.fetcher.fetch(url, signal);
  }
}
