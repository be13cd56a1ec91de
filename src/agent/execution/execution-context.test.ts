import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TEST_POLICY as POLICY } from "../../../test/support/test-policy.js";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { Failure } from "../failure.js";
import type { ModelPort, ModelRequest } from "../model/model-client.js";
import { NoEffectException } from "../storage/no-effect.js";
import type { StepRunner } from "../storage/step-runner.js";
import { type AnyTool, Tool, type ToolScope } from "../tool/tool.js";
import { type AnyToolType, ToolType } from "../tool/tool-type.js";
import { ExecutionContext } from "./execution-context.js";
import type { ExecutionPolicy } from "./execution-policy.js";
import { INPUT_TOKEN_OVERHEAD } from "./policy-defaults.js";
import { fixedStanding } from "./standing.js";

const QUERY = codec(z.object({ query: z.string().min(1) }));
const IDS = codec(z.object({ ids: z.array(z.string()) }));
const FIND = ToolType.of("system:item.find", QUERY, IDS);
const GIVE = ToolType.of("system:item.give", QUERY, IDS);
const QUEST = ToolType.of("ftbquests:quest.find", QUERY, IDS);
const OWNER = "ftbquests:quests";

/** Tools that record every scope they were called with. */
const recorder = () => {
  const scopes: ToolScope[] = [];
  const handler = async (input: { query: string }, scope: ToolScope) => {
    scopes.push(scope);
    return { ids: [input.query] };
  };
  return {
    scopes,
    find: Tool.of(FIND, handler).asReadOnly() as unknown as AnyTool,
    give: Tool.of(GIVE, handler) as unknown as AnyTool,
    quest: Tool.of(QUEST, handler).asReadOnly().ownedBy(Identifier.parse(OWNER)) as unknown as AnyTool,
  };
};

interface Setup {
  readonly policy?: Partial<ExecutionPolicy>;
  readonly features?: readonly string[];
  readonly required?: readonly AnyTool[];
  readonly optional?: readonly AnyToolType[];
  readonly installed?: readonly AnyTool[];
  readonly model?: ModelPort;
  readonly steps?: StepRunner;
  readonly now?: () => number;
  readonly signal?: AbortSignal;
  readonly event?: boolean;
  readonly standing?: () => Failure | undefined;
}

const makeContext = (setup: Setup = {}): ExecutionContext => {
  const installed = new Map(
    [...(setup.installed ?? []), ...(setup.required ?? [])].map((tool) => [tool.id.toString(), tool]),
  );
  return new ExecutionContext({
    requestId: "req",
    playerId: "player-1",
    locale: "zh_cn",
    workflow: "system:test",
    owner: undefined,
    features: new Set(setup.features ?? []),
    policy: { ...POLICY, ...setup.policy },
    tools: {
      required: new Map((setup.required ?? []).map((tool) => [tool.id.toString(), tool])),
      optional: new Set((setup.optional ?? []).map((type) => type.id.toString())),
      lookup: (id) => installed.get(id),
    },
    model: setup.model,
    steps: setup.steps,
    signal: setup.signal,
    event: setup.event ?? false,
    ...(setup.standing === undefined
      ? {}
      : { standing: { ...fixedStanding(new Set(setup.features ?? [])), lost: setup.standing } }),
    ...(setup.now === undefined ? {} : { now: setup.now }),
  });
};

/** The failure an AgentException carries, or fails the test. */
const refusal = async (promise: Promise<unknown>): Promise<Failure> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentException);
    return (error as AgentException).failure();
  }
  throw new Error("expected a refusal");
};

const echoModel = (usage = { inputTokens: 10, outputTokens: 5 }) => {
  const requests: ModelRequest[] = [];
  const port: ModelPort = {
    call: async (request) => {
      requests.push(request);
      return { text: "ok", usage };
    },
  };
  return { requests, port };
};

