import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OtlpReceiver } from "../../../../test/support/otlp-receiver.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { MemoryLogger } from "../../../util/logger.js";
import { openTelemetry } from "./host-telemetry.js";
import type { SystemTelemetry } from "./system-telemetry.js";
import { traceProtocol } from "./trace-export.js";

/** The packages only tracing needs: loaded by `startTraceExport` once tracing is on, never at start. */
const TRACE_PACKAGES = [
  "@opentelemetry/sdk-trace-node",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/exporter-trace-otlp-http",
  "@opentelemetry/exporter-trace-otlp-proto",
  "@opentelemetry/resources",
];

const sources = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });

describe("the trace SDK", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  const dataDir = (): string => {
    const folder = mkdtempSync(join(tmpdir(), "system-traces-"));
    folders.push(folder);
    return folder;
  };

  it("is imported by no source file at load time: only types, or a dynamic import once tracing is on", () => {
    const static_ = /^import\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gmu;
    const found: string[] = [];
    for (const path of sources("src"))
      for (const match of readFileSync(path, "utf8").matchAll(static_))
        if (TRACE_PACKAGES.includes(match[1] ?? "")) found.push(`${path}: ${match[1]}`);
    expect(found).toEqual([]);
  });

  it("is loaded once tracing is on, and no exporter exists while it is off", async () => {
    const off = await openTelemetry({ dataDir: dataDir(), environment: {}, logger: new MemoryLogger() });
    expect(off.traceEndpoint).toBeUndefined();
    expect((off.telemetry as { traces?: unknown }).traces).toBeUndefined();
    await off.close();

    const on = await openTelemetry({
      dataDir: dataDir(),
      environment: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
      logger: new MemoryLogger(),
    });
    expect(on.traceEndpoint).toBe("http://127.0.0.1:9/v1/traces");
    expect((on.telemetry as { traces?: unknown }).traces).toBeDefined();
    await on.close();
  });

  it.each(["http/protobuf", "http/json"])(
    "exports a request's spans to a collector in %s",
    async (protocol) => {
      const receiver = await OtlpReceiver.start();
      const logger = new MemoryLogger();
      const on = await openTelemetry({
        dataDir: dataDir(),
        environment: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        },
        logger,
      });
      try {
        const telemetry = on.telemetry as SystemTelemetry;
        await telemetry.request("chat", { playerId: "p", requestId: "r" }, () =>
          telemetry.span("workflow test:w", { "assistant.workflow": "test:w" }, "r", async () =>
            AgentResult.success(undefined),
          ),
        );
        await telemetry.flush();
        const workflow = receiver.spans.find((span) => span.name === "workflow test:w");
        expect(workflow?.attributes["assistant.workflow"]).toBe("test:w");
        expect(receiver.spans.find((span) => span.spanId === workflow?.parentSpanId)?.name).toBe(
          "request chat",
        );
        expect(logger.lines.some((line) => line.includes(`(OTLP ${protocol})`))).toBe(true);
      } finally {
        await on.close();
        await receiver.close();
      }
    },
  );

  it("speaks OTLP/HTTP protobuf, the standard's default, unless the standard variables ask for JSON", () => {
    expect(traceProtocol({}).protocol).toBe("http/protobuf");
    expect(traceProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }).protocol).toBe("http/json");
    expect(
      traceProtocol({
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      }).protocol,
    ).toBe("http/protobuf");
    // gRPC is not spoken: protobuf over HTTP, and the start line says so
    expect(traceProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toEqual({
      protocol: "http/protobuf",
      asked: "grpc",
    });
  });
});
