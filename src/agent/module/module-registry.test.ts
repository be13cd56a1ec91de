import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { AgentResult } from "../agent-result.js";
import { AgentEngine } from "../execution/agent-engine.js";
import type { ExecutionPolicy } from "../execution/execution-policy.js";
import { SIMPLE_POLICY } from "../execution/policy-defaults.js";
import { type AnyTool, Tool } from "../tool/tool.js";
import { type AnyToolType, ToolType } from "../tool/tool-type.js";
import { AbstractAgentModule } from "./abstract-agent-module.js";
import { ActionType } from "./action-type.js";
import type { AnyAgentModule } from "./agent-module.js";
import type { ModuleWrites } from "./module-writes.js";

const INPUT = codec(z.object({ text: z.string() }));
const OUT = codec(z.number());
const toolType = (id: string): AnyToolType => ToolType.of(id, INPUT, OUT) as AnyToolType;
const readTool = (id: string): AnyTool => Tool.of(toolType(id), async () => 1).asReadOnly();

class TestModule extends AbstractAgentModule<{ text: string }> {
  constructor(options: {
    id?: string;
    action?: ActionType<{ text: string }>;
    tools?: readonly AnyTool[];
    optionalTools?: readonly AnyToolType[];
    policy?: ExecutionPolicy;
    event?: boolean;
    eventTypes?: readonly string[];
    writes?: ModuleWrites;
  }) {
    super({
      action: options.action ?? ActionType.of(options.id ?? "system:test", INPUT),
      description: "A test workflow.",
      tools: options.tools ?? [],
      optionalTools: options.optionalTools ?? [],
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      ...(options.event === undefined ? {} : { event: options.event }),
      ...(options.eventTypes === undefined ? {} : { eventTypes: options.eventTypes }),
      ...(options.writes === undefined ? {} : { writes: options.writes }),
    });
  }
  async run(): Promise<AgentResult> {
    return AgentResult.success();
  }
}

describe("AbstractAgentModule", () => {
  it("takes its id from the action type, the built-in default policy, and interactive by default", () => {
    const module = new TestModule({ id: "system:reasoning" });
    expect(module.id.toString()).toBe("system:reasoning");
    expect(module.policy.reactIterations).toBe(3);
    expect(new TestModule({ id: "mod:other" }).policy).toBe(SIMPLE_POLICY);
    expect([module.interactive, module.event]).toEqual([true, false]);
  });
});

describe("write declarations", () => {
  const writeTool = (id: string): AnyTool => Tool.of(toolType(id), async () => 1);

  it("default to replayable with a write budget or a write tool, else none; a declaration wins", () => {
    expect(new TestModule({}).writes).toBe("none");
    expect(new TestModule({ policy: { ...SIMPLE_POLICY, writeSteps: 1 } }).writes).toBe("replayable");
    expect(new TestModule({ tools: [writeTool("system:give")] }).writes).toBe("replayable");
    expect(new TestModule({ writes: "state" }).writes).toBe("state");
  });

  it("are refused when they contradict the budget or the tools: a workflow that may write never declares none", () => {
    const engine = new AgentEngine();
    expect(() =>
      engine.registerModule(new TestModule({ writes: "none", policy: { ...SIMPLE_POLICY, writeSteps: 1 } })),
    ).toThrow(/declares no writes but has a write budget of 1/);
    expect(() =>
      engine.registerModule(
        new TestModule({ id: "system:other", writes: "none", tools: [writeTool("system:give")] }),
      ),
    ).toThrow(/declares no writes but requires the write tool system:give/);
    // a state-changing workflow without tools or budget (a setting, a grant) is declared, and accepted
    engine.registerModule(new TestModule({ id: "system:setting", writes: "state" }));
    expect(engine.modules().get("system:setting")?.writes).toBe("state");
  });
});

