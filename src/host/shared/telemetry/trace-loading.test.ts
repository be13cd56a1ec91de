import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryLogger } from "../../../util/logger.js";
import { openTelemetry } from "./host-telemetry.js";

/** The packages only tracing needs: loaded by `startTraceExport` once tracing is on, never at start. */
const TRACE_PACKAGES = [
  "@opentelemetry/sdk-trace-node",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/exporter-trace-otlp-http",
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
});
