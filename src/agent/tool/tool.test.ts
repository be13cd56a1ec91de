import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { Tool } from "./tool.js";
import { ToolObservation } from "./tool-observation.js";
import { ToolType } from "./tool-type.js";

const FIND = ToolType.of(
  "system:item.find",
  codec(z.object({ query: z.string() })),
  codec(z.object({ ids: z.array(z.string()) })),
);

describe("Tool", () => {
  it("is one type and one handler; write, not idempotent, not for events by default", () => {
    const tool = Tool.of(FIND, async () => ({ ids: [] }));
    expect(tool.id.toString()).toBe("system:item.find");
    expect([tool.readOnly, tool.idempotent, tool.allowedInEvents]).toEqual([false, false, false]);
    expect(tool.owner).toBeUndefined();
    expect(tool.reasoningDescription).toBeUndefined();
  });

  it("flag methods return new tools and leave the original alone", () => {
    const base = Tool.of(FIND, async () => ({ ids: [] }));
    const owner = Identifier.parse("system:items");
    const flagged = base.asReadOnly().allowInEvents().ownedBy(owner).forReasoning("Find items");
    expect(base.readOnly).toBe(false);
    expect(flagged).not.toBe(base);
    expect(flagged.handler).toBe(base.handler);
    expect([flagged.readOnly, flagged.idempotent, flagged.allowedInEvents]).toEqual([true, true, true]);
    expect(flagged.owner).toBe(owner);
    expect(flagged.reasoningDescription).toBe("Find items");
    expect(base.asIdempotent().idempotent).toBe(true);
    expect(base.asIdempotent().readOnly).toBe(false);
  });

  it("ToolType.of parses string ids and refuses bad ones", () => {
    expect(FIND.toString()).toBe("system:item.find");
    expect(() => ToolType.of("Bad Id", FIND.input, FIND.output)).toThrow(/invalid identifier/);
  });
});

describe("ToolObservation", () => {
  it("keeps typed input and output and projects them through the codecs", () => {
    const observation = new ToolObservation(FIND, { query: "钻石" }, { ids: ["minecraft:diamond"] });
    expect(observation.input.query).toBe("钻石");
    expect(observation.output.ids).toEqual(["minecraft:diamond"]);
    expect(observation.project()).toEqual({
      tool: "system:item.find",
      input: { query: "钻石" },
      result: { ids: ["minecraft:diamond"] },
    });
  });

  it("uses a custom projection for the model when given one", () => {
    const observation = new ToolObservation(FIND, { query: "x" }, { ids: ["a", "b"] }, (output) => ({
      count: output.ids.length,
    }));
    expect(observation.project()).toMatchObject({ result: { count: 2 } });
    expect(observation.output.ids).toEqual(["a", "b"]);
  });
});
