import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createHarness,
  FIND,
  recordingDegrade,
  reply,
  runLoop,
  sentUser,
} from "../../../test/react/react-harness.js";
import { ScriptedModelServer } from "../../../test/support/scripted-model-server.js";
import { testGateway } from "../../../test/support/test-model.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import { fixedStanding } from "../execution/standing.js";

let server: ScriptedModelServer;
const finalOnly = (index: number): boolean => sentUser(server, index).finalOnly;

beforeEach(async () => {
  server = await ScriptedModelServer.start();
});
afterEach(async () => {
  await server.close();
});

describe("ReActLoop time limits", () => {
  it("per-call timeout closes the HTTP request and degrades when there is no evidence", async () => {
    const harness = createHarness({ model: testGateway(server), policy: { modelTimeoutMillis: 2_000 } });
    const { received, degrade } = recordingDegrade();
    server.script({ text: reply.answer("late"), delayMillis: 30_000 });
    const context = harness.context();
    const outcome = await runLoop(context, "q", { degrade });
    expect(outcome).toMatchObject({ kind: "failed", failure: { code: "TIMEOUT" }, rounds: 1 });
    expect(received.map((entry) => entry.failure.code)).toEqual(["TIMEOUT"]);
    expect(context.remainingMillis()).toBeGreaterThan(0);
    await vi.waitFor(() => expect(server.requests[0]?.closedEarly).toBe(true));
  });

  it("a per-call timeout with evidence gets one finalization round", async () => {
    const harness = createHarness({ model: testGateway(server), policy: { modelTimeoutMillis: 1_000 } });
    server.script(
      { text: reply.find("diamond") },
      { text: reply.source("minecraft:diamond"), delayMillis: 30_000 },
      { text: reply.answer("from what was found") },
    );
    const outcome = await runLoop(harness.context(), "q");
    expect(outcome).toMatchObject({ kind: "answer", answer: { text: "from what was found" }, rounds: 3 });
    expect(finalOnly(2)).toBe(true);
    expect(server.requests[1]?.closedEarly).toBe(true);
  });

  it("the overall deadline ends the loop: no finalization call after it", async () => {
    const harness = createHarness({ model: testGateway(server), policy: { ttlMillis: 1_500 } });
    const { received, degrade } = recordingDegrade();
    server.script({ text: reply.find("diamond") }, { text: reply.answer("late"), delayMillis: 30_000 });
    const context = harness.context();
    const outcome = await runLoop(context, "q", { degrade });
    expect(outcome).toMatchObject({ kind: "degraded", failure: { code: "TIMEOUT" } });
    expect(context.remainingMillis()).toBeLessThanOrEqual(0);
    expect(server.requests).toHaveLength(2);
    expect(received[0]?.observations).toHaveLength(1);
    await vi.waitFor(() => expect(server.requests[1]?.closedEarly).toBe(true));
  });

  it("cancellation during a model call aborts the HTTP request and ends at once", async () => {
    const harness = createHarness({ model: testGateway(server) });
    const { received, degrade } = recordingDegrade();
    server.script({ text: reply.find("diamond") }, { text: reply.answer("never"), delayMillis: 30_000 });
    const context = harness.context();
    const running = runLoop(context, "q", {
      degrade,
      recoverable: new Set([AgentFailure.CANCELLED, AgentFailure.TIMEOUT]),
    });
    await server.waitForRequests(2);
    context.cancel();
    const outcome = await running;
    expect(outcome).toMatchObject({ kind: "failed", failure: { code: "CANCELLED" }, rounds: 2 });
    expect(received).toEqual([]);
    expect(server.requests).toHaveLength(2);
    await vi.waitFor(() => expect(server.requests[1]?.closedEarly).toBe(true));
  });
});

