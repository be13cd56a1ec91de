import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { BraveProvider } from "./brave-provider.js";
import { GuardedFetcher } from "./guarded-fetch.js";
import { apiKeyOf, SEARCH_CONFIG, type SearchConfig } from "./search-config.js";
import { SearchGateway } from "./search-gateway.js";
import type { SearchProvider } from "./search-provider.js";
import { SearxngProvider } from "./searxng-provider.js";
import { TavilyProvider } from "./tavily-provider.js";
import { WEB_ACCESS } from "./web-access.js";
import { webFetchTool, webSearchTool } from "./web-tools.js";

/** Builds the configured provider; a keyed provider without a key is a config error (the feature is not installed). */
export const providerOf = (
  config: SearchConfig,
  environment: NodeJS.ProcessEnv = process.env,
): SearchProvider => {
  const timeoutMillis = config.timeout_millis;
  if (config.provider === "searxng") return new SearxngProvider({ url: config.searxng.url, timeoutMillis });
  const settings = config.provider === "brave" ? config.brave : config.tavily;
  const apiKey = apiKeyOf(settings, environment);
  if (apiKey === undefined)
    throw new Error(
      `search provider ${config.provider} needs an API key (config api_key or $${settings.api_key_env})`,
    );
  return config.provider === "brave"
    ? new BraveProvider({ url: settings.url, apiKey, timeoutMillis })
    : new TavilyProvider({ url: settings.url, apiKey, timeoutMillis });
};

/**
 * SearchSystemModule: a ToolModule exporting `web.search` and `web.fetch`, owned by its feature id and
 * disabled until an admin grants it or a data pack enables it. It never opens the web by itself: the tools
 * refuse every call that has no open gate from the question workflow.
 */
export class SearchSystemModule implements ServerModule {
  readonly type = SEARCH_MODULE_TYPE_ID;
  readonly enabledByDefault = false;
  readonly toolModule = true;
  #gateway: SearchGateway | undefined;

  constructor(
    readonly id: Identifier,
    private readonly config: SearchConfig,
    private readonly provider?: SearchProvider,
  ) {}

  /** The gateway once installed (usage displays). */
  get gateway(): SearchGateway | undefined {
    return this.#gateway;
  }

  install(context: ServerModuleContext): void {
    const access = context.services.get(WEB_ACCESS);
    const fetcher = new GuardedFetcher({
      allow: this.config.allow_private,
      limits: {
        maxBytes: this.config.fetch.max_bytes,
        timeoutMillis: this.config.fetch.timeout_millis,
        maxRedirects: this.config.fetch.max_redirects,
      },
    });
    const gateway = new SearchGateway({
      provider: this.provider ?? providerOf(this.config),
      fetcher,
      dailySearches: this.config.daily_searches,
      maxResults: this.config.max_results,
    });
    const options = { owner: context.id, gateway, access, summaryChars: this.config.fetch.summary_chars };
    context.engine.registerTool(webSearchTool(options));
    context.engine.registerTool(webFetchTool(options));
    this.#gateway = gateway;
  }

  storages(): readonly AnyModuleStorage[] {
    return [];
  }
}

export const SEARCH_MODULE_TYPE_ID = Identifier.parse("system:search");

/** The `system:search` module type the built-in type registry lists. */
export const SEARCH_MODULE_TYPE: ServerModuleType<SearchConfig> = {
  id: SEARCH_MODULE_TYPE_ID,
  config: SEARCH_CONFIG,
  create: (id, config) => new SearchSystemModule(id, config),
};
