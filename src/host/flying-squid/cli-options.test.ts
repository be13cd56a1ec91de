import { describe, expect, it } from "vitest";
import { parseCliOptions } from "./cli-options.js";

describe("parseCliOptions", () => {
  it("defaults to the run folder and the configured port", () => {
    expect(parseCliOptions([])).toEqual({ success: true, value: { dataDir: "run" } });
  });

  it("reads --port and --data-dir in both spellings", () => {
    expect(parseCliOptions(["--port", "25570", "--data-dir", "/tmp/b"])).toEqual({
      success: true,
      value: { dataDir: "/tmp/b", port: 25570 },
    });
    expect(parseCliOptions(["--port=0", "--data-dir=x"])).toEqual({
      success: true,
      value: { dataDir: "x", port: 0 },
    });
  });

  it("rejects unknown flags, missing values and bad ports", () => {
    expect(parseCliOptions(["--prot", "1"]).success).toBe(false);
    expect(parseCliOptions(["--port"]).success).toBe(false);
    expect(parseCliOptions(["--port", "70000"]).success).toBe(false);
    expect(parseCliOptions(["--port", "abc"]).success).toBe(false);
  });
});
