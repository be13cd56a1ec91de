import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import { ExecutionContext } from "../execution/execution-context.js";
import { SIMPLE_POLICY } from "../execution/policy-defaults.js";
import type { Failure } from "../failure.js";
import { type AnyTool, Tool, type ToolScope } from "./tool.js";
import { type AnyToolType, ToolType } from "./tool-type.js";

const QUERY = codec(z.object({ query: z.string() }));
const IDS = codec(z.array(z.string()));
const FIND = ToolType.of("system:item.find", QUERY, IDS);
const SOURCE = ToolType.of("system:item.source", QUERY, IDS);
const QUEST = ToolType.of("ftbquests:quest.find", QUERY, IDS);
const UNDECLARED = ToolType.of("system:other", QUERY, IDS);

const setup = (features: readonly string[]) => {
  const stepIds: string[] = [];
  const handler = async (input: { query: string }, scope: ToolScope) => {
    stepIds.push(scope.stepId);
    return [input.query];
  };
  const tools = [
    Tool.of(FIND, handler).asReadOnly(),
    Tool.of(SOURCE, handler).asReadOnly(),
    Tool.of(QUEST, handler).asReadOnly().ownedBy(Identifier.parse("ftbquests:quests")),
  ] as unknown as AnyTool[];
  const context = new ExecutionContext({
    requestId: "req",
    playerId: "p",
    locale: "en_us",
    workflow: "system:reasoning",
    owner: undefined,
    features: new Set(features),
    policy: SIMPLE_POLICY,
    tools: {
      required: new Map(tools.slice(0, 2).map((tool) => [tool.id.toString(), tool])),
      optional: new Set([QUEST.id.toString()]),
      lookup: (id) => tools.find((tool) => tool.id.toString() === id),
    },
  });
  return { context, stepIds };
};

const failureOf = async (promise: Promise<unknown>): Promise<Failure> =>
  promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => AgentException.failure(error),
  );

describe("ToolContext", () => {
  it("holds a frozen subset of declared types and gives each loop its own step-id prefix", async () => {
    const { context, stepIds } = setup([]);
    const first = context.tools(FIND as AnyToolType, SOURCE as AnyToolType);
    const second = context.tools(FIND as AnyToolType);
    expect(first.types().map(String)).toEqual(["system:item.find", "system:item.source"]);
    await first.call(FIND, { query: "a" });
    await first.call(SOURCE, { query: "b" });
    await second.call(FIND, { query: "c" });
    expect(stepIds).toEqual(["loop1/1", "loop1/2", "loop2/1"]);
    expect(context.counters.toolCalls).toBe(3);
  });

  it("refuses to build over an undeclared type", () => {
    const { context } = setup([]);
    let failure: Failure | undefined;
    try {
      context.tools(UNDECLARED as AnyToolType);
    } catch (error) {
      failure = AgentException.failure(error);
    }
    expect(failure).toEqual(AgentFailure.TOOL_NOT_ALLOWED.with("system:other"));
  });

  it("refuses a declared type that is not in this loop's subset", async () => {
    const { context } = setup([]);
    const tools = context.tools(FIND as AnyToolType);
    expect(tools.has("system:item.source")).toBe(false);
    expect((await failureOf(tools.call(SOURCE, { query: "x" }))).code).toBe("TOOL_NOT_ALLOWED");
  });

  it("leaves out optional tools whose feature is disabled for the player, and keeps them when enabled", async () => {
    const disabled = setup([]).context.tools(FIND as AnyToolType, QUEST as AnyToolType);
    expect(disabled.types().map(String)).toEqual(["system:item.find"]);
    expect((await failureOf(disabled.call(QUEST, { query: "x" }))).code).toBe("TOOL_NOT_ALLOWED");
    const enabled = setup(["ftbquests:quests"]);
    const tools = enabled.context.tools(QUEST as AnyToolType);
    expect(tools.get("ftbquests:quest.find")).toBe(QUEST);
    expect(await tools.call(QUEST, { query: "q" })).toEqual(["q"]);
  });

  it("still goes through the context: budgets and cancellation apply", async () => {
    const { context } = setup([]);
    const tools = context.tools(FIND as AnyToolType);
    context.cancel();
    expect(await failureOf(tools.call(FIND, { query: "x" }))).toBe(AgentFailure.CANCELLED);
  });

  it("keeps the handler it froze at its start when a reload registers another one mid-loop", async () => {
    const features = new Set(["ftbquests:quests"]);
    const calls: string[] = [];
    const handlerOf = (name: string) => async (input: { query: string }) => {
      calls.push(name);
      return [input.query];
    };
    let current = Tool.of(QUEST, handlerOf("before reload"))
      .asReadOnly()
      .ownedBy(Identifier.parse("ftbquests:quests")) as unknown as AnyTool;
    const context = new ExecutionContext({
      requestId: "req",
      playerId: "p",
      locale: "en_us",
      workflow: "system:reasoning",
      owner: undefined,
      features,
      policy: SIMPLE_POLICY,
      tools: { required: new Map(), optional: new Set([QUEST.id.toString()]), lookup: () => current },
    });
    const tools = context.tools(QUEST as AnyToolType);
    await tools.call(QUEST, { query: "a" });
    // a reload swaps the registered handler: this loop keeps calling the one it started with
    current = Tool.of(QUEST, handlerOf("after reload"))
      .asReadOnly()
      .ownedBy(Identifier.parse("ftbquests:quests")) as unknown as AnyTool;
    await tools.call(QUEST, { query: "b" });
    expect(calls).toEqual(["before reload", "before reload"]);
    // a new loop takes the new one
    await context.tools(QUEST as AnyToolType).call(QUEST, { query: "c" });
    expect(calls.at(-1)).toBe("after reload");
  });

  it("checks again the features of every tool it called: one switched off since refuses the answer", async () => {
    const features = new Set(["ftbquests:quests"]);
    const { context } = setup([]);
    const own = new ExecutionContext({
      requestId: "req",
      playerId: "p",
      locale: "en_us",
      workflow: "system:reasoning",
      owner: undefined,
      features,
      policy: SIMPLE_POLICY,
      tools: {
        required: new Map(),
        optional: new Set([QUEST.id.toString()]),
        lookup: () =>
          Tool.of(QUEST, async () => ["x"])
            .asReadOnly()
            .ownedBy(Identifier.parse("ftbquests:quests")) as unknown as AnyTool,
      },
    });
    const tools = own.tools(QUEST as AnyToolType);
    await tools.call(QUEST, { query: "q" });
    tools.checkUsed();
    features.delete("ftbquests:quests");
    let failure: Failure | undefined;
    try {
      tools.checkUsed();
    } catch (error) {
      failure = AgentException.failure(error);
    }
    expect(failure).toEqual(AgentFailure.MODULE_DISABLED.with("ftbquests:quests"));
    // a loop that called no tool of that feature has nothing to refuse
    context.tools(FIND as AnyToolType).checkUsed();
  });
});
