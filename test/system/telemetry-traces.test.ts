import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_TELEMETRY } from "../../src/agent/telemetry/telemetry.js";
import { OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { TEST_MODEL } from "../support/test-model.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  startShipped,
  uuidOf,
} from "./system-support.js";

const reply = (value: unknown, usage = { promptTokens: 120, completionTokens: 30 }) => ({
  text: JSON.stringify(value),
  usage,
});

/** The children of a span in a received trace. */
const childrenOf = (spans: readonly ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] =>
  spans.filter((span) => span.parentSpanId === parent.spanId);

/**
 * Traces of the shipped server (startSystem) exported with OTLP/HTTP to a collector endpoint in the test support,
 * turned on by the standard OTEL_EXPORTER_OTLP_ENDPOINT: one trace per request with its route, ReAct rounds, model
 * calls with the GenAI attributes and token counts, tool calls and journal write steps; the player only as a hash.
 */
describe("traces of the shipped server", () => {
  let receiver: OtlpReceiver;
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let admin: Player;
  let steve: Player;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    model = await ScriptedModelServer.start();
    server = await startShipped({
      environment: { ...modelEnvironment(model), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      ops: ["Admin"],
    });
    admin = await joinPlayer(server.port, "Admin");
    steve = await joinPlayer(server.port, "Steve");
    await admin.say("/system knowledge add Diamonds | Diamonds are found deep underground, near lava.", (m) =>
      /Knowledge entry #\d+ added/.test(m.text),
    );
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    steve?.quit();
    await server?.close();
    await model?.close();
    await receiver?.close();
  });

  it("gives one /reason request a span tree: route, ReAct rounds, model calls with tokens, the tool call", async () => {
    model.script(
      reply({ type: "system:database.query", input: { query: "Diamonds" } }),
      reply({ type: "answer", text: "Dig deep, near lava." }, { promptTokens: 200, completionTokens: 12 }),
    );
    await steve.say("/reason where do I find diamonds", (m) => m.text.includes("Dig deep"));
    const root = await expect
      .poll(
        async () => {
          await (server.system.telemetry.telemetry as { flush?: () => Promise<void> }).flush?.();
          return receiver.spans.find(
            (span) =>
              span.name === "request chat" && span.attributes["assistant.workflow"] === "system:reasoning",
          );
        },
        { timeout: 20_000 },
      )
      .toBeDefined()
      .then(() =>
        receiver.spans.find(
          (span) =>
            span.name === "request chat" && span.attributes["assistant.workflow"] === "system:reasoning",
        ),
      );
    const request = root as ReceivedSpan;
    expect(request.parentSpanId).toBeUndefined();
    expect(request.attributes["assistant.route.path"]).toBe("command");
    expect(request.attributes["assistant.outcome"]).toBe("ok");
    expect(request.resource["service.name"]).toBe("system");
    const spans = receiver.trace(request.traceId);
    const route = childrenOf(spans, request).find((span) => span.name === "route");
    expect(route?.attributes["assistant.route.path"]).toBe("command");
    const workflow = childrenOf(spans, request).find((span) => span.name === "workflow system:reasoning");
    expect(workflow).toBeDefined();
    expect(workflow?.attributes["assistant.budget.modelCalls"]).toBe(2);
    expect(workflow?.attributes["assistant.budget.toolCalls"]).toBe(1);
    const rounds = childrenOf(spans, workflow as ReceivedSpan).filter((span) => span.name === "react.round");
    expect(rounds.map((round) => round.attributes["assistant.react.round"])).toEqual([1, 2]);
    const [first, second] = rounds as [ReceivedSpan, ReceivedSpan];
    const firstModel = childrenOf(spans, first).find((span) => span.name === `chat ${TEST_MODEL}`);
    expect(firstModel?.attributes["gen_ai.request.model"]).toBe(TEST_MODEL);
    expect(firstModel?.attributes["gen_ai.operation.name"]).toBe("chat");
    expect(firstModel?.attributes["gen_ai.usage.input_tokens"]).toBe(120);
    expect(firstModel?.attributes["gen_ai.usage.output_tokens"]).toBe(30);
    const tool = childrenOf(spans, first).find((span) => span.name === "execute_tool system:database.query");
    expect(tool?.attributes["gen_ai.tool.name"]).toBe("system:database.query");
    const secondModel = childrenOf(spans, second).find((span) => span.name === `chat ${TEST_MODEL}`);
    expect(secondModel?.attributes["gen_ai.usage.input_tokens"]).toBe(200);
    // no prompt, answer or player in the clear by default
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain("where do I find diamonds");
    expect(everything).not.toContain("Dig deep");
    expect(everything).not.toContain("Steve");
    expect(everything).not.toContain(uuidOf(server.system, "Steve"));
    expect(String(request.attributes["assistant.player"])).toMatch(/^[0-9a-f]{16}$/u);
  });

  it("hangs the model router's call under its request's route span", async () => {
    model.script(
      reply(
        { capabilityId: "system:item_query", input: { query: "minecraft:bread" } },
        { promptTokens: 10, completionTokens: 5 },
      ),
    );
    await steve.say("/system what should I eat on a long walk", (m) => m.text.includes("minecraft:bread"));
    const routed = (): ReceivedSpan | undefined =>
      receiver.spans.find(
        (span) => span.name === "request chat" && span.attributes["assistant.route.path"] === "model",
      );
    await expect
      .poll(
        async () => {
          await (server.system.telemetry.telemetry as { flush?: () => Promise<void> }).flush?.();
          return routed();
        },
        { timeout: 20_000 },
      )
      .toBeDefined();
    const request = routed() as ReceivedSpan;
    const spans = receiver.trace(request.traceId);
    const route = childrenOf(spans, request).find((span) => span.name === "route") as ReceivedSpan;
    const call = childrenOf(spans, route).find((span) => span.name === `chat ${TEST_MODEL}`);
    expect(call?.attributes["assistant.workflow"]).toBe("system:router");
    expect(call?.attributes["gen_ai.usage.input_tokens"]).toBe(10);
    expect(childrenOf(spans, request).some((span) => span.name === "workflow system:item_query")).toBe(true);
  });

  it("records a write step of the journal inside its request's trace", async () => {
    await steve.say("/system checkin", (m) => /check|day|point/i.test(m.text));
    await expect
      .poll(
        async () => {
          await (server.system.telemetry.telemetry as { flush?: () => Promise<void> }).flush?.();
          const found = receiver.spans.find((span) => span.name === "journal.step");
          return (
            found !== undefined &&
            receiver.trace(found.traceId).some((span) => span.parentSpanId === undefined)
          );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const step = receiver.spans.find((span) => span.name === "journal.step") as ReceivedSpan;
    const trace = receiver.trace(step.traceId);
    const root = trace.find((span) => span.parentSpanId === undefined);
    expect(root?.name).toMatch(/^request (chat|event)$/u);
    expect(trace.some((span) => span.name.startsWith("execute_tool "))).toBe(true);
  });

  it("is off by default: no exporter, nothing recorded", async () => {
    const quiet = await startShipped({
      files: { "config/system/telemetry.json": JSON.stringify({ metrics: { enabled: false } }) },
    });
    try {
      expect(quiet.system.telemetry.traceEndpoint).toBeUndefined();
      expect(quiet.system.telemetry.telemetry).toBe(NO_TELEMETRY);
      const before = receiver.exports;
      expect(receiver.exports).toBe(before);
    } finally {
      await quiet.close();
    }
    const plain = await startShipped();
    try {
      expect(plain.system.telemetry.traceEndpoint).toBeUndefined();
      expect((plain.system.telemetry.telemetry as { traces?: unknown }).traces).toBeUndefined();
    } finally {
      await plain.close();
    }
  }, 60_000);
});
