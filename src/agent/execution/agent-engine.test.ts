import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { MemoryLogger } from "../../util/logger.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import { customFailure } from "../failure.js";
import { AbstractAgentModule } from "../module/abstract-agent-module.js";
import { ActionType } from "../module/action-type.js";
import { literal } from "../text.js";
import { AgentEngine, type ExecutionRequest } from "./agent-engine.js";
import { BudgetCounters } from "./budget-counters.js";
import type { ExecutionContext } from "./execution-context.js";
import { SIMPLE_POLICY } from "./policy-defaults.js";

interface Input {
  readonly mode: string;
}
const INPUT = codec<Input>(z.object({ mode: z.string().min(1) }));

/** A workflow whose behaviour is chosen by its input. */
class Scripted extends AbstractAgentModule<Input> {
  runs: ExecutionContext[] = [];
  constructor(id: string, options: { owner?: string; interactive?: boolean; event?: boolean } = {}) {
    super({
      action: ActionType.of(id, INPUT),
      description: "Scripted.",
      ...(options.owner === undefined ? {} : { owner: Identifier.parse(options.owner) }),
      ...(options.interactive === undefined ? {} : { interactive: options.interactive }),
      ...(options.event === undefined ? {} : { event: options.event, eventTypes: ["system:tick"] }),
    });
  }
  async run(input: Input, context: ExecutionContext): Promise<AgentResult> {
    this.runs.push(context);
    switch (input.mode) {
      case "partial":
        return AgentResult.success(literal("half")).partial(AgentFailure.budgetExhausted("steps"));
      case "throw":
        throw new TypeError("bug in module");
      case "throw-string":
        throw "not an error";
      case "custom":
        throw new Error("wrapped", {
          cause: new AgentException(customFailure("SHOP_CLOSED", "shop.closed")),
        });
      default:
        return AgentResult.success(literal(input.mode));
    }
  }
}

const request = (overrides: Partial<ExecutionRequest> = {}): ExecutionRequest => ({
  requestId: "r",
  playerId: "p",
  locale: "en_us",
  features: new Set(["system:core"]),
  ...overrides,
});

const engineWith = (...modules: Scripted[]) => {
  const logger = new MemoryLogger();
  const engine = new AgentEngine({ logger });
  engine.registerEventType("system:tick");
  for (const module of modules) engine.registerModule(module);
  engine.start();
  return { engine, logger };
};

