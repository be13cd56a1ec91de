import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import type { Failure } from "../failure.js";
import type { ModelPort } from "../model/model-client.js";
import { AbstractAgentModule } from "../module/abstract-agent-module.js";
import { ActionType } from "../module/action-type.js";
import type { AnyTool } from "../tool/tool.js";
import { Tool } from "../tool/tool.js";
import { ToolType } from "../tool/tool-type.js";
import { AgentEngine } from "./agent-engine.js";
import { ExecutionContext } from "./execution-context.js";
import { defaultPolicyFor } from "./policy-defaults.js";
import type { Standing } from "./standing.js";

const OWNER = "test:feature";
const LOOK = ToolType.of("test:look", codec(z.object({})), codec(z.object({ seen: z.number() })));

/** A standing the test changes while a request runs. */
class MutableStanding implements Standing {
  featureSet = new Set([OWNER]);
  lostWith: Failure | undefined;
  model: Failure | undefined;
  features(): ReadonlySet<string> {
    return this.featureSet;
  }
  lost(): Failure | undefined {
    return this.lostWith;
  }
  modelRefusal(): Failure | undefined {
    return this.model;
  }
}

const failureOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return AgentException.failure(error).code;
  }
  return "none";
};

const contextWith = (standing: MutableStanding, model: ModelPort, tools: AnyTool[]): ExecutionContext =>
  new ExecutionContext({
    requestId: "r",
    playerId: "p",
    locale: "en_us",
    workflow: "test:flow",
    owner: OWNER,
    features: new Set([OWNER]),
    policy: defaultPolicyFor("test:flow"),
    tools: {
      required: new Map(tools.map((tool) => [tool.id.toString(), tool])),
      optional: new Set(),
      lookup: () => undefined,
    },
    model,
    standing,
  });

describe("live standing", () => {
  const calls: string[] = [];
  const model: ModelPort = {
    call: async () => {
      calls.push("model");
      return { text: "{}", usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
  const look = Tool.of(LOOK, async () => ({ seen: 1 }))
    .asReadOnly()
    .ownedBy(Identifier.parse(OWNER)) as unknown as AnyTool;

  it("refuses a model call when the player may not call a model now, without calling it", async () => {
    calls.length = 0;
    const standing = new MutableStanding();
    const context = contextWith(standing, model, [look]);
    await context.model({ system: "s", user: {} });
    standing.model = AgentFailure.AI_DISABLED;
    expect(await failureOf(context.model({ system: "s", user: {} }))).toBe("AI_DISABLED");
    expect(calls).toEqual(["model"]);
  });

  it("ends the request at the next call when its feature is denied mid-request", async () => {
    const standing = new MutableStanding();
    const context = contextWith(standing, model, [look]);
    expect(await context.tool(LOOK, "a", {})).toEqual({ seen: 1 });
    standing.featureSet = new Set();
    expect(await failureOf(context.tool(LOOK, "b", {}))).toBe("MODULE_DISABLED");
    expect(context.features.has(OWNER)).toBe(false);
  });

  it("ends the request when the player's memory is cleared or access revoked", async () => {
    const standing = new MutableStanding();
    const context = contextWith(standing, model, [look]);
    standing.lostWith = AgentFailure.CANCELLED;
    expect(await failureOf(context.tool(LOOK, "a", {}))).toBe("CANCELLED");
  });

  it("checks the standing before the output: a workflow that finished after a denial shows nothing", async () => {
    const standing = new MutableStanding();
    const ACTION = ActionType.of("test:flow", codec(z.object({})));
    class Flow extends AbstractAgentModule<Record<string, never>> {
      constructor() {
        super({ description: "d", action: ACTION, owner: Identifier.parse(OWNER) });
      }
      async run(): Promise<AgentResult> {
        standing.featureSet = new Set();
        return AgentResult.success();
      }
    }
    const engine = new AgentEngine();
    engine.registerModule(new Flow());
    engine.start();
    const result = await engine.execute(ACTION.action({}), {
      requestId: "r",
      playerId: "p",
      locale: "en_us",
      features: new Set([OWNER]),
      standing,
    });
    expect(result.failure?.code).toBe("MODULE_DISABLED");
  });
});
