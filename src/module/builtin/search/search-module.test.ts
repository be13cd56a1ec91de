import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { BUILTIN_PACK_ROOT } from "../../../data/prompts/prompt-store.js";
import { decodeOrThrow } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import { MemoryLogger } from "../../../util/logger.js";
import { readSystemModuleEntries } from "../../system-module-entries.js";
import { KNOWLEDGE_MODULE_TYPE } from "../knowledge/knowledge-module.js";
import { QUESTION_MODULE_TYPE } from "../question/question-system-module.js";
import { REASONING_MODULE_TYPE } from "../reasoning/reasoning-system-module.js";
import { GuardedFetcher } from "./guarded-fetch.js";
import { SEARCH_CONFIG } from "./search-config.js";
import { SearchGateway } from "./search-gateway.js";
import { SearchMeter } from "./search-meter.js";
import { providerOf, SEARCH_MODULE_TYPE } from "./search-module.js";
import type { SearchProvider } from "./search-provider.js";
import { WebAccess } from "./web-access.js";
import { webSearchTool } from "./web-tools.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A one-route JSON server; returns its base URL and the requests it saw. */
const serve = async (body: unknown): Promise<{ url: string; seen: IncomingMessage[] }> => {
  const seen: IncomingMessage[] = [];
  server = createServer((request, response) => {
    seen.push(request);
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, seen };
};

const signal = new AbortController().signal;

describe("search providers", () => {
  it("reads Brave and Tavily replies with keys from the environment", async () => {
    const brave = await serve({
      web: { results: [{ title: "B", url: "https://b.example/", description: "bd" }] },
    });
    const config = decodeOrThrow(SEARCH_CONFIG, { provider: "brave", brave: { url: brave.url } });
    expect(() => providerOf(config, {})).toThrow(/needs an API key/);
    const braveProvider = providerOf(config, { BRAVE_API_KEY: "k1" });
    expect(await braveProvider.search({ query: "q", limit: 5, locale: "en_us", signal })).toEqual([
      { title: "B", url: "https://b.example/", snippet: "bd" },
    ]);
    expect(brave.seen[0]?.headers["x-subscription-token"]).toBe("k1");
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    const tavily = await serve({
      results: [
        { title: "T", url: "https://t.example/", content: "tc" },
        { title: "bad", url: "ftp://x" },
      ],
    });
    const tavilyProvider = providerOf(
      decodeOrThrow(SEARCH_CONFIG, { provider: "tavily", tavily: { url: tavily.url, api_key: "k2" } }),
      {},
    );
    expect(await tavilyProvider.search({ query: "q", limit: 5, locale: "en_us", signal })).toEqual([
      { title: "T", url: "https://t.example/", snippet: "tc" },
    ]);
    expect(tavily.seen[0]?.headers.authorization).toBe("Bearer k2");
  });

  it("turns a malformed provider reply into MODULE_FAILED, never an empty list", async () => {
    const bad = await serve({ unexpected: true });
    const provider = providerOf(
      decodeOrThrow(SEARCH_CONFIG, { provider: "searxng", searxng: { url: bad.url } }),
    );
    await expect(provider.search({ query: "q", limit: 5, locale: "zh_cn", signal })).rejects.toThrow(
      /MODULE_FAILED/,
    );
  });
});

describe("SearchGateway", () => {
  it("meters searches per player per day and refuses above the daily limit", async () => {
    const provider: SearchProvider = { id: "fake", search: async () => [] };
    let now = new Date(2026, 0, 1, 12).getTime();
    const gateway = new SearchGateway({
      provider,
      fetcher: new GuardedFetcher(),
      dailySearches: 2,
      maxResults: 5,
      meter: new SearchMeter(() => now),
    });
    await gateway.search("p", "a", "en_us", signal);
    await gateway.search("p", "b", "en_us", signal);
    await expect(gateway.search("p", "c", "en_us", signal)).rejects.toThrow(/QUOTA_EXCEEDED/);
    await gateway.search("other", "a", "en_us", signal);
    now += 24 * 3_600_000;
    await gateway.search("p", "d", "en_us", signal);
    expect(gateway.usage("p").searches).toBe(1);
  });
});

describe("web tools", () => {
  it("refuse every call without an open gate of that very request", async () => {
    const provider: SearchProvider = {
      id: "fake",
      search: async () => [{ title: "t", url: "https://e.example/", snippet: "" }],
    };
    const access = new WebAccess();
    const gateway = new SearchGateway({
      provider,
      fetcher: new GuardedFetcher(),
      dailySearches: 0,
      maxResults: 5,
    });
    const tool = webSearchTool({
      owner: Identifier.parse("system:search"),
      gateway,
      access,
      summaryChars: 100,
    });
    const scope = { playerId: "p", locale: "en_us", stepId: "s", signal, event: false, requestId: "r1" };
    const denied = (error: unknown): boolean =>
      AgentException.failure(error).code === AgentFailure.PERMISSION_DENIED.code;
    await expect(tool.handler({ query: "x" }, scope).catch((error: unknown) => denied(error))).resolves.toBe(
      true,
    );
    const gate = access.open("r2", "p", { allowWeb: true, featureEnabled: () => true, external: () => true });
    await expect(tool.handler({ query: "x" }, scope).catch(denied)).resolves.toBe(true);
    await expect(
      tool.handler({ query: "x" }, { ...scope, requestId: "r2", playerId: "q" }).catch(denied),
    ).resolves.toBe(true);
    expect((await tool.handler({ query: "x" }, { ...scope, requestId: "r2" })).results).toHaveLength(1);
    access.close(gate);
    await expect(tool.handler({ query: "x" }, { ...scope, requestId: "r2" }).catch(denied)).resolves.toBe(
      true,
    );
    const noWeb = access.open("r3", "p", {
      allowWeb: false,
      featureEnabled: () => true,
      external: () => true,
    });
    await expect(tool.handler({ query: "x" }, { ...scope, requestId: "r3" }).catch(denied)).resolves.toBe(
      true,
    );
    access.close(noWeb);
  });
});

describe("data-pack entries", () => {
  it("ship knowledge, question, reasoning and a search entry disabled by default, each with a valid config", () => {
    const entries = readSystemModuleEntries([BUILTIN_PACK_ROOT], new MemoryLogger());
    const types = [KNOWLEDGE_MODULE_TYPE, QUESTION_MODULE_TYPE, REASONING_MODULE_TYPE, SEARCH_MODULE_TYPE];
    for (const type of types) {
      const entry = entries.find((candidate) => candidate.type.equals(type.id));
      expect(entry, type.id.toString()).toBeDefined();
      expect(
        (type.config as { decode(data: unknown): { success: boolean } }).decode(entry?.server).success,
      ).toBe(true);
    }
    expect(entries.find((entry) => entry.type.equals(SEARCH_MODULE_TYPE.id))?.enabledByDefault).toBe(false);
    const module = SEARCH_MODULE_TYPE.create(
      Identifier.parse("system:search"),
      decodeOrThrow(SEARCH_CONFIG, {}),
    );
    expect({ enabledByDefault: module.enabledByDefault, toolModule: module.toolModule }).toEqual({
      enabledByDefault: false,
      toolModule: true,
    });
  });
});
