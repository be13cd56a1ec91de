import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../util/logger.js";
import {
  DEFAULT_REACT_ITERATIONS,
  EXECUTION_POLICY_CODEC,
  type ExecutionPolicy,
  readPolicyOverride,
  tightenPolicy,
} from "./execution-policy.js";
import { DEFAULT_POLICIES, defaultPolicyFor, SIMPLE_POLICY } from "./policy-defaults.js";

const MODULE_DEFAULT = DEFAULT_POLICIES["system:question"] as ExecutionPolicy;
const FULL = {
  modelCalls: 2,
  toolCalls: 3,
  steps: 5,
  writeSteps: 1,
  inputBytes: 1000,
  outputTokens: 100,
  totalTokens: 5000,
  ttlMillis: 10_000,
  modelTimeoutMillis: 2000,
  reactIterations: 4,
};

describe("policy defaults", () => {
  it("match the seed's table", () => {
    const row = (id: string) => {
      const policy = defaultPolicyFor(id);
      return [
        policy.reactIterations,
        policy.modelCalls,
        policy.toolCalls,
        policy.steps,
        policy.ttlMillis,
        policy.modelTimeoutMillis,
      ];
    };
    expect(row("system:reasoning")).toEqual([3, 4, 8, 14, 60_000, 12_000]);
    expect(row("system:question")).toEqual([6, 6, 9, 20, 90_000, 20_000]);
    expect(row("system:free_chat")).toEqual([6, 6, 16, 32, 90_000, 30_000]);
    expect(defaultPolicyFor("mod:unknown")).toBe(SIMPLE_POLICY);
  });

  it("are valid, frozen policies", () => {
    for (const policy of [SIMPLE_POLICY, ...Object.values(DEFAULT_POLICIES)]) {
      expect(EXECUTION_POLICY_CODEC.decode(policy).success).toBe(true);
      expect(Object.isFrozen(policy)).toBe(true);
    }
  });
});

describe("readPolicyOverride", () => {
  it("accepts a full object", () => {
    const logger = new MemoryLogger();
    const policy = readPolicyOverride("system:question", FULL, MODULE_DEFAULT, logger);
    expect(policy).toEqual(FULL);
    expect(Object.isFrozen(policy)).toBe(true);
    expect(logger.lines).toEqual([]);
  });

  it("refuses a partial object: the module default applies and the log names the missing field", () => {
    const logger = new MemoryLogger();
    const { toolCalls: _dropped, ...partial } = FULL;
    expect(readPolicyOverride("system:question", partial, MODULE_DEFAULT, logger)).toBe(MODULE_DEFAULT);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^WARN policies\.system:question: field toolCalls .*full object/);
  });

  it("refuses an invalid field value and names it", () => {
    for (const [field, value] of [
      ["steps", -1],
      ["inputBytes", "65536"],
      ["ttlMillis", 0],
      ["modelCalls", 1.5],
    ] as const) {
      const logger = new MemoryLogger();
      const raw = { ...FULL, [field]: value };
      expect(readPolicyOverride("system:question", raw, MODULE_DEFAULT, logger)).toBe(MODULE_DEFAULT);
      expect(logger.has(`field ${field} `)).toBe(true);
    }
  });

  it("refuses a value that is not an object", () => {
    for (const raw of [null, 3, "full", [1, 2]]) {
      const logger = new MemoryLogger();
      expect(readPolicyOverride("system:question", raw, MODULE_DEFAULT, logger)).toBe(MODULE_DEFAULT);
      expect(logger.lines).toHaveLength(1);
    }
  });

  it("reactIterations 0 disables the loop", () => {
    const policy = readPolicyOverride(
      "system:question",
      { ...FULL, reactIterations: 0 },
      MODULE_DEFAULT,
      new MemoryLogger(),
    );
    expect(policy.reactIterations).toBe(0);
  });

  it("missing reactIterations falls back to 3, not to the module default", () => {
    const { reactIterations: _dropped, ...rest } = FULL;
    const logger = new MemoryLogger();
    const policy = readPolicyOverride("system:question", rest, MODULE_DEFAULT, logger);
    expect(MODULE_DEFAULT.reactIterations).toBe(6);
    expect(policy.reactIterations).toBe(DEFAULT_REACT_ITERATIONS);
    expect(DEFAULT_REACT_ITERATIONS).toBe(3);
    expect(policy.toolCalls).toBe(3);
  });

  it("invalid reactIterations falls back to 3 with a log line, keeping the other fields", () => {
    for (const value of [-1, 1.5, "4", null, 1000, true]) {
      const logger = new MemoryLogger();
      const policy = readPolicyOverride(
        "system:question",
        { ...FULL, reactIterations: value },
        MODULE_DEFAULT,
        logger,
      );
      expect(policy.reactIterations).toBe(3);
      expect(policy.modelCalls).toBe(2);
      expect(logger.has("reactIterations")).toBe(true);
    }
  });
});

describe("tightenPolicy", () => {
  it("only tightens: looser values are ignored, tighter ones applied", () => {
    const base = FULL as ExecutionPolicy;
    const child = tightenPolicy(base, { toolCalls: 1, steps: 100, ttlMillis: 5000, writeSteps: 9 });
    expect(child).toEqual({ ...FULL, toolCalls: 1, ttlMillis: 5000 });
    expect(Object.isFrozen(child)).toBe(true);
  });

  it("ignores NaN (which would disable every check) and unknown fields", () => {
    const base = FULL as ExecutionPolicy;
    const child = tightenPolicy(base, { toolCalls: Number.NaN, ...({ extra: 1 } as object) });
    expect(child).toEqual(FULL);
  });
});

describe("EXECUTION_POLICY_CODEC", () => {
  it("round-trips a persisted policy and refuses a partial one", () => {
    const decoded = EXECUTION_POLICY_CODEC.decode(EXECUTION_POLICY_CODEC.encode(FULL));
    expect(decoded).toEqual({ success: true, value: FULL });
    const { reactIterations: _dropped, ...partial } = FULL;
    expect(EXECUTION_POLICY_CODEC.decode(partial).success).toBe(false);
  });
});
