import { describe, expect, it } from "vitest";
import { AgentFailure } from "./agent-failure.js";
import { customFailure, failureIn, sameFailure } from "./failure.js";

const REQUIRED = [
  "BUSY",
  "CANCELLED",
  "PERMISSION_DENIED",
  "MODULE_DISABLED",
  "MODULE_FAILED",
  "INPUT_INVALID",
  "INPUT_TOO_LARGE",
  "TOOL_NOT_ALLOWED",
  "BUDGET_EXHAUSTED",
  "TIMEOUT",
  "QUOTA_EXCEEDED",
  "MODEL_UNAVAILABLE",
  "MODEL_INVALID_OUTPUT",
  "STORAGE_FULL",
  "EFFECT_UNKNOWN",
  "REVOKED",
];

describe("AgentFailure", () => {
  it("declares every built-in failure with a system.error.* key", () => {
    const codes = AgentFailure.values().map((failure) => failure.code);
    expect(codes).toEqual(expect.arrayContaining(REQUIRED));
    for (const failure of AgentFailure.values()) {
      expect(failure.key).toBe(`system.error.${failure.code.toLowerCase()}`);
      expect(failure.args).toEqual([]);
    }
  });

  it("fromCode maps every persisted name back to the same value", () => {
    for (const failure of AgentFailure.values()) expect(AgentFailure.fromCode(failure.code)).toBe(failure);
  });

  it("fromCode turns unknown names into MODULE_FAILED", () => {
    for (const name of ["", "NOPE", "busy", "system.error.busy", "__proto__"])
      expect(AgentFailure.fromCode(name)).toBe(AgentFailure.MODULE_FAILED);
  });

  it("with(...) keeps code and key and stringifies the arguments", () => {
    const failure = AgentFailure.INPUT_TOO_LARGE.with(70_000, 65_536);
    expect(failure).toEqual({
      code: "INPUT_TOO_LARGE",
      key: "system.error.input_too_large",
      args: ["70000", "65536"],
    });
    expect(AgentFailure.INPUT_TOO_LARGE.args).toEqual([]);
    expect(sameFailure(failure, AgentFailure.INPUT_TOO_LARGE)).toBe(true);
  });

  it("budgetExhausted names the dimension that ran out", () => {
    const failure = AgentFailure.budgetExhausted("writeSteps");
    expect(failure.code).toBe("BUDGET_EXHAUSTED");
    expect(failure.args).toEqual(["writeSteps"]);
  });

  it("extensions bring their own failures without touching the enum", () => {
    const before = AgentFailure.values().length;
    const shopClosed = customFailure("SHOP_CLOSED", "myshop.error.closed", "night");
    expect(shopClosed).toEqual({ code: "SHOP_CLOSED", key: "myshop.error.closed", args: ["night"] });
    expect(AgentFailure.values().length).toBe(before);
    const recoverable = new Set([shopClosed, AgentFailure.TIMEOUT]);
    expect(failureIn(customFailure("SHOP_CLOSED", "myshop.error.closed"), recoverable)).toBe(true);
    expect(failureIn(AgentFailure.TIMEOUT.with("x"), recoverable)).toBe(true);
    expect(failureIn(AgentFailure.CANCELLED, recoverable)).toBe(false);
  });
});
