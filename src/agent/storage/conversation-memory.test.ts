import { describe, expect, it } from "vitest";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import { literal, translatable } from "../text.js";
import { ConversationMemory, type ConversationTurn, decodeTurn, encodeTurn } from "./conversation-memory.js";

const user = (text: string): ConversationTurn => ({ role: "user", requestId: text, at: 0, text });
const assistant = (text: string): ConversationTurn => ({
  role: "assistant",
  requestId: text,
  at: 0,
  result: AgentResult.success(literal(text)),
});

describe("ConversationMemory", () => {
  it("keeps the newest turns up to maxTurns, in chronological order", () => {
    const memory = new ConversationMemory({ maxTurns: 3, maxBytes: 10_000 });
    const turns = [user("a"), assistant("b"), user("c"), assistant("d"), user("e")];
    expect(memory.project(turns)).toEqual([
      { role: "user", text: "c" },
      { role: "assistant", text: "d" },
      { role: "user", text: "e" },
    ]);
  });

  it("keeps the encoded projection within maxBytes, dropping older turns whole", () => {
    const memory = new ConversationMemory({ maxTurns: 100, maxBytes: 120 });
    const turns = Array.from({ length: 20 }, (_, index) => user(`message number ${index}`));
    const projected = memory.project(turns);
    expect(Buffer.byteLength(JSON.stringify(projected), "utf8")).toBeLessThanOrEqual(120);
    expect(projected.at(-1)?.text).toBe("message number 19");
    expect(projected.length).toBeGreaterThan(1);
    expect(projected.every((turn) => turn.text.startsWith("message number"))).toBe(true);
    // One more byte of budget never yields fewer turns: the bound is by bytes, not a fixed count.
    expect(
      new ConversationMemory({ maxTurns: 100, maxBytes: 121 }).project(turns).length,
    ).toBeGreaterThanOrEqual(projected.length);
  });

  it("cuts only the newest turn when it alone is too large, without splitting characters", () => {
    const memory = new ConversationMemory({ maxTurns: 10, maxBytes: 60 });
    const projected = memory.project([user("older"), user("钻石".repeat(40))]);
    expect(projected).toHaveLength(1);
    expect(projected[0]?.text.endsWith("…")).toBe(true);
    expect(projected[0]?.text.startsWith("钻石")).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(projected), "utf8")).toBeLessThanOrEqual(60);
  });

  it("renders assistant messages, skips silent results and returns plain JSON", () => {
    const memory = new ConversationMemory({
      render: (text) => (text.kind === "literal" ? text.text : `[${text.key}]`),
    });
    const turns: ConversationTurn[] = [
      user("hi"),
      { role: "assistant", requestId: "x", at: 0, result: AgentResult.silent() },
      { role: "assistant", requestId: "y", at: 0, result: AgentResult.error(AgentFailure.BUSY) },
      { role: "assistant", requestId: "z", at: 0, result: AgentResult.success(translatable("a.b", 1)) },
    ];
    const json = memory.toJson(turns);
    expect(json).toEqual([
      { role: "user", text: "hi" },
      { role: "assistant", text: "[system.error.busy]" },
      { role: "assistant", text: "[a.b]" },
    ]);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it("round-trips turns through plain JSON for a store file and refuses malformed ones", () => {
    const turns = [user("hi"), assistant("hello")];
    for (const turn of turns) {
      const decoded = decodeTurn(JSON.parse(JSON.stringify(encodeTurn(turn))));
      expect(decoded.success && encodeTurn(decoded.value)).toEqual(encodeTurn(turn));
    }
    const back = decodeTurn(encodeTurn(assistant("hello")));
    expect(back.success && back.value.role === "assistant" && back.value.result.isSuccess()).toBe(true);
    expect(decodeTurn({ role: "system", text: "x" }).success).toBe(false);
    expect(
      decodeTurn({ role: "assistant", requestId: "r", at: 1, result: { status: "weird" } }).success,
    ).toBe(false);
  });
});
