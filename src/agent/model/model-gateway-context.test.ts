import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ScriptedModelServer } from "../../../test/support/scripted-model-server.js";
import { testGateway } from "../../../test/support/test-model.js";
import { AgentException } from "../agent-exception.js";
import { ExecutionContext } from "../execution/execution-context.js";
import type { ExecutionPolicy } from "../execution/execution-policy.js";
import { DEFAULT_POLICIES } from "../execution/policy-defaults.js";
import type { Failure } from "../failure.js";
import type { ModelPort } from "./model-client.js";

const POLICY = DEFAULT_POLICIES["system:reasoning"] as ExecutionPolicy;

const context = (model: ModelPort, policy: Partial<ExecutionPolicy> = {}): ExecutionContext =>
  new ExecutionContext({
    requestId: "r1",
    playerId: "alice",
    locale: "en_us",
    workflow: "system:reasoning",
    owner: undefined,
    features: new Set(),
    policy: { ...POLICY, ...policy },
    tools: { required: new Map(), optional: new Set(), lookup: () => undefined },
    model,
  });

const failureOf = async (promise: Promise<unknown>): Promise<Failure> => {
  try {
    await promise;
  } catch (error) {
    return AgentException.failure(error);
  }
  throw new Error("expected a failure");
};

const answer = (promptTokens: number, completionTokens: number) => ({
  text: '{"type":"answer","text":"ok"}',
  usage: { promptTokens, completionTokens },
});

describe("ExecutionContext.model through the ModelGateway", () => {
  let server: ScriptedModelServer;
  beforeEach(async () => {
    server = await ScriptedModelServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it("charges the reply's token usage to the request's counters", async () => {
    server.script(answer(120, 30), answer(80, 20));
    const execution = context(testGateway(server));
    await execution.model({ system: "s", user: { q: 1 } });
    await execution.model({ system: "s", user: { q: 2 }, maxOutputTokens: 100 });
    expect(execution.counters.snapshot()).toMatchObject({
      modelCalls: 2,
      inputTokens: 200,
      outputTokens: 50,
    });
    expect(server.requests[1]?.body.max_tokens).toBe(100);
  });

  it("the policy's modelTimeoutMillis bounds each call", async () => {
    server.script({ ...answer(1, 1), delayMillis: 3_000 });
    const execution = context(testGateway(server), { modelTimeoutMillis: 200 });
    expect((await failureOf(execution.model({ system: "s", user: {} }))).code).toBe("TIMEOUT");
  });

  it("cancelling the request mid-call closes the HTTP connection", async () => {
    server.script({ ...answer(1, 1), delayMillis: 10_000 });
    const execution = context(testGateway(server));
    const pending = execution.model({ system: "s", user: {} });
    await server.waitForRequests(1);
    execution.cancel();
    expect((await failureOf(pending)).code).toBe("CANCELLED");
    await vi.waitFor(() => expect(server.requests[0]?.closedEarly).toBe(true));
  });

  it("child contexts and new loops share the player's daily quota, never adding to it", async () => {
    server.script(answer(1, 1), answer(1, 1), answer(1, 1));
    const gateway = testGateway(server, { dailyCalls: 2 });
    const parent = context(gateway);
    await parent.model({ system: "s", user: {} });
    parent.tools();
    const child = parent.child({ workflow: "system:question", stepPrefix: "search" });
    await child.model({ system: "s", user: {} });
    expect((await failureOf(child.model({ system: "s", user: {} }))).code).toBe("QUOTA_EXCEEDED");
    expect((await failureOf(context(gateway).model({ system: "s", user: {} }))).code).toBe("QUOTA_EXCEEDED");
    expect(server.requests).toHaveLength(2);
  });
});
