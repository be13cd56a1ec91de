import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { AgentResult } from "../agent-result.js";
import { AbstractAgentModule } from "../module/abstract-agent-module.js";
import { ActionType } from "../module/action-type.js";
import { EventRules } from "./event-rules.js";

class Greeter extends AbstractAgentModule<Record<string, never>> {
  constructor(eventTypes: string[]) {
    super({
      action: ActionType.of("test:greet", codec(z.object({}).strict() as z.ZodType<Record<string, never>>)),
      description: "greets",
      interactive: false,
      event: true,
      eventTypes,
    });
  }
  override async run(): Promise<AgentResult> {
    return AgentResult.success();
  }
}

describe("EventRules", () => {
  it("needs both keys: the workflow's declaration and a rule naming the pair", () => {
    const greeter = new Greeter(["test:join"]);
    expect(new EventRules().permits("test:join", greeter)).toBe(false);
    expect(
      new EventRules([{ eventType: "test:join", module: "test:greet" }]).permits("test:join", greeter),
    ).toBe(true);
    expect(
      new EventRules([{ eventType: "test:leave", module: "test:greet" }]).permits("test:leave", greeter),
    ).toBe(false);
  });

  it("lets an admin rule authorise only the tasks that name it; it never opens the rule-less path", () => {
    const greeter = new Greeter(["test:join"]);
    const rules = new EventRules();
    rules.allowRule("welcome", "test:join", "test:greet");
    expect(rules.permits("test:join", greeter, "welcome")).toBe(true);
    expect(rules.permits("test:join", greeter)).toBe(false);
    expect(rules.permits("test:join", greeter, "other")).toBe(false);
    expect(rules.permitsAny(greeter)).toBe(false);
  });
});