describe("ModuleRegistry through engine.registerModule", () => {
  it("registers the module, its action type and its required tools", () => {
    const engine = new AgentEngine();
    const tool = readTool("system:a");
    const module = new TestModule({ tools: [tool] });
    engine.registerModule(module);
    expect(engine.modules().get("system:test")).toBe(module);
    expect(engine.modules().forAction(module.action)).toBe(module);
    expect(engine.modules().actions.get("system:test")).toBe(module.action);
    expect(engine.tools.get("system:a")).toBe(tool);
  });

  it("refuses a second module with the same id", () => {
    const engine = new AgentEngine();
    engine.registerModule(new TestModule({}));
    expect(() => engine.registerModule(new TestModule({}))).toThrow(/already registered/);
  });

  it("checks codec identity against the shared action type", () => {
    const engine = new AgentEngine();
    const shared = ActionType.of("system:test", INPUT);
    engine.modules().registerAction(shared);
    engine.modules().registerAction(shared); // same instance: fine
    expect(() => engine.modules().registerAction(ActionType.of("system:test", INPUT))).toThrow(
      /another codec/,
    );
    const copy = ActionType.of("system:test", codec(z.object({ text: z.string() })));
    expect(() => engine.registerModule(new TestModule({ action: copy }))).toThrow(/input codec differs/);
    engine.registerModule(new TestModule({ action: shared }));
    expect(engine.modules().forAction(copy)).toBeUndefined();
  });

  it("refuses a module whose action type has another id", () => {
    const engine = new AgentEngine();
    const module: AnyAgentModule = {
      ...new TestModule({}),
      id: Identifier.parse("system:other"),
      run: async () => AgentResult.success(),
    } as AnyAgentModule;
    expect(() => engine.registerModule(module)).toThrow(/action type with its own id/);
  });

  it("refuses a conflicting tool instance and registers nothing of the refused module", () => {
    const engine = new AgentEngine();
    engine.registerModule(new TestModule({ id: "system:one", tools: [readTool("system:shared")] }));
    const fresh = readTool("system:fresh");
    expect(() =>
      engine.registerModule(new TestModule({ id: "system:two", tools: [fresh, readTool("system:shared")] })),
    ).toThrow(/conflicts/);
    expect(engine.tools.has("system:fresh")).toBe(false);
    expect(engine.modules().get("system:two")).toBeUndefined();
    expect(engine.modules().actions.has("system:two")).toBe(false);
  });

  it("refuses two instances of one tool type inside one module, registering nothing", () => {
    const engine = new AgentEngine();
    expect(() =>
      engine.registerModule(new TestModule({ tools: [readTool("system:dup"), readTool("system:dup")] })),
    ).toThrow(/conflicts/);
    expect(engine.tools.has("system:dup")).toBe(false);
  });

  it("refuses a module carrying a write tool declared forReasoning, registering none of its tools", () => {
    const engine = new AgentEngine();
    const ok = readTool("system:ok");
    const bad = Tool.of(toolType("system:write"), async () => 1).forReasoning("Writes") as AnyTool;
    expect(() => engine.registerModule(new TestModule({ tools: [ok, bad] }))).toThrow(/read-only/);
    expect(engine.tools.has("system:ok")).toBe(false);
  });

  it("shares one tool instance between modules", () => {
    const engine = new AgentEngine();
    const shared = readTool("system:shared");
    engine.registerModule(new TestModule({ id: "system:one", tools: [shared] }));
    engine.registerModule(new TestModule({ id: "system:two", tools: [shared] }));
    expect(engine.tools.values()).toEqual([shared]);
  });

  it("refuses a tool that is both required and optional", () => {
    const engine = new AgentEngine();
    const tool = readTool("system:both");
    expect(() =>
      engine.registerModule(new TestModule({ tools: [tool], optionalTools: [tool.type] })),
    ).toThrow(/both required and optional/);
  });

  it("refuses an optional type that does not match the registered one or is a write tool", () => {
    const engine = new AgentEngine();
    const write = Tool.of(toolType("system:write"), async () => 1) as AnyTool;
    engine.registerTool(write);
    engine.registerTool(readTool("system:read"));
    expect(() => engine.registerModule(new TestModule({ optionalTools: [write.type] }))).toThrow(/read-only/);
    expect(() => engine.registerModule(new TestModule({ optionalTools: [toolType("system:read")] }))).toThrow(
      /does not match/,
    );
  });

  it("accepts an optional tool whose exporting feature is not installed", () => {
    const engine = new AgentEngine();
    engine.registerModule(new TestModule({ optionalTools: [toolType("ftbquests:quest.find")] }));
    engine.start();
    expect(engine.started).toBe(true);
  });
});

describe("AgentEngine.start", () => {
  it("freezes every registry: registering a module, tool, event type or action afterwards throws", () => {
    const engine = new AgentEngine();
    engine.registerModule(new TestModule({}));
    engine.start();
    engine.start(); // idempotent
    expect(() => engine.registerModule(new TestModule({ id: "system:late" }))).toThrow(/has started/);
    expect(() => engine.registerTool(readTool("system:late"))).toThrow(/has started/);
    expect(() => engine.registerEventType("system:late")).toThrow(/has started/);
    expect(() => engine.tools.register(readTool("system:late"))).toThrow(/frozen/);
    expect(() => engine.modules().register(new TestModule({ id: "system:late2" }))).toThrow(/started/);
    expect(() => engine.modules().registerAction(ActionType.of("system:late3", INPUT))).toThrow(/frozen/);
    expect(engine.modules().actions.numericId("system:test")).toBe(0);
  });

  it("validates event references", () => {
    const unknown = new AgentEngine();
    unknown.registerModule(new TestModule({ event: true, eventTypes: ["system:advancement"] }));
    expect(() => unknown.start()).toThrow(/unknown event type system:advancement/);
    expect(unknown.started).toBe(false);
    const none = new AgentEngine();
    none.registerModule(new TestModule({ event: true }));
    expect(() => none.start()).toThrow(/declares no event types/);
    const ok = new AgentEngine();
    ok.registerEventType("system:advancement");
    ok.registerModule(new TestModule({ event: true, eventTypes: ["system:advancement"] }));
    ok.start();
    expect(ok.started).toBe(true);
  });

  it("validates module default policies", () => {
    const engine = new AgentEngine();
    engine.registerModule(new TestModule({ policy: { ...SIMPLE_POLICY, ttlMillis: 0 } }));
    expect(() => engine.start()).toThrow(/invalid default policy.*ttlMillis/);
  });

  it("refuses an optional tool that turned out to be a write tool", () => {
    const engine = new AgentEngine();
    const type = toolType("mod:later");
    engine.registerModule(new TestModule({ optionalTools: [type] }));
    engine.registerTool(Tool.of(type, async () => 1) as AnyTool);
    expect(() => engine.start()).toThrow(/write tool/);
  });

  it("refuses an optional type that differs from the installed tool's type", () => {
    const engine = new AgentEngine();
    engine.registerModule(new TestModule({ optionalTools: [toolType("mod:later")] }));
    engine.registerTool(readTool("mod:later"));
    expect(() => engine.start()).toThrow(/does not match the installed tool type/);
  });
});
