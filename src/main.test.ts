import { afterEach, describe, expect, it } from "vitest";
import { type StartParts, startServer } from "./main.js";

const calls: string[] = [];

/** The start's parts, recording their order (no module is mocked: test files share their worker's modules). */
const parts: StartParts = {
  tune: () => calls.push("tune"),
  startSystem: async () => {
    calls.push("start");
    return { host: { close: async () => {} }, close: async () => {} } as unknown as Awaited<
      ReturnType<StartParts["startSystem"]>
    >;
  },
  installShutdown: () => {
    calls.push("shutdown handler");
    return () => {};
  },
};

describe("startServer", () => {
  afterEach(() => {
    calls.length = 0;
  });

  it("sets the garbage collector's heap growing factor before the server starts", async () => {
    await startServer(
      ["--port", "0", "--data-dir", "/nonexistent-system-dir"],
      process.stdout,
      process.stderr,
      parts,
    );
    expect(calls).toEqual(["tune", "start", "shutdown handler"]);
  });

  it("starts nothing and tunes nothing for --help", async () => {
    await startServer(["--help"], { write: () => true }, process.stderr, parts);
    expect(calls).toEqual([]);
  });
});