describe("ReActLoop budgets", () => {
  it("stops at the player's daily quota without another request", async () => {
    const harness = createHarness({ model: testGateway(server, { dailyCalls: 1 }) });
    const { received, degrade } = recordingDegrade();
    server.script({ text: reply.find("diamond") }, { text: reply.answer("never") });
    const outcome = await runLoop(harness.context(), "q", { degrade });
    expect(outcome).toMatchObject({ kind: "degraded", failure: { code: "QUOTA_EXCEEDED" }, rounds: 2 });
    expect(server.requests).toHaveLength(1);
    expect(received[0]?.observations.map((entry) => entry.type)).toEqual([FIND]);
  });

  it("stops when the token budget runs out mid-loop, even with evidence and the failure recoverable", async () => {
    const harness = createHarness({ model: testGateway(server), policy: { totalTokens: 3_000 } });
    const { received, degrade } = recordingDegrade();
    server.script(
      { text: reply.find("diamond"), usage: { promptTokens: 2_500, completionTokens: 20 } },
      { text: reply.answer("never asked") },
    );
    const context = harness.context();
    const outcome = await runLoop(context, "q", {
      degrade,
      recoverable: new Set([AgentFailure.BUDGET_EXHAUSTED]),
    });
    expect(outcome).toMatchObject({
      kind: "degraded",
      failure: { code: "BUDGET_EXHAUSTED", args: ["totalTokens"] },
    });
    expect(server.requests).toHaveLength(1);
    expect(context.counters.totalTokens).toBe(2_520);
    expect(context.counters.modelCalls).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]?.observations).toHaveLength(1);
  });
});

describe("ReActLoop failures", () => {
  it("a recoverable failure with evidence gets exactly one finalization call", async () => {
    const harness = createHarness({
      model: testGateway(server),
      policy: { reactIterations: 6, modelCalls: 6 },
    });
    const { received, degrade } = recordingDegrade();
    server.script(
      { text: reply.find("diamond") },
      { status: 503 },
      { text: "still not an answer" },
      { text: reply.answer("never asked") },
    );
    const outcome = await runLoop(harness.context(), "q", { degrade });
    expect(outcome).toMatchObject({ kind: "degraded", failure: { code: "MODEL_UNAVAILABLE" }, rounds: 3 });
    expect(server.requests).toHaveLength(3);
    expect(finalOnly(2)).toBe(true);
    expect(received.map((entry) => entry.failure.code)).toEqual(["MODEL_UNAVAILABLE"]);
  });

  it("a recoverable failure without evidence degrades at once", async () => {
    const harness = createHarness({ model: testGateway(server) });
    const { received, degrade } = recordingDegrade();
    server.script({ status: 503 }, { text: reply.answer("never asked") });
    const outcome = await runLoop(harness.context(), "q", { degrade });
    expect(outcome).toMatchObject({ kind: "failed", failure: { code: "MODEL_UNAVAILABLE" }, rounds: 1 });
    expect(server.requests).toHaveLength(1);
    expect(received).toHaveLength(1);
    expect(received[0]?.observations).toEqual([]);
  });

  it("a permission failure ends the loop at once, even when listed as recoverable and with evidence", async () => {
    let finds = 0;
    const harness = createHarness({
      model: testGateway(server),
      onFind: () => {
        finds++;
        if (finds === 2) throw new AgentException(AgentFailure.PERMISSION_DENIED);
      },
    });
    const { received, degrade } = recordingDegrade();
    server.script(
      { text: reply.find("diamond") },
      { text: reply.find("emerald") },
      { text: reply.answer("no") },
    );
    const outcome = await runLoop(harness.context(), "q", {
      degrade,
      recoverable: new Set([AgentFailure.PERMISSION_DENIED, AgentFailure.MODULE_FAILED]),
    });
    expect(outcome).toMatchObject({ kind: "failed", failure: { code: "PERMISSION_DENIED" }, rounds: 2 });
    expect(outcome.observations).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(received).toEqual([]);
  });

  it("a revoked player (standing lost after a tool) ends the loop before the next model call", async () => {
    let revoked = false;
    const harness = createHarness({ model: testGateway(server), onFind: () => (revoked = true) });
    server.script({ text: reply.find("diamond") }, { text: reply.answer("never") });
    const context = harness.context({
      standing: { ...fixedStanding(new Set()), lost: () => (revoked ? AgentFailure.REVOKED : undefined) },
    });
    const outcome = await runLoop(context, "q", { recoverable: new Set([AgentFailure.REVOKED]) });
    expect(outcome).toMatchObject({ kind: "failed", failure: { code: "REVOKED" } });
    expect(server.requests).toHaveLength(1);
  });

  it("the workflow guard refuses the final output: the loop ends without degrading", async () => {
    const harness = createHarness({ model: testGateway(server) });
    const { received, degrade } = recordingDegrade();
    server.script({ text: reply.answer("secret") });
    const outcome = await runLoop(harness.context(), "q", {
      degrade,
      recoverable: new Set([AgentFailure.NOT_FOUND]),
      guard: () => (server.requests.length > 0 ? AgentFailure.NOT_FOUND : undefined),
    });
    expect(outcome).toMatchObject({ kind: "failed", failure: { code: "NOT_FOUND" }, rounds: 1 });
    expect(received).toEqual([]);
  });
});
