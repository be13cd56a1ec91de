import { describe, expect, it } from "vitest";
import { stripReasoning } from "./reasoning-filter.js";

describe("stripReasoning", () => {
  it("removes every think block, with attributes and any case", () => {
    expect(stripReasoning('<think>a</think>{"x":1}<THINK type="r">b\nc</THINK >')).toBe('{"x":1}');
  });
  it("drops an unterminated think block cut off by max_tokens", () => {
    expect(stripReasoning('{"type":"answer"}\n<think>still thinking')).toBe('{"type":"answer"}');
  });
  it("drops reasoning before a lone closing tag (templates that omit the opening tag)", () => {
    expect(stripReasoning('I should search first.</think>\n{"type":"answer","text":"hi"}')).toBe(
      '{"type":"answer","text":"hi"}',
    );
  });
  it("keeps ordinary text untouched apart from trimming", () => {
    expect(stripReasoning('  {"text":"thinking about <b>"}  ')).toBe('{"text":"thinking about <b>"}');
  });
});
