import { afterEach, describe, expect, it, vi } from "vitest";

const calls = vi.hoisted(() => [] as string[]);

vi.mock("./host/shared/gc-tuning.js", () => ({
  tuneGarbageCollector: () => {
    calls.push("tune");
    return "--heap-growing-percent=50";
  },
}));
vi.mock("./host/shared/shutdown.js", () => ({ installShutdown: () => calls.push("shutdown handler") }));
vi.mock("./host/flying-squid/start-system.js", () => ({
  startSystem: async () => {
    calls.push("start");
    return { host: { close: async () => {} }, close: async () => {} };
  },
}));

const { startServer } = await import("./main.js");

describe("startServer", () => {
  afterEach(() => {
    calls.length = 0;
  });

  it("sets the garbage collector's heap growing factor before the server starts", async () => {
    await startServer(["--port", "0", "--data-dir", "/nonexistent-system-dir"]);
    expect(calls).toEqual(["tune", "start", "shutdown handler"]);
  });

  it("starts nothing and tunes nothing for --help", async () => {
    await startServer(["--help"], { write: () => true });
    expect(calls).toEqual([]);
  });
});