describe("ExecutionContext.tool", () => {
  it("runs a declared tool with validated input and returns typed output", async () => {
    const tools = recorder();
    const context = makeContext({ required: [tools.find] });
    expect(await context.tool(FIND, "find", { query: "钻石" })).toEqual({ ids: ["钻石"] });
    const scope = tools.scopes[0] as ToolScope;
    expect([scope.playerId, scope.locale, scope.stepId, scope.event]).toEqual([
      "player-1",
      "zh_cn",
      "find",
      false,
    ]);
    expect(scope.signal).toBeInstanceOf(AbortSignal);
    expect(scope.requestId).toBe("req");
    expect(context.counters.snapshot()).toMatchObject({ toolCalls: 1, steps: 1, writeSteps: 0 });
  });

  it("refuses an undeclared type even when it is installed", async () => {
    const tools = recorder();
    const context = makeContext({ required: [tools.find], installed: [tools.give] });
    expect(await refusal(context.tool(GIVE, "give", { query: "x" }))).toEqual(
      AgentFailure.TOOL_NOT_ALLOWED.with("system:item.give"),
    );
    expect(tools.scopes).toHaveLength(0);
    expect(context.counters.toolCalls).toBe(0);
  });

  it("refuses another type object that only shares the id", async () => {
    const tools = recorder();
    const context = makeContext({ required: [tools.find] });
    const impostor = ToolType.of("system:item.find", QUERY, IDS);
    expect((await refusal(context.tool(impostor, "x", { query: "x" }))).code).toBe("TOOL_NOT_ALLOWED");
  });

  it("refuses a tool whose owner feature is disabled for this player", async () => {
    const tools = recorder();
    const context = makeContext({ required: [tools.quest], features: [] });
    expect(await refusal(context.tool(QUEST, "q", { query: "x" }))).toEqual(
      AgentFailure.MODULE_DISABLED.with(OWNER),
    );
    expect(tools.scopes).toHaveLength(0);
  });

  it("calls an optional tool only while its exporting feature is enabled", async () => {
    const tools = recorder();
    const enabled = makeContext({ optional: [QUEST], installed: [tools.quest], features: [OWNER] });
    expect(enabled.canUse(QUEST)).toBe(true);
    expect(await enabled.tool(QUEST, "q", { query: "x" })).toEqual({ ids: ["x"] });
    const disabled = makeContext({ optional: [QUEST], installed: [tools.quest], features: [] });
    expect(disabled.canUse(QUEST)).toBe(false);
    expect((await refusal(disabled.tool(QUEST, "q", { query: "x" }))).code).toBe("MODULE_DISABLED");
    const absent = makeContext({ optional: [QUEST], installed: [], features: [OWNER] });
    expect((await refusal(absent.tool(QUEST, "q", { query: "x" }))).code).toBe("TOOL_NOT_ALLOWED");
  });

  it("never runs an optional write tool", async () => {
    const tools = recorder();
    const context = makeContext({ optional: [GIVE], installed: [tools.give] });
    expect((await refusal(context.tool(GIVE, "g", { query: "x" }))).code).toBe("TOOL_NOT_ALLOWED");
  });

  it("refuses a write beyond writeSteps and charges read-only tools nothing there", async () => {
    const tools = recorder();
    const none = makeContext({ required: [tools.give], policy: { writeSteps: 0 } });
    expect(await refusal(none.tool(GIVE, "g", { query: "x" }))).toEqual(
      AgentFailure.budgetExhausted("writeSteps"),
    );
    expect(tools.scopes).toHaveLength(0);
    const one = makeContext({ required: [tools.give, tools.find], policy: { writeSteps: 1 } });
    await one.tool(GIVE, "g1", { query: "x" });
    await one.tool(FIND, "f1", { query: "x" });
    expect(await refusal(one.tool(GIVE, "g2", { query: "x" }))).toEqual(
      AgentFailure.budgetExhausted("writeSteps"),
    );
    expect(one.counters.snapshot()).toMatchObject({ toolCalls: 2, steps: 2, writeSteps: 1 });
  });

  it("refuses tool calls beyond toolCalls and steps, naming the dimension", async () => {
    const tools = recorder();
    const calls = makeContext({ required: [tools.find], policy: { toolCalls: 1 } });
    await calls.tool(FIND, "a", { query: "x" });
    expect(await refusal(calls.tool(FIND, "b", { query: "x" }))).toEqual(
      AgentFailure.budgetExhausted("toolCalls"),
    );
    const steps = makeContext({ required: [tools.find], policy: { steps: 1 } });
    await steps.tool(FIND, "a", { query: "x" });
    expect(await refusal(steps.tool(FIND, "b", { query: "x" }))).toEqual(
      AgentFailure.budgetExhausted("steps"),
    );
  });

  it("refuses after cancellation, by cancel() or by the request's signal", async () => {
    const tools = recorder();
    const context = makeContext({ required: [tools.find] });
    context.cancel();
    expect(await refusal(context.tool(FIND, "a", { query: "x" }))).toBe(AgentFailure.CANCELLED);
    const outer = new AbortController();
    const second = makeContext({ required: [tools.find], signal: outer.signal });
    outer.abort();
    expect(await refusal(second.tool(FIND, "a", { query: "x" }))).toBe(AgentFailure.CANCELLED);
    const early = new AbortController();
    early.abort();
    expect(
      await refusal(
        makeContext({ required: [tools.find], signal: early.signal }).tool(FIND, "a", { query: "x" }),
      ),
    ).toBe(AgentFailure.CANCELLED);
    expect(tools.scopes).toHaveLength(0);
  });

  it("aborts a running handler when the request is cancelled", async () => {
    let seen: AbortSignal | undefined;
    const hanging = Tool.of(FIND, (_input, scope) => {
      seen = scope.signal;
      return new Promise<never>(() => {});
    }).asReadOnly() as unknown as AnyTool;
    const context = makeContext({ required: [hanging] });
    const running = context.tool(FIND, "a", { query: "x" });
    await Promise.resolve();
    context.cancel();
    expect(await refusal(running)).toBe(AgentFailure.CANCELLED);
    expect(seen?.aborted).toBe(true);
  });

  it("awaits a write tool that settles on abort: a give cancelled before it began reports no effect", async () => {
    const settling = Tool.of(GIVE, (_input, scope) => {
      return new Promise<{ ids: string[] }>((_resolve, reject) => {
        scope.signal.addEventListener("abort", () =>
          // after a turn, as a handler that first learns nothing was sent
          setTimeout(() => reject(new NoEffectException(AgentFailure.EFFECT_DEFERRED.with("stopped"))), 20),
        );
      });
    }).settlingOnAbort() as unknown as AnyTool;
    const context = makeContext({ required: [settling] });
    const running = context.tool(GIVE, "a", { query: "x" });
    await Promise.resolve();
    context.cancel();
    // not raced to CANCELLED (which would leave its receipt RUNNING, unknown): the handler's own answer
    const failure = await refusal(running);
    expect(failure.code).toBe(AgentFailure.EFFECT_DEFERRED.code);
  });

  it("refuses after the deadline (injected clock)", async () => {
    const tools = recorder();
    let now = 1_000;
    const context = makeContext({ required: [tools.find], policy: { ttlMillis: 500 }, now: () => now });
    expect(context.deadline).toBe(1_500);
    await context.tool(FIND, "a", { query: "x" });
    now = 1_500;
    expect(await refusal(context.tool(FIND, "b", { query: "x" }))).toBe(AgentFailure.TIMEOUT);
    expect(tools.scopes).toHaveLength(1);
  });

  it("runs an in-process read under the request's own signal, with no race of its own; the deadline holds after", async () => {
    let now = 1_000;
    const signals: AbortSignal[] = [];
    const own = Tool.of(FIND, async (input, scope) => {
      signals.push(scope.signal);
      now = 2_000;
      return { ids: [input.query] };
    })
      .asReadOnly()
      .withOwnOutput() as unknown as AnyTool;
    const context = makeContext({ required: [own], policy: { ttlMillis: 500 }, now: () => now });
    expect(await refusal(context.tool(FIND, "a", { query: "x" }))).toBe(AgentFailure.TIMEOUT);
    expect(signals).toEqual([context.signal]);
  });

  it("refuses a write that has not begun by the deadline as still owed (no effect, deferred), never unknown", async () => {
    const tools = recorder();
    let now = 1_000;
    const context = makeContext({ required: [tools.give], policy: { ttlMillis: 500 }, now: () => now });
    now = 1_500;
    const error = await context.tool(GIVE, "a", { query: "x" }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(NoEffectException);
    expect(AgentException.failure(error).code).toBe(AgentFailure.EFFECT_DEFERRED.code);
    expect(AgentException.failure(error).args).toEqual([AgentFailure.TIMEOUT.code]);
    expect(tools.scopes).toHaveLength(0);
  });

  it("returns a write's result when the request ran out of time while it ran: the effect happened", async () => {
    let now = 1_000;
    const slowGive = Tool.of(GIVE, async (input) => {
      now = 2_000;
      return { ids: [input.query] };
    }) as unknown as AnyTool;
    const context = makeContext({ required: [slowGive], policy: { ttlMillis: 500 }, now: () => now });
    expect(await context.tool(GIVE, "a", { query: "x" })).toEqual({ ids: ["x"] });
    // the workflow's next step is refused
    expect(() => context.checkAlive()).toThrow();
  });

  it("refuses invalid input without charging the budget, and invalid output as MODULE_FAILED", async () => {
    const tools = recorder();
    const context = makeContext({ required: [tools.find] });
    const failure = await refusal(context.tool(FIND, "a", { query: "" }));
    expect(failure.code).toBe("INPUT_INVALID");
    expect(failure.args[0]).toContain("query");
    expect(context.counters.toolCalls).toBe(0);
    const broken = Tool.of(FIND, async () => ({ ids: "nope" }) as unknown as { ids: string[] }).asReadOnly();
    const second = makeContext({ required: [broken as unknown as AnyTool] });
    expect((await refusal(second.tool(FIND, "a", { query: "x" }))).code).toBe("MODULE_FAILED");
  });

  it("returns a read-only tool's own output as it is, and still decodes a write tool's", async () => {
    const made = { ids: ["a"], extra: true };
    const own = Tool.of(FIND, async () => made)
      .asReadOnly()
      .withOwnOutput();
    const context = makeContext({ required: [own as unknown as AnyTool] });
    expect(await context.tool(FIND, "a", { query: "x" })).toBe(made);
    const write = Tool.of(
      GIVE,
      async () => ({ ids: "nope" }) as unknown as { ids: string[] },
    ).withOwnOutput();
    const second = makeContext({ required: [write as unknown as AnyTool] });
    expect((await refusal(second.tool(GIVE, "a", { query: "x" }))).code).toBe("MODULE_FAILED");
  });

  it("in an event task, runs only tools allowed in events", async () => {
    const tools = recorder();
    const allowed = tools.find.allowInEvents();
    const context = makeContext({ required: [tools.give, allowed], event: true });
    expect((await refusal(context.tool(GIVE, "g", { query: "x" }))).code).toBe("TOOL_NOT_ALLOWED");
    await context.tool(FIND, "f", { query: "x" });
    expect(tools.scopes[0]?.event).toBe(true);
  });

  it("checks the player's standing before the call", async () => {
    const tools = recorder();
    let standing: Failure | undefined;
    const context = makeContext({ required: [tools.find], standing: () => standing });
    await context.tool(FIND, "a", { query: "x" });
    standing = AgentFailure.REVOKED;
    expect(await refusal(context.tool(FIND, "b", { query: "x" }))).toBe(AgentFailure.REVOKED);
  });

  it("runs write tools through the durable step runner with the request's step key", async () => {
    const tools = recorder();
    const keys: string[] = [];
    const steps: StepRunner = {
      run: async (key, _tool, _input, effect) => {
        keys.push(key);
        return effect();
      },
    };
    const context = makeContext({ required: [tools.give, tools.find], steps });
    await context.tool(FIND, "read", { query: "x" });
    await context.tool(GIVE, "credit", { query: "x" });
    expect(keys).toEqual(["req/credit"]);
  });
});

describe("ExecutionContext with an unchecked policy", () => {
  it("fails closed when a limit is NaN", async () => {
    const tools = recorder();
    const model = echoModel();
    const broken = (field: keyof ExecutionPolicy) =>
      makeContext({ required: [tools.find], model: model.port, policy: { [field]: Number.NaN } });
    expect(await refusal(broken("toolCalls").tool(FIND, "a", { query: "x" }))).toEqual(
      AgentFailure.budgetExhausted("toolCalls"),
    );
    expect(await refusal(broken("totalTokens").model({ system: "s", user: {} }))).toEqual(
      AgentFailure.budgetExhausted("totalTokens"),
    );
    expect(await refusal(broken("inputBytes").model({ system: "s", user: {} }))).toEqual(
      AgentFailure.budgetExhausted("inputBytes"),
    );
    expect(await refusal(broken("ttlMillis").tool(FIND, "a", { query: "x" }))).toBe(AgentFailure.TIMEOUT);
    expect(tools.scopes).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });
});

describe("ExecutionContext input bytes", () => {
  it("checkInput counts UTF-8 bytes: a Chinese character is 3 bytes", () => {
    const context = makeContext({ policy: { inputBytes: 9 } });
    context.checkInput("钻石块"); // 3 characters, 9 bytes
    context.checkInput("123456789");
    let failure: Failure | undefined;
    try {
      context.checkInput("钻石钻石"); // 4 characters, 12 bytes
    } catch (error) {
      failure = AgentException.failure(error);
    }
    expect(failure).toEqual(AgentFailure.INPUT_TOO_LARGE.with(12, 9));
  });

  it("model requests count system text plus user JSON in UTF-8", async () => {
    const model = echoModel();
    const user = { q: "钻石" }; // {"q":"钻石"} = 8 ASCII bytes + 6
    const exact = 6 + 14;
    const context = makeContext({ model: model.port, policy: { inputBytes: exact } });
    await context.model({ system: "系统", user });
    const over = makeContext({ model: model.port, policy: { inputBytes: exact - 1 } });
    expect(await refusal(over.model({ system: "系统", user }))).toEqual(
      AgentFailure.budgetExhausted("inputBytes"),
    );
    expect(model.requests).toHaveLength(1);
    expect(over.counters.modelCalls).toBe(0);
  });
});

describe("ExecutionContext.model", () => {
  it("refuses without a model port, saying no model is configured (nothing to try again later)", async () => {
    expect(await refusal(makeContext().model({ system: "s", user: {} }))).toEqual(
      AgentFailure.modelNotConfigured(),
    );
    expect(AgentFailure.modelNotConfigured()).toMatchObject({
      code: AgentFailure.MODEL_UNAVAILABLE.code,
      key: "system.error.model_not_configured",
    });
  });

  it("counts model calls and steps and refuses beyond modelCalls", async () => {
    const model = echoModel();
    const context = makeContext({ model: model.port, policy: { modelCalls: 2 } });
    await context.model({ system: "s", user: {}, routing: true });
    await context.model({ system: "s", user: {} });
    expect(await refusal(context.model({ system: "s", user: {} }))).toEqual(
      AgentFailure.budgetExhausted("modelCalls"),
    );
    expect(context.counters.snapshot()).toMatchObject({
      modelCalls: 2,
      steps: 2,
      inputTokens: 20,
      outputTokens: 10,
    });
    expect(context.counters.routingCalls).toBe(1);
  });

  it("passes the per-call timeout, the signal and an output cap within what is left", async () => {
    const model = echoModel({ inputTokens: 10, outputTokens: 60 });
    const context = makeContext({
      model: model.port,
      policy: { outputTokens: 100, modelTimeoutMillis: 3_000 },
    });
    await context.model({ system: "s", user: {}, maxOutputTokens: 80 });
    await context.model({ system: "s", user: {}, maxOutputTokens: 80 });
    const [first, second] = model.requests;
    expect(first?.maxOutputTokens).toBe(80);
    expect(second?.maxOutputTokens).toBe(40);
    expect(first?.timeoutMillis).toBe(3_000);
    expect(first?.signal).toBeInstanceOf(AbortSignal);
    expect(await refusal(context.model({ system: "s", user: {} }))).toEqual(
      AgentFailure.budgetExhausted("outputTokens"),
    );
  });

  it("reserves the worst-case input against totalTokens so honest usage never passes it", async () => {
    const model = echoModel({ inputTokens: 0, outputTokens: 0 });
    const bytes = 2 + 1; // "{}" and "s"
    const total = bytes + INPUT_TOKEN_OVERHEAD + 5;
    const context = makeContext({ model: model.port, policy: { totalTokens: total } });
    await context.model({ system: "s", user: {} });
    expect(model.requests[0]?.maxOutputTokens).toBe(5);
    const tight = makeContext({ model: model.port, policy: { totalTokens: bytes + INPUT_TOKEN_OVERHEAD } });
    expect(await refusal(tight.model({ system: "s", user: {} }))).toEqual(
      AgentFailure.budgetExhausted("totalTokens"),
    );
  });

  it("holds a reservation while a call runs, so parallel calls cannot overrun totalTokens together", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const port: ModelPort = {
      call: async () => {
        await gate;
        return { text: "ok", usage: { inputTokens: 1, outputTokens: 1 } };
      },
    };
    const reserve = 3 + INPUT_TOKEN_OVERHEAD; // "s" + "{}"
    const context = makeContext({ model: port, policy: { totalTokens: reserve + 10 + reserve } });
    const first = context.model({ system: "s", user: {}, maxOutputTokens: 10 });
    expect(await refusal(context.model({ system: "s", user: {} }))).toEqual(
      AgentFailure.budgetExhausted("totalTokens"),
    );
    release();
    await first;
    expect(context.counters.pendingTokens).toBe(0);
    expect(context.counters.totalTokens).toBe(2);
  });

  it("treats a maxOutputTokens that is not a finite number as 'whatever is left'", async () => {
    const model = echoModel();
    const context = makeContext({ model: model.port, policy: { outputTokens: 30 } });
    await context.model({ system: "s", user: {}, maxOutputTokens: Number.NaN });
    await context.model({ system: "s", user: {}, maxOutputTokens: 2.7 });
    expect(model.requests.map((request) => request.maxOutputTokens)).toEqual([30, 2]);
    expect(context.counters.pendingTokens).toBe(0);
  });

  it("charges a usage figure that is not a number at the reservation", async () => {
    const port: ModelPort = {
      call: async () => ({
        text: "ok",
        usage: { inputTokens: Number.NaN, outputTokens: Number.POSITIVE_INFINITY },
      }),
    };
    const context = makeContext({ model: port, policy: { outputTokens: 50 } });
    await context.model({ system: "s", user: {}, maxOutputTokens: 7 });
    expect(context.counters.inputTokens).toBe(3 + INPUT_TOKEN_OVERHEAD);
    expect(context.counters.outputTokens).toBe(7);
  });

  it("stops a model call that outlives modelTimeoutMillis and aborts its signal", async () => {
    let seen: AbortSignal | undefined;
    const port: ModelPort = {
      call: (request) => {
        seen = request.signal;
        return new Promise(() => {});
      },
    };
    const context = makeContext({ model: port, policy: { modelTimeoutMillis: 20 } });
    expect(await refusal(context.model({ system: "s", user: {} }))).toBe(AgentFailure.TIMEOUT);
    expect(seen?.aborted).toBe(true);
  });

  it("cancellation reaches a running model call", async () => {
    let seen: AbortSignal | undefined;
    const port: ModelPort = {
      call: (request) => {
        seen = request.signal;
        return new Promise(() => {});
      },
    };
    const context = makeContext({ model: port });
    const running = context.model({ system: "s", user: {} });
    await Promise.resolve();
    context.cancel();
    expect(await refusal(running)).toBe(AgentFailure.CANCELLED);
    expect(seen?.aborted).toBe(true);
  });

  it("the per-call timeout never outlives the request deadline", async () => {
    const model = echoModel();
    const now = 0;
    const context = makeContext({
      model: model.port,
      policy: { ttlMillis: 1_000, modelTimeoutMillis: 5_000 },
      now: () => now,
    });
    await context.model({ system: "s", user: {} });
    expect(model.requests[0]?.timeoutMillis).toBe(1_000);
  });
});

