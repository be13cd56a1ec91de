import { z } from "zod";
import { Tool } from "../../../agent/tool/tool.js";
import { ToolType } from "../../../agent/tool/tool-type.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { FetchRefused } from "./guarded-fetch.js";
import { htmlToText, trimSummary } from "./html-text.js";
import type { SearchGateway } from "./search-gateway.js";
import type { WebAccess } from "./web-access.js";

/** Characters of a search snippet shown to the model. */
const SNIPPET_CHARS = 300;

export interface WebSearchInput {
  readonly query: string;
}
export interface WebSearchOutput {
  readonly query: string;
  readonly results: readonly {
    readonly n: number;
    readonly title: string;
    readonly url: string;
    readonly snippet: string;
  }[];
}
export interface WebFetchInput {
  readonly url: string;
}
/** A fetched page (`text` trimmed) or a refusal the model reads as an observation. */
export interface WebFetchOutput {
  readonly url: string;
  readonly n?: number;
  readonly title?: string;
  readonly text?: string;
  readonly refused?: string;
}

export const WEB_SEARCH = ToolType.of<WebSearchInput, WebSearchOutput>(
  "system:web.search",
  codec(z.object({ query: z.string().trim().min(1).max(200).describe("A few precise search keywords.") })),
  codec(
    z.object({
      query: z.string(),
      results: z.array(
        z.object({ n: z.number().int(), title: z.string(), url: z.string(), snippet: z.string() }),
      ),
    }),
  ),
);

export const WEB_FETCH = ToolType.of<WebFetchInput, WebFetchOutput>(
  "system:web.fetch",
  codec(
    z.object({ url: z.string().min(1).max(2_048).describe("A URL returned by web.search in this request.") }),
  ),
  codec(
    z.object({
      url: z.string(),
      n: z.number().int().optional(),
      title: z.string().optional(),
      text: z.string().optional(),
      refused: z.string().optional(),
    }) as z.ZodType<WebFetchOutput>,
  ),
);

export interface WebToolOptions {
  readonly owner: Identifier;
  readonly gateway: SearchGateway;
  readonly access: WebAccess;
  /** Characters of page text kept per fetch. */
  readonly summaryChars: number;
}

/** `web.search`: checks the request's web gate, searches through the gateway, numbers the results in the session. */
export const webSearchTool = (options: WebToolOptions): Tool<WebSearchInput, WebSearchOutput> =>
  Tool.of(WEB_SEARCH, async (input, scope) => {
    const gate = await options.access.require(scope.requestId, scope.playerId);
    const results = await options.gateway.search(scope.playerId, input.query, scope.locale, scope.signal);
    await gate.check(scope.playerId);
    const numbered = gate.session.add(results);
    return {
      query: input.query,
      results: numbered.map((source) => ({
        n: source.number,
        title: trimSummary(source.title, 200),
        url: source.url,
        snippet: trimSummary(source.snippet, SNIPPET_CHARS),
      })),
    };
  })
    .asReadOnly()
    .ownedBy(options.owner);

/**
 * `web.fetch`: checks the web gate, accepts only URLs this request's searches returned, then fetches through
 * the SSRF guard. Refusals come back as `{refused}` observations so the research can go on with what it has.
 */
export const webFetchTool = (options: WebToolOptions): Tool<WebFetchInput, WebFetchOutput> =>
  Tool.of(WEB_FETCH, async (input, scope) => {
    const gate = await options.access.require(scope.requestId, scope.playerId);
    const source = gate.session.find(input.url);
    if (source === undefined)
      return { url: input.url, refused: "not a URL returned by this request's searches" };
    let page: Awaited<ReturnType<SearchGateway["fetch"]>>;
    try {
      page = await options.gateway.fetch(scope.playerId, source.url, scope.signal);
    } catch (error) {
      if (error instanceof FetchRefused) return { url: input.url, n: source.number, refused: error.reason };
      throw error;
    }
    await gate.check(scope.playerId);
    const html = /html|xml/i.test(page.contentType) || /^\s*</.test(page.body);
    const { title, text } = html ? htmlToText(page.body) : { title: "", text: page.body };
    gate.session.markFetched(source.number);
    return {
      url: source.url,
      n: source.number,
      title: trimSummary(title || source.title, 200),
      text: trimSummary(text, options.summaryChars),
    };
  })
    .asReadOnly()
    .ownedBy(options.owner);
