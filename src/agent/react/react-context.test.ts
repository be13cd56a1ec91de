import { describe, expect, it } from "vitest";
import { ANSWER, createHarness, FIND, PAY, PROMPT, SOURCE } from "../../../test/react/react-harness.js";
import type { ModelPort } from "../model/model-client.js";
import { ReActContext } from "./react-context.js";
import { ReActTool } from "./react-tool.js";

const unusedModel: ModelPort = {
  call: () => Promise.reject(new Error("no model in this test")),
};

describe("ReActContext", () => {
  const harness = createHarness({ model: unusedModel, policy: { reactIterations: 5 } });

  it("offers only actions whose tools the loop's ToolContext holds", () => {
    const execution = harness.context();
    const react = ReActContext.create(execution, {
      question: "q",
      prompt: PROMPT,
      tools: execution.tools(FIND, PAY),
      catalog: [
        ReActTool.of(FIND, "Find."),
        ReActTool.of(SOURCE, "Source."),
        ReActTool.of(PAY, "Find then source, then pay.").withHandler(
          async () => ({ paid: false }),
          [FIND, SOURCE],
        ),
      ],
      answer: ANSWER,
    });
    expect(react.catalog.map((tool) => tool.id)).toEqual([FIND.id.toString()]);
    expect((react.userJson(false).tools as { type: string }[]).map((tool) => tool.type)).toEqual([
      FIND.id.toString(),
    ]);
    expect(react.userJson(true).tools).toEqual([]);
  });

  it("reads the round limit from the request's policy snapshot and keeps observations typed", () => {
    const execution = harness.context();
    const tool = ReActTool.of(FIND, "Find.").withProjection((output) => output.item.toUpperCase());
    const react = ReActContext.create(execution, {
      question: "q",
      prompt: PROMPT,
      tools: execution.tools(FIND, SOURCE),
      catalog: [tool],
      answer: ANSWER,
      facts: { allowedSources: [1, 2] },
    });
    expect(react.rounds).toBe(5);
    react.nextRound();
    react.observe(tool, { name: "diamond" }, { item: "minecraft:diamond" });
    expect(react.observationsOf(FIND)[0]?.output.item).toBe("minecraft:diamond");
    expect(react.observationsOf(SOURCE)).toEqual([]);
    expect(react.hasEvidence).toBe(true);
    expect(react.userJson(false)).toMatchObject({
      context: { allowedSources: [1, 2] },
      observations: [{ round: 1, tool: "test:item.find", result: "MINECRAFT:DIAMOND" }],
      round: 1,
      rounds: 5,
      finalOnly: false,
    });
  });
});
