import { describe, expect, it } from "vitest";
import { AgentException } from "./agent-exception.js";
import { AgentFailure } from "./agent-failure.js";
import { customFailure } from "./failure.js";

describe("AgentException", () => {
  it("carries only a Failure, read with failure()", () => {
    const failure = AgentFailure.TOOL_NOT_ALLOWED.with("system:x");
    const exception = new AgentException(failure);
    expect(exception.failure()).toBe(failure);
    expect(exception.message).toBe("TOOL_NOT_ALLOWED(system:x)");
    expect(exception).toBeInstanceOf(Error);
  });

  it("failure(error) finds the original Failure along the cause chain", () => {
    const original = customFailure("SHOP_CLOSED", "myshop.error.closed", "night");
    const inner = new AgentException(original);
    const wrapped = new Error("outer", { cause: new Error("middle", { cause: inner }) });
    expect(AgentException.failure(wrapped)).toBe(original);
    expect(AgentException.failure(inner)).toBe(original);
  });

  it("failure(error) maps anything else to MODULE_FAILED", () => {
    for (const error of [new Error("boom"), "text", 42, undefined, null, { code: "BUSY" }])
      expect(AgentException.failure(error)).toBe(AgentFailure.MODULE_FAILED);
  });

  it("survives a cyclic cause chain", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(AgentException.failure(a)).toBe(AgentFailure.MODULE_FAILED);
  });

  it("wrap keeps the cause when it maps to MODULE_FAILED and keeps AgentExceptions as they are", () => {
    const cause = new TypeError("bad");
    const wrapped = AgentException.wrap(cause);
    expect(wrapped.failure()).toBe(AgentFailure.MODULE_FAILED);
    expect(wrapped.cause).toBe(cause);
    const own = new AgentException(AgentFailure.BUSY);
    expect(AgentException.wrap(own)).toBe(own);
    const nested = AgentException.wrap(new Error("x", { cause: own }));
    expect(nested.failure()).toBe(AgentFailure.BUSY);
  });
});
