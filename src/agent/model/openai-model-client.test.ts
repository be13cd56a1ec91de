import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ScriptedModelServer } from "../../../test/support/scripted-model-server.js";
import { TEST_MODEL, testClient } from "../../../test/support/test-model.js";
import { AgentException } from "../agent-exception.js";
import type { Failure } from "../failure.js";
import type { ModelRequest } from "./model-client.js";
import { OpenAiModelClient } from "./openai-model-client.js";

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  system: "You are a test.",
  user: { question: "钻石怎么获得?", observations: [] },
  maxOutputTokens: 256,
  timeoutMillis: 5_000,
  signal: new AbortController().signal,
  ...overrides,
});

const failureOf = async (promise: Promise<unknown>): Promise<Failure> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentException);
    return AgentException.failure(error);
  }
  throw new Error("expected a failure");
};

describe("OpenAiModelClient", () => {
  let server: ScriptedModelServer;
  beforeEach(async () => {
    server = await ScriptedModelServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it("sends one system text and one user JSON, with max_tokens, headers and no tools", async () => {
    server.script({
      text: '{"type":"answer","text":"ok"}',
      usage: { promptTokens: 11, completionTokens: 7 },
    });
    const response = await testClient(server).complete(request());
    expect(response).toEqual({
      text: '{"type":"answer","text":"ok"}',
      usage: { inputTokens: 11, outputTokens: 7 },
    });
    const [seen] = server.requests;
    expect(seen?.system).toBe("You are a test.");
    expect(seen?.user).toEqual({ question: "钻石怎么获得?", observations: [] });
    expect(seen?.body.model).toBe(TEST_MODEL);
    expect(seen?.body.max_tokens).toBe(256);
    expect(seen?.body.messages).toHaveLength(2);
    expect(seen?.body).not.toHaveProperty("tools");
    expect(seen?.body).not.toHaveProperty("tool_choice");
    expect(seen?.body.stream).toBe(false);
    expect(seen?.headers.authorization).toBe("Bearer test-key");
    expect(seen?.headers["x-system-test"]).toBe("1");
  });

  it("drops reasoning_content and <think> blocks from the reply", async () => {
    server.script({
      text: '<think>the player wants diamonds; secret plan</think>\n{"type":"answer","text":"Mine at y=-58"}',
      reasoning: "private chain of thought",
      usage: { promptTokens: 1, completionTokens: 1 },
    });
    const response = await testClient(server).complete(request());
    expect(response.text).toBe('{"type":"answer","text":"Mine at y=-58"}');
    expect(JSON.stringify(response)).not.toContain("secret plan");
    expect(JSON.stringify(response)).not.toContain("private chain");
  });

  it("never retries: an HTTP 500 is one request and MODEL_UNAVAILABLE", async () => {
    server.script({ status: 500 }, { text: "would succeed on retry" });
    const failure = await failureOf(testClient(server).complete(request()));
    expect(failure.code).toBe("MODEL_UNAVAILABLE");
    expect(server.requests).toHaveLength(1);
    expect(server.pending).toBe(1);
  });

  it("a 429 is not retried either", async () => {
    server.script({ status: 429 }, { text: "would succeed on retry" });
    expect((await failureOf(testClient(server).complete(request()))).code).toBe("MODEL_UNAVAILABLE");
    expect(server.requests).toHaveLength(1);
  });

  it("a reply slower than the per-call timeout is TIMEOUT", async () => {
    server.script({ text: "late", delayMillis: 3_000 });
    const failure = await failureOf(testClient(server).complete(request({ timeoutMillis: 200 })));
    expect(failure.code).toBe("TIMEOUT");
    expect(server.requests).toHaveLength(1);
  });

  it("cancellation mid-call aborts the HTTP request", async () => {
    server.script({ text: "too late", delayMillis: 10_000 });
    const controller = new AbortController();
    const pending = testClient(server).complete(request({ signal: controller.signal }));
    await server.waitForRequests(1);
    controller.abort();
    expect((await failureOf(pending)).code).toBe("CANCELLED");
    await vi.waitFor(() => expect(server.requests[0]?.closedEarly).toBe(true));
  });

  it("an empty, missing or reasoning-only content is MODEL_INVALID_OUTPUT", async () => {
    server.script(
      { text: "" },
      {},
      { text: "<think>only thinking</think>  " },
      { text: "<think>cut off by max_to" },
    );
    for (let index = 0; index < 4; index++)
      expect((await failureOf(testClient(server).complete(request()))).code).toBe("MODEL_INVALID_OUTPUT");
  });

  it("a malformed body is never a success", async () => {
    server.script({ body: "this is not json" }, { body: JSON.stringify({ choices: [] }) });
    expect((await failureOf(testClient(server).complete(request()))).code).toBe("MODEL_INVALID_OUTPUT");
    expect((await failureOf(testClient(server).complete(request()))).code).toBe("MODEL_INVALID_OUTPUT");
  });

  it("estimates usage from bytes when the server sends none", async () => {
    server.script({ text: "12345678" });
    const response = await testClient(server).complete(request({ system: "abcd" }));
    const userBytes = Buffer.byteLength(JSON.stringify(request().user), "utf8");
    expect(response.usage).toEqual({ inputTokens: Math.ceil((4 + userBytes) / 4), outputTokens: 2 });
  });

  it("an unreachable server is MODEL_UNAVAILABLE, with the system error for the admin's log", async () => {
    const url = server.baseUrl;
    await server.close();
    const client = new OpenAiModelClient({ baseUrl: url, apiKey: "", model: "m" });
    const failure = await failureOf(client.complete(request()));
    expect(failure.code).toBe("MODEL_UNAVAILABLE");
    expect(failure.args).toEqual(["connection", expect.stringMatching(/ECONNREFUSED 127\.0\.0\.1:\d+$/)]);
    server = await ScriptedModelServer.start();
  });
});
