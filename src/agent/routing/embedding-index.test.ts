import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { routingModules } from "../../../test/support/routing-modules.js";
import { AgentEngine } from "../execution/agent-engine.js";
import { EmbeddingIndex } from "./embedding-index.js";
import { OpenAiEmbeddings } from "./embedding-provider.js";
import { DEFAULT_SEMANTIC_SETTINGS } from "./semantic-config.js";
import { SemanticRouter } from "./semantic-router.js";

/** A real `/v1/embeddings` peer: bag-of-characters vectors in 64 dimensions, so similar texts are close. */
const startEmbeddings = async () => {
  const requests: { body: { model: string; input: string[] }; authorization: string | undefined }[] = [];
  let failing = false;
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model: string; input: string[] };
    requests.push({ body, authorization: request.headers.authorization });
    if (failing || request.url !== "/v1/embeddings") {
      response.writeHead(503).end("{}");
      return;
    }
    const data = body.input
      .map((text, index) => {
        const vector = new Array<number>(64).fill(0);
        for (const char of text.toLowerCase().replace(/[a-z0-9_.-]+:[a-z0-9_./-]+/g, "#"))
          vector[(char.codePointAt(0) ?? 0) % 64]! += 1;
        return { object: "embedding", index, embedding: vector };
      })
      .reverse();
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "list", data }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    fail: () => {
      failing = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("EmbeddingIndex", () => {
  it("replaces local similarity through an OpenAI-compatible /v1/embeddings endpoint", async () => {
    const peer = await startEmbeddings();
    close = peer.close;
    const engine = new AgentEngine();
    for (const module of Object.values(routingModules())) engine.registerModule(module);
    engine.start();
    const provider = OpenAiEmbeddings.fromSettings(
      { baseUrl: peer.baseUrl, model: "bge-m3", apiKeyEnv: "TEST_EMBEDDING_KEY", timeoutMillis: 2_000 },
      { TEST_EMBEDDING_KEY: "secret" },
    );
    const index = await EmbeddingIndex.build(engine.modules().routes.entries(), provider);
    expect(peer.requests[0]).toMatchObject({ body: { model: "bge-m3" }, authorization: "Bearer secret" });
    expect(peer.requests[0]?.body.input).toContain("查询物品 minecraft:diamond");

    const router = new SemanticRouter({
      modules: engine.modules(),
      settings: () => DEFAULT_SEMANTIC_SETTINGS,
      search: index,
    });
    const match = await router.match("查询物品 minecraft:emerald", () => true);
    expect(match.direct?.action.input).toEqual({ query: "minecraft:emerald", page: 0 });
    expect(peer.requests.at(-1)?.body.input).toEqual(["查询物品 minecraft:emerald"]);

    // When the endpoint fails, the local index still answers.
    peer.fail();
    await expect(index.search("查询物品")).rejects.toThrow(/503/);
    const local = await router.match("物品信息 minecraft:emerald", () => true);
    expect(local.direct?.module.id.toString()).toBe("system:item_query");
  });
});
