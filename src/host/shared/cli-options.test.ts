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

  it("reads --server-dir, the modpack folder whose content System reads", () => {
    expect(parseCliOptions(["--server-dir", "/srv/pack"])).toEqual({
      success: true,
      value: { dataDir: "run", serverDir: "/srv/pack" },
    });
    expect(parseCliOptions(["--server-dir"]).success).toBe(false);
  });

  it("rejects unknown flags, missing values and bad ports", () => {
    expect(parseCliOptions(["--prot", "1"]).success).toBe(false);
    expect(parseCliOptions(["--port"]).success).toBe(false);
    expect(parseCliOptions(["--port", "70000"]).success).toBe(false);
    expect(parseCliOptions(["--port", "abc"]).success).toBe(false);
  });
});

describe("parseCliOptions: --panel-port and --help", () => {
  it("reads --panel-port in both spellings, 0 for any free port", () => {
    expect(parseCliOptions(["--panel-port", "0"])).toEqual({
      success: true,
      value: { dataDir: "run", panelPort: 0 },
    });
    expect(parseCliOptions(["--port=25566", "--panel-port=8766", "--data-dir", "run2"])).toEqual({
      success: true,
      value: { dataDir: "run2", port: 25566, panelPort: 8766 },
    });
  });

  it("refuses a bad panel port, naming the flag", () => {
    expect(parseCliOptions(["--panel-port", "65536"])).toEqual({
      success: false,
      error: "--panel-port must be 0–65535, got 65536",
    });
    expect(parseCliOptions(["--panel-port"])).toEqual({
      success: false,
      error: "--panel-port needs a value",
    });
  });

  it("asks for the usage on --help or -h", () => {
    expect(parseCliOptions(["--port", "1", "--help"])).toMatchObject({
      success: true,
      value: { help: true },
    });
    expect(parseCliOptions(["-h"])).toMatchObject({ success: true, value: { help: true } });
  });
});
