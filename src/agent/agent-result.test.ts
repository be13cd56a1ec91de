import { describe, expect, it } from "vitest";
import { AgentFailure } from "./agent-failure.js";
import { AgentResult, Status } from "./agent-result.js";
import { customFailure } from "./failure.js";
import { literal, translatable } from "./text.js";

describe("AgentResult", () => {
  it("encodes its status as stable lowercase strings", () => {
    expect(Status).toEqual({
      SUCCEEDED: "succeeded",
      FAILED: "failed",
      PARTIALLY_SUCCEEDED: "partially_succeeded",
    });
    expect(AgentResult.CODEC.encode(AgentResult.success())).toEqual({ status: "succeeded" });
    expect(AgentResult.CODEC.encode(AgentResult.error(AgentFailure.BUSY))).toMatchObject({
      status: "failed",
    });
  });

  it("derives isSuccess/isFailure from the status; partial counts as failure", () => {
    const ok = AgentResult.success(literal("done"));
    expect([ok.isSuccess(), ok.isFailure(), ok.isPartial()]).toEqual([true, false, false]);
    const failed = AgentResult.error(AgentFailure.TIMEOUT);
    expect([failed.isSuccess(), failed.isFailure()]).toEqual([false, true]);
    const partial = ok.partial(AgentFailure.budgetExhausted("steps"));
    expect(partial.status).toBe("partially_succeeded");
    expect([partial.isSuccess(), partial.isFailure(), partial.isPartial()]).toEqual([false, true, true]);
    expect(partial.message).toEqual(literal("done"));
    expect(partial.failure?.args).toEqual(["steps"]);
    expect(ok.isSuccess()).toBe(true); // the original is untouched
  });

  it("withPresentation returns a copy", () => {
    const original = AgentResult.silent();
    const shown = original.withPresentation({ type: "system:text", data: { text: "hi" } });
    expect(shown).not.toBe(original);
    expect(original.presentation).toBeUndefined();
    expect(original.silent).toBe(true);
    expect(shown.presentation).toEqual({ type: "system:text", data: { text: "hi" } });
    expect(shown.silent).toBe(false);
    expect(shown.withMessage(literal("m")).presentation).toEqual(shown.presentation);
  });

  it("error(failure) keeps the key and the arguments", () => {
    const result = AgentResult.error(
      customFailure("SHOP_CLOSED", "myshop.error.closed", "minecraft:diamond"),
    );
    expect(result.message).toEqual(translatable("myshop.error.closed", "minecraft:diamond"));
    expect(result.failure).toEqual({
      code: "SHOP_CLOSED",
      key: "myshop.error.closed",
      args: ["minecraft:diamond"],
    });
  });

  it("round-trips through CODEC as plain JSON, never carrying implementation classes", () => {
    const results = [
      AgentResult.success(translatable("system.x", "a", 1, literal("钻石")), {
        type: "system:card",
        data: [1, null],
      }),
      AgentResult.error(AgentFailure.QUOTA_EXCEEDED.with("5")),
      AgentResult.success(literal("half")).partial(AgentFailure.TIMEOUT),
      AgentResult.silent(),
    ];
    for (const result of results) {
      const wire = JSON.parse(JSON.stringify(AgentResult.CODEC.encode(result)));
      const decoded = AgentResult.CODEC.decode(wire);
      expect(decoded.success).toBe(true);
      if (!decoded.success) continue;
      expect(decoded.value.encode()).toEqual(result.encode());
      expect(decoded.value.status).toBe(result.status);
      expect(decoded.value.isFailure()).toBe(result.isFailure());
      expect(decoded.value.failure instanceof AgentFailure).toBe(false);
    }
  });

  it("refuses bad data as a value, without throwing", () => {
    for (const bad of [
      null,
      "succeeded",
      {},
      { status: "SUCCEEDED" },
      { status: "ok" },
      { status: "failed", failure: { code: "X" } },
      { status: "succeeded", message: { kind: "html", text: "<b>" } },
      { status: "succeeded", presentation: { type: "t", data: () => 1 } },
    ]) {
      const decoded = AgentResult.CODEC.decode(bad);
      expect(decoded.success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("exports a JSON schema for the network protocol", () => {
    const schema = AgentResult.CODEC.jsonSchema();
    expect(schema.type).toBe("object");
    expect(schema.required).toEqual(["status"]);
  });
});
