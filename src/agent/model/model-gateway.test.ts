import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../../../test/support/scripted-model-server.js";
import { testGateway } from "../../../test/support/test-model.js";
import { FileUsageStore } from "../../data/store/file-usage-store.js";
import { silentLogger } from "../../util/logger.js";
import { AgentException } from "../agent-exception.js";
import type { Failure } from "../failure.js";
import { MemoryUsageStore } from "../storage/usage-store.js";
import type { ModelCallMeta, ModelRequest } from "./model-client.js";
import { ModelGateway } from "./model-gateway.js";

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  system: "sys",
  user: { q: "x" },
  maxOutputTokens: 64,
  timeoutMillis: 10_000,
  signal: new AbortController().signal,
  ...overrides,
});
const meta = (overrides: Partial<ModelCallMeta> = {}): ModelCallMeta => ({
  playerId: "alice",
  workflow: "system:reasoning",
  deadline: Date.now() + 30_000,
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
const ok = (promptTokens = 10, completionTokens = 5) => ({
  text: '{"type":"answer","text":"ok"}',
  usage: { promptTokens, completionTokens },
});

describe("ModelGateway", () => {
  let server: ScriptedModelServer;
  let folder: string;
  beforeEach(async () => {
    server = await ScriptedModelServer.start();
    folder = await mkdtemp(join(tmpdir(), "system-gateway-"));
  });
  afterEach(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("without a configured client every call is MODEL_UNAVAILABLE", async () => {
    const gateway = new ModelGateway({ client: undefined });
    expect(gateway.available).toBe(false);
    expect((await failureOf(gateway.call(request(), meta()))).code).toBe("MODEL_UNAVAILABLE");
  });

  it("never retries a failed call", async () => {
    server.script({ status: 503 }, ok());
    expect((await failureOf(testGateway(server).call(request(), meta()))).code).toBe("MODEL_UNAVAILABLE");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses calls beyond the daily call quota without reaching the model", async () => {
    server.script(ok(), ok(), ok());
    const gateway = testGateway(server, { dailyCalls: 2 });
    await gateway.call(request(), meta());
    await gateway.call(request(), meta({ workflow: "system:question" }));
    const failure = await failureOf(gateway.call(request(), meta()));
    expect(failure.code).toBe("QUOTA_EXCEEDED");
    expect(failure.args).toEqual(["calls"]);
    expect(server.requests).toHaveLength(2);
    // Another player has a quota of their own.
    await gateway.call(request(), meta({ playerId: "bob" }));
  });

  it("says whose quota is used up and tells listeners after each recorded call", async () => {
    server.script(ok(), ok());
    const gateway = testGateway(server, { dailyCalls: 2 });
    const told: string[] = [];
    gateway.onUsage((playerId) => told.push(`${playerId}:${gateway.quotaRefusal(playerId)?.code ?? "ok"}`));
    expect(gateway.quotaRefusal("alice")).toBeUndefined();
    await gateway.call(request(), meta());
    await gateway.call(request(), meta());
    expect(told).toEqual(["alice:ok", "alice:QUOTA_EXCEEDED"]);
    expect(gateway.quotaRefusal("alice")).toMatchObject({ code: "QUOTA_EXCEEDED", args: ["calls"] });
    expect(gateway.quotaRefusal("bob")).toBeUndefined();
  });

  it("refuses calls once the daily token quota is used up", async () => {
    server.script(ok(80, 30), ok());
    const gateway = testGateway(server, { dailyTokens: 100 });
    await gateway.call(request(), meta());
    const failure = await failureOf(gateway.call(request(), meta()));
    expect(failure).toMatchObject({ code: "QUOTA_EXCEEDED", args: ["tokens"] });
    expect(gateway.today("alice")).toEqual({ calls: 1, tokens: 110 });
  });

  it("parallel calls cannot overrun the call quota", async () => {
    for (let index = 0; index < 10; index++) server.script({ ...ok(), delayMillis: 50 });
    const gateway = testGateway(server, { dailyCalls: 3, concurrency: 10 });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => gateway.call(request(), meta())),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
    expect(server.requests).toHaveLength(3);
  });

  it("resets the quota at the server's local midnight, not UTC midnight", async () => {
    // A zone far from UTC so that a UTC day key would give the wrong answer.
    const previousZone = process.env.TZ;
    process.env.TZ = "Asia/Shanghai";
    try {
      server.script(ok(), ok(), ok());
      let now = new Date(2026, 4, 1, 23, 59, 30).getTime();
      expect(new Date(now).getUTCHours()).toBe(15);
      const gateway = testGateway(server, { dailyCalls: 1, now: () => now });
      const deadline = () => now + 30_000;
      await gateway.call(request(), meta({ deadline: deadline() }));
      const refused = await failureOf(gateway.call(request(), meta({ deadline: deadline() })));
      expect(refused.code).toBe("QUOTA_EXCEEDED");
      now = new Date(2026, 4, 2, 0, 0, 5).getTime();
      await gateway.call(request(), meta({ deadline: deadline() }));
      expect(gateway.usage({ playerId: "alice" }).map((record) => [record.day, record.calls])).toEqual([
        ["2026-05-01", 1],
        ["2026-05-02", 1],
      ]);
    } finally {
      if (previousZone === undefined) delete process.env.TZ;
      else process.env.TZ = previousZone;
    }
  });

  it("keeps the daily counters across a restart on the same file", async () => {
    const path = join(folder, "model-usage.json");
    server.script(ok(), ok(), ok());
    const first = testGateway(server, {
      dailyCalls: 2,
      store: await FileUsageStore.open({ path, logger: silentLogger }),
    });
    await first.call(request(), meta());
    await first.call(request(), meta());
    const restarted = testGateway(server, {
      dailyCalls: 2,
      store: await FileUsageStore.open({ path, logger: silentLogger }),
    });
    expect((await failureOf(restarted.call(request(), meta()))).code).toBe("QUOTA_EXCEEDED");
    expect(restarted.today("alice").calls).toBe(2);
    expect(JSON.parse(await readFile(path, "utf8")).format).toBe(1);
  });

  it("records usage per player, day and workflow, failed calls included", async () => {
    server.script(ok(100, 20), ok(50, 10), { status: 500 }, ok(7, 3));
    const store = new MemoryUsageStore();
    const gateway = testGateway(server, { store });
    await gateway.call(request(), meta());
    await gateway.call(request(), meta());
    await failureOf(gateway.call(request(), meta({ workflow: "system:question" })));
    await gateway.call(request(), meta({ playerId: "bob", workflow: "system:question" }));
    const alice = gateway.usage({ playerId: "alice" });
    expect(alice.map(({ latencyMillis: _latency, day: _day, ...rest }) => rest)).toEqual([
      {
        playerId: "alice",
        workflow: "system:question",
        calls: 1,
        failures: 1,
        inputTokens: 0,
        outputTokens: 0,
      },
      {
        playerId: "alice",
        workflow: "system:reasoning",
        calls: 2,
        failures: 0,
        inputTokens: 150,
        outputTokens: 30,
      },
    ]);
    expect(alice.every((record) => record.latencyMillis >= 0)).toBe(true);
    expect(gateway.usage({ workflow: "system:question" })).toHaveLength(2);
  });

  it("holds 20 parallel calls to the concurrency limit", async () => {
    for (let index = 0; index < 20; index++) server.script({ ...ok(), delayMillis: 100 });
    const gateway = testGateway(server, { concurrency: 3 });
    const calls = Array.from({ length: 20 }, (_, index) =>
      gateway.call(request(), meta({ playerId: `p${index}` })),
    );
    const results = await Promise.all(calls);
    expect(results).toHaveLength(20);
    expect(server.requests).toHaveLength(20);
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it("20 parallel calls with short deadlines: the limit holds, late waiters get BUSY without reaching the model", async () => {
    for (let index = 0; index < 20; index++) server.script({ ...ok(), delayMillis: 250 });
    const gateway = testGateway(server, { concurrency: 2 });
    const deadline = Date.now() + 600;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        gateway.call(request(), meta({ playerId: `p${index}`, deadline })),
      ),
    );
    const codes = results.map((result) =>
      result.status === "fulfilled" ? "OK" : AgentException.failure(result.reason).code,
    );
    expect(codes.every((code) => ["OK", "BUSY", "TIMEOUT"].includes(code))).toBe(true);
    expect(codes.filter((code) => code === "BUSY").length).toBeGreaterThan(0);
    // BUSY calls never reach the model; every successful one did.
    expect(server.requests.length).toBeLessThanOrEqual(codes.filter((code) => code !== "BUSY").length);
    expect(server.requests.length).toBeGreaterThanOrEqual(codes.filter((code) => code === "OK").length);
    expect(server.maxInFlight).toBeLessThanOrEqual(2);
  });

  it("a waiter whose deadline passes gets BUSY and never reaches the model", async () => {
    server.script({ ...ok(), delayMillis: 1_500 }, ok());
    const gateway = testGateway(server, { concurrency: 1 });
    const running = gateway.call(request(), meta());
    await server.waitForRequests(1);
    const waiter = await failureOf(gateway.call(request(), meta({ deadline: Date.now() + 150 })));
    expect(waiter.code).toBe("BUSY");
    await running;
    expect(server.requests).toHaveLength(1);
  });

  it("a cancelled waiter leaves the queue at once", async () => {
    server.script({ ...ok(), delayMillis: 1_000 }, ok(1, 1));
    const gateway = testGateway(server, { concurrency: 1 });
    let runningDone = false;
    const running = gateway.call(request(), meta()).finally(() => {
      runningDone = true;
    });
    await server.waitForRequests(1);
    const controller = new AbortController();
    const cancelled = gateway.call(request({ signal: controller.signal }), meta());
    const third = gateway.call(request(), meta());
    controller.abort();
    expect((await failureOf(cancelled)).code).toBe("CANCELLED");
    expect(runningDone).toBe(false);
    await running;
    expect((await third).usage).toEqual({ inputTokens: 1, outputTokens: 1 });
    expect(server.requests).toHaveLength(2);
    expect(gateway.usage()[0]?.calls).toBe(2);
  });

  it("the per-call timeout never outlives the request's deadline", async () => {
    server.script({ ...ok(), delayMillis: 3_000 });
    const gateway = testGateway(server);
    const failure = await failureOf(
      gateway.call(request({ timeoutMillis: 20_000 }), meta({ deadline: Date.now() + 200 })),
    );
    expect(failure.code).toBe("TIMEOUT");
  });
});