describe("AgentEngine.execute", () => {
  it("runs the module of the action and returns its result", async () => {
    const module = new Scripted("system:echo");
    const { engine } = engineWith(module);
    const result = await engine.execute(module.action.action({ mode: "hello" }), request());
    expect(result.isSuccess()).toBe(true);
    expect(result.message).toEqual(literal("hello"));
    expect(module.runs[0]?.policy).toBe(SIMPLE_POLICY);
  });

  it("runs a parsed command's input as decoded, and decodes any other action's input itself", async () => {
    const module = new Scripted("system:echo");
    const { engine } = engineWith(module);
    const decode = vi.spyOn(module.action.codec, "decode");
    // what the command registry hands over: its codec decoded it already
    const parsed = await engine.execute(module.action.decoded({ mode: "parsed" }), request());
    expect(parsed.isSuccess()).toBe(true);
    expect(decode).not.toHaveBeenCalled();
    // a route's or a button's input is data from outside
    const routed = await engine.execute(module.action.action({ mode: "routed" }), request());
    expect(routed.isSuccess()).toBe(true);
    expect(decode).toHaveBeenCalledTimes(1);
    const bad = await engine.execute(module.action.action({ mode: "" }), request());
    expect(bad.failure?.code).toBe(AgentFailure.INPUT_INVALID.code);
  });

  it("returns MODULE_DISABLED when the owning feature is disabled for the player, without running it", async () => {
    const module = new Scripted("system:shop", { owner: "system:commerce" });
    const { engine } = engineWith(module);
    const result = await engine.execute(module.action.action({ mode: "x" }), request());
    expect(result.failure).toEqual(AgentFailure.MODULE_DISABLED.with("system:commerce"));
    expect(module.runs).toHaveLength(0);
    const allowed = await engine.execute(
      module.action.action({ mode: "x" }),
      request({ features: new Set(["system:commerce"]) }),
    );
    expect(allowed.isSuccess()).toBe(true);
  });

  it("reports partial success as partially_succeeded (a failure) and logs it", async () => {
    const module = new Scripted("system:echo");
    const { engine, logger } = engineWith(module);
    const result = await engine.execute(module.action.action({ mode: "partial" }), request());
    expect(result.status).toBe("partially_succeeded");
    expect(result.isFailure()).toBe(true);
    expect(result.failure?.args).toEqual(["steps"]);
    expect(logger.has("system:echo partially succeeded")).toBe(true);
  });

  it("turns a module that throws into MODULE_FAILED and never rejects", async () => {
    const module = new Scripted("system:echo");
    const { engine, logger } = engineWith(module);
    for (const mode of ["throw", "throw-string"]) {
      const result = await engine.execute(module.action.action({ mode }), request());
      expect(result.failure).toEqual({ code: "MODULE_FAILED", key: "system.error.module_failed", args: [] });
    }
    expect(logger.lines.filter((line) => line.startsWith("ERROR system:echo failed"))).toHaveLength(2);
  });

  it("tells STORAGE_UNAVAILABLE for an error the assembly says is an unreachable store, logged as one line", async () => {
    const module = new Scripted("system:echo");
    const logger = new MemoryLogger();
    const engine = new AgentEngine({
      logger,
      isStorageUnavailable: (error) => error instanceof TypeError,
    });
    engine.registerModule(module);
    engine.start();
    const result = await engine.execute(module.action.action({ mode: "throw" }), request());
    expect(result.failure).toEqual({
      code: "STORAGE_UNAVAILABLE",
      key: "system.error.storage_unavailable",
      args: [],
    });
    expect(logger.lines).toEqual(["WARN system:echo failed for p: storage unavailable (bug in module)"]);
    // anything else is still a failure of the workflow
    const other = await engine.execute(module.action.action({ mode: "throw-string" }), request());
    expect(other.failure?.code).toBe("MODULE_FAILED");
  });

  it("keeps an extension failure found along the cause chain", async () => {
    const module = new Scripted("system:echo");
    const { engine } = engineWith(module);
    const result = await engine.execute(module.action.action({ mode: "custom" }), request());
    expect(result.failure).toEqual({ code: "SHOP_CLOSED", key: "shop.closed", args: [] });
  });

  it("never rejects, even when the executor's onContext callback throws", async () => {
    const module = new Scripted("system:echo");
    const { engine } = engineWith(module);
    const result = await engine.execute(
      module.action.action({ mode: "x" }),
      request({
        onContext: () => {
          throw new Error("executor bug");
        },
      }),
    );
    expect(result.failure?.code).toBe("MODULE_FAILED");
  });

  it("refuses before start, for an unknown action, and for invalid input", async () => {
    const module = new Scripted("system:echo");
    const idle = new AgentEngine();
    idle.registerModule(module);
    expect((await idle.execute(module.action.action({ mode: "x" }), request())).failure?.code).toBe(
      "MODULE_FAILED",
    );
    const { engine } = engineWith(module);
    const stranger = ActionType.of("mod:unknown", INPUT);
    expect((await engine.execute(stranger.action({ mode: "x" }), request())).failure?.code).toBe(
      "MODULE_DISABLED",
    );
    const invalid = await engine.execute(module.action.action({ mode: "" }), request());
    expect(invalid.failure?.code).toBe("INPUT_INVALID");
    expect(module.runs).toHaveLength(0);
  });

  it("separates interactive and event entry points", async () => {
    const eventOnly = new Scripted("system:rule", { interactive: false, event: true });
    const interactive = new Scripted("system:echo");
    const { engine } = engineWith(eventOnly, interactive);
    expect((await engine.execute(eventOnly.action.action({ mode: "x" }), request())).failure).toEqual(
      AgentFailure.PERMISSION_DENIED,
    );
    expect(
      (await engine.execute(interactive.action.action({ mode: "x" }), request({ event: true }))).failure,
    ).toEqual(AgentFailure.PERMISSION_DENIED);
    const ran = await engine.execute(eventOnly.action.action({ mode: "x" }), request({ event: true }));
    expect(ran.isSuccess()).toBe(true);
    expect(eventOnly.runs[0]?.event).toBe(true);
  });

  it("returns CANCELLED for a request cancelled before it runs", async () => {
    const module = new Scripted("system:echo");
    const { engine } = engineWith(module);
    const controller = new AbortController();
    controller.abort();
    const result = await engine.execute(
      module.action.action({ mode: "x" }),
      request({ signal: controller.signal }),
    );
    expect(result.failure).toEqual(AgentFailure.CANCELLED);
    expect(module.runs).toHaveLength(0);
  });

  it("stops listening to a long-lived outer signal once the request is done", async () => {
    const module = new Scripted("system:echo");
    const { engine } = engineWith(module);
    const shutdown = new AbortController();
    const signal = shutdown.signal;
    const add = vi.spyOn(signal, "addEventListener");
    const remove = vi.spyOn(signal, "removeEventListener");
    for (let index = 0; index < 3; index++)
      await engine.execute(module.action.action({ mode: "x" }), request({ signal }));
    const added = add.mock.calls.map((call) => call[1]);
    expect(added).toHaveLength(3);
    expect(remove.mock.calls.map((call) => call[1])).toEqual(added);
    const context = module.runs[0] as ExecutionContext;
    shutdown.abort();
    expect(context.signal.aborted).toBe(false);
  });

  it("uses a persisted policy and continues on counters already charged by routing", async () => {
    const module = new Scripted("system:echo");
    const { engine } = engineWith(module);
    const counters = new BudgetCounters();
    counters.modelCalls = 1;
    const persisted = { ...SIMPLE_POLICY, toolCalls: 1 };
    let seen: ExecutionContext | undefined;
    await engine.execute(
      module.action.action({ mode: "x" }),
      request({ policy: persisted, counters, onContext: (context) => (seen = context) }),
    );
    expect(seen?.policy).toBe(persisted);
    expect(seen?.counters).toBe(counters);
    expect(module.runs[0]).toBe(seen);
  });
});
