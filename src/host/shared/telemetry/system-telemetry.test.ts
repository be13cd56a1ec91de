import { describe, expect, it } from "vitest";
import { AgentResult } from "../../../agent/agent-result.js";
import { SystemMetrics } from "./system-metrics.js";
import { SystemTelemetry } from "./system-telemetry.js";

describe("SystemTelemetry with metrics alone", () => {
  it("labels a request by what is recorded against its id, from wherever it is recorded", async () => {
    const metrics = new SystemMetrics({ defaultMetrics: false });
    const telemetry = new SystemTelemetry(metrics, undefined);
    let release: () => void = () => {};
    const waiting = new Promise<void>((resolve) => {
      release = resolve;
    });
    const running = telemetry.request("chat", { playerId: "p1", requestId: "r1" }, async () => {
      await waiting;
      return AgentResult.success(undefined);
    });
    // recorded outside the request's own async chain (no async context is followed without traces)
    telemetry.routed("command", 0.001, "r1");
    telemetry.workflow("system:item_query", "r1");
    telemetry.workflow("system:other", "r1");
    // another request's records are not this one's
    telemetry.routed("model", 0.001, "r2");
    release();
    await running;
    const counted = (await metrics.requests.get()).values;
    expect(counted).toEqual([
      {
        labels: { entry: "chat", route: "command", workflow: "system:item_query", outcome: "ok" },
        value: 1,
      },
    ]);
  });

  it("counts a quota refusal once when the model call that met it named its request", async () => {
    const metrics = new SystemMetrics({ defaultMetrics: false });
    const telemetry = new SystemTelemetry(metrics, undefined);
    const refusal = AgentResult.error({ code: "QUOTA_EXCEEDED", key: "system.error.quota", args: [] });
    await telemetry.request("chat", { playerId: "p1", requestId: "r1" }, async () => {
      telemetry.modelCall({
        requestId: "r1",
        model: "m",
        workflow: "system:router",
        outcome: "QUOTA_EXCEEDED",
        seconds: 0,
        inputTokens: 0,
        outputTokens: 0,
      });
      return refusal;
    });
    expect((await metrics.quotaRefusals.get()).values[0]?.value).toBe(1);
  });
});
