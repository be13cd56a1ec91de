import { describe, expect, it } from "vitest";
import { ANSWER, FIND, PAY, SOURCE } from "../../../test/react/react-harness.js";
import { ReActDecisionCodec } from "./react-decision.js";
import { ReActTool } from "./react-tool.js";

const codec = new ReActDecisionCodec(
  [ReActTool.of(FIND, "Find an item."), ReActTool.of(SOURCE, "Sources of an item.")],
  ANSWER,
);
const decode = (text: string, finalOnly = false) => codec.decode(text, finalOnly);

describe("ReActDecisionCodec", () => {
  it("decodes a catalog action with its typed input, by full or default-namespace id", () => {
    const full = decode('{"type":"test:item.find","input":{"name":"diamond"}}');
    expect(full).toMatchObject({ success: true, value: { kind: "action", input: { name: "diamond" } } });
    expect(full.success && full.value.kind === "action" && full.value.tool.type).toBe(FIND);
  });

  it("decodes an answer through the workflow's answer codec", () => {
    expect(decode('{"type":"answer","text":"hi","sources":[1]}')).toEqual({
      success: true,
      value: { kind: "answer", answer: { text: "hi", sources: [1] } },
    });
    expect(decode('{"type":"answer","text":""}').success).toBe(false);
  });

  it("tolerates a Markdown code fence around the JSON", () => {
    expect(decode('```json\n{"type":"answer","text":"fenced"}\n```').success).toBe(true);
    expect(decode('  ```\n{"type":"answer","text":"fenced"}```  ').success).toBe(true);
  });

  it("refuses bad JSON, non-objects, missing or unknown types and uncatalogued tools", () => {
    for (const text of ["", "answer: hi", "[]", '"answer"', "{}", '{"type":3}', '{"type":"test:item.melt"}'])
      expect(decode(text).success, text).toBe(false);
    const outside = decode(JSON.stringify({ type: PAY.id.toString(), input: {} }));
    expect(outside).toMatchObject({ success: false });
    expect(!outside.success && outside.error).toContain("not an offered tool");
  });

  it("refuses an action whose input the tool codec rejects", () => {
    const result = decode('{"type":"test:item.find","input":{"name":42}}');
    expect(!result.success && result.error).toContain("input of test:item.find");
  });

  it("accepts only an answer in a finalOnly round, including an object with only the answer fields", () => {
    expect(decode('{"type":"test:item.find","input":{"name":"x"}}', true).success).toBe(false);
    expect(decode('{"text":"bare"}', true)).toMatchObject({
      success: true,
      value: { answer: { text: "bare" } },
    });
    expect(decode('{"text":"bare"}', false).success).toBe(false);
  });

  it("never throws on hostile replies", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(decode(deep).success).toBe(false);
    expect(decode("x".repeat(2_000_000)).success).toBe(false);
    expect(decode('{"type":"__proto__","input":{}}').success).toBe(false);
  });

  it("refuses a catalog that lists a tool twice", () => {
    expect(
      () => new ReActDecisionCodec([ReActTool.of(FIND, "a"), ReActTool.of(FIND, "b")], ANSWER),
    ).toThrow();
  });
});