describe("ExecutionContext.child", () => {
  it("shares the counters with the parent", async () => {
    const tools = recorder();
    const parent = makeContext({ required: [tools.find], policy: { toolCalls: 2 } });
    const child = parent.child({ workflow: "system:nested", stepPrefix: "free" });
    expect(child.counters).toBe(parent.counters);
    await child.tool(FIND, "a", { query: "x" });
    await parent.tool(FIND, "b", { query: "x" });
    expect(await refusal(child.tool(FIND, "c", { query: "x" }))).toEqual(
      AgentFailure.budgetExhausted("toolCalls"),
    );
  });

  it("may only tighten the policy", () => {
    const parent = makeContext();
    const child = parent.child({
      workflow: "w",
      stepPrefix: "c",
      policy: { toolCalls: 3, steps: 500, writeSteps: 9 },
    });
    expect(child.policy.toolCalls).toBe(3);
    expect(child.policy.steps).toBe(POLICY.steps);
    expect(child.policy.writeSteps).toBe(POLICY.writeSteps);
    expect(child.deadline).toBeLessThanOrEqual(parent.deadline);
  });

  it("spends its own budget from where the request stands, never past what the parent has left", async () => {
    const tools = recorder();
    const parent = makeContext({ required: [tools.find], policy: { toolCalls: 3 } });
    await parent.tool(FIND, "a", { query: "x" });
    await parent.tool(FIND, "b", { query: "x" });
    // its own budget would allow 4 more; the parent has 1 left
    const greedy = parent.child({ workflow: "w", stepPrefix: "g", policy: { toolCalls: 4 } });
    expect(greedy.policy.toolCalls).toBe(3);
    await greedy.tool(FIND, "c", { query: "x" });
    expect(await refusal(greedy.tool(FIND, "d", { query: "x" }))).toEqual(
      AgentFailure.budgetExhausted("toolCalls"),
    );
    expect(greedy.depth).toBe(1);
    expect(greedy.child({ workflow: "w", stepPrefix: "h" }).depth).toBe(2);
  });

  it("limits a child to its own budget even when the parent has more", async () => {
    const tools = recorder();
    const parent = makeContext({ required: [tools.find], policy: { toolCalls: 10 } });
    await parent.tool(FIND, "a", { query: "x" });
    await parent.tool(FIND, "b", { query: "x" });
    const child = parent.child({ workflow: "w", stepPrefix: "c", policy: { toolCalls: 1 } });
    await child.tool(FIND, "c", { query: "x" });
    expect(await refusal(child.tool(FIND, "d", { query: "x" }))).toEqual(
      AgentFailure.budgetExhausted("toolCalls"),
    );
    await parent.tool(FIND, "e", { query: "x" });
    expect(parent.counters.toolCalls).toBe(4);
  });

  it("prefixes its step ids, nested prefixes included", async () => {
    const tools = recorder();
    const keys: string[] = [];
    const steps: StepRunner = {
      run: async (key, _tool, _input, effect) => {
        keys.push(key);
        return effect();
      },
    };
    const parent = makeContext({ required: [tools.give], steps, policy: { writeSteps: 3 } });
    const child = parent.child({ workflow: "w", stepPrefix: "shop" });
    const grandchild = child.child({ workflow: "w", stepPrefix: "pay" });
    await parent.tool(GIVE, "credit", { query: "x" });
    await child.tool(GIVE, "credit", { query: "x" });
    await grandchild.tool(GIVE, "credit", { query: "x" });
    expect(keys).toEqual(["req/credit", "req/shop/credit", "req/shop/pay/credit"]);
    expect(tools.scopes.map((scope) => scope.stepId)).toEqual(["credit", "shop/credit", "shop/pay/credit"]);
  });

  it("is cancelled with its parent", async () => {
    const tools = recorder();
    const parent = makeContext({ required: [tools.find] });
    const child = parent.child({ workflow: "w", stepPrefix: "c" });
    parent.cancel();
    expect(child.signal.aborted).toBe(true);
    expect(await refusal(child.tool(FIND, "a", { query: "x" }))).toBe(AgentFailure.CANCELLED);
  });
});
