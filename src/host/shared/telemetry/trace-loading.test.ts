import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryLogger } from "../../../util/logger.js";
import { openTelemetry } from "./host-telemetry.js";

const loaded = vi.hoisted(() => [] as string[]);

vi.mock("@opentelemetry/sdk-trace-node", async (importOriginal) => {
  loaded.push("@opentelemetry/sdk-trace-node");
  return importOriginal();
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

  it("is not loaded while tracing is off (the default), and is once it is on", async () => {
    const off = await openTelemetry({ dataDir: dataDir(), environment: {}, logger: new MemoryLogger() });
    expect(off.traceEndpoint).toBeUndefined();
    expect(loaded).toEqual([]);
    await off.close();

    const on = await openTelemetry({
      dataDir: dataDir(),
      environment: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
      logger: new MemoryLogger(),
    });
    expect(on.traceEndpoint).toBe("http://127.0.0.1:9/v1/traces");
    expect(loaded).toEqual(["@opentelemetry/sdk-trace-node"]);
    await on.close();
  });
});
