import { z } from "zod";
import { AgentFailure } from "../../src/agent/agent-failure.js";
import { AgentResult } from "../../src/agent/agent-result.js";
import type { AgentConfig } from "../../src/agent/execution/agent-config.js";
import { AgentEngine, type ExecutionRequest } from "../../src/agent/execution/agent-engine.js";
import type { ExecutionContext } from "../../src/agent/execution/execution-context.js";
import type { ExecutionPolicy } from "../../src/agent/execution/execution-policy.js";
import { defaultPolicyFor } from "../../src/agent/execution/policy-defaults.js";
import type { Failure } from "../../src/agent/failure.js";
import type { ModelPort } from "../../src/agent/model/model-client.js";
import { AbstractAgentModule } from "../../src/agent/module/abstract-agent-module.js";
import { ActionType } from "../../src/agent/module/action-type.js";
import { ReActContext } from "../../src/agent/react/react-context.js";
import { ReActLoop, type ReActOptions } from "../../src/agent/react/react-loop.js";
import type { Observations, ReActOutcome } from "../../src/agent/react/react-outcome.js";
import { ReActTool } from "../../src/agent/react/react-tool.js";
import { literal } from "../../src/agent/text.js";
import { Tool } from "../../src/agent/tool/tool.js";
import { ToolType } from "../../src/agent/tool/tool-type.js";
import { codec } from "../../src/util/codec.js";
import type { ScriptedModelServer } from "../support/scripted-model-server.js";

/** The system text every harness loop sends (a prompt snapshot). */
export const PROMPT = "You are the reasoning loop of a test. Reply with one JSON object.";

export const FIND = ToolType.of(
  "test:item.find",
  codec(z.object({ name: z.string().min(1).max(64) })),
  codec(z.object({ item: z.string() })),
);
export const SOURCE = ToolType.of(
  "test:item.source",
  codec(z.object({ item: z.string().min(1).max(64) })),
  codec(z.object({ sources: z.array(z.string()) })),
);
/** A write tool the workflow declares but never offers to its loop. */
export const PAY = ToolType.of(
  "test:commerce.pay",
  codec(z.object({ amount: z.number().optional() }).passthrough()),
  codec(z.object({ paid: z.boolean() })),
);

export interface Answer {
  readonly text: string;
  readonly sources?: number[] | undefined;
}
export const ANSWER = codec<Answer>(
  z.object({ text: z.string().min(1).max(2000), sources: z.array(z.number().int()).max(8).optional() }),
);

export const REASONING_POLICY: ExecutionPolicy = defaultPolicyFor("system:reasoning");

/** Every tool call that really ran, by tool id, in order. */
export type CallLog = string[];

export const WORKFLOW = ActionType.of("test:reasoning", codec(z.object({ question: z.string() })));

/** What a harness test may change for one loop. */
export interface LoopSetup {
  readonly recoverable?: ReadonlySet<Failure>;
  readonly degrade?: ReActOptions<Answer>["degrade"];
  readonly guard?: () => Failure | undefined;
}

/** A reasoning-like workflow: it runs the loop over FIND and SOURCE, never PAY, and answers with the text. */
class TestReasoningModule extends AbstractAgentModule<{ question: string }> {
  outcomes: ReActOutcome<Answer>[] = [];
  setup: LoopSetup = {};

  constructor(tools: readonly Tool<never, unknown>[], policy: ExecutionPolicy) {
    super({ action: WORKFLOW, description: "test reasoning", tools, policy });
  }

  async run(input: { question: string }, context: ExecutionContext): Promise<AgentResult> {
    const outcome = await runLoop(context, input.question, this.setup);
    this.outcomes.push(outcome);
    if (outcome.kind === "failed") return AgentResult.error(outcome.failure);
    return AgentResult.success(literal(outcome.answer.text));
  }
}

export interface Harness {
  readonly engine: AgentEngine;
  readonly module: TestReasoningModule;
  readonly calls: CallLog;
  /** A new request's context, as the executors would create it. */
  context(request?: Partial<ExecutionRequest>): ExecutionContext;
}

/** Runs one loop of the test workflow in a context. */
export const runLoop = (
  context: ExecutionContext,
  question: string,
  setup: LoopSetup = {},
): Promise<ReActOutcome<Answer>> => {
  const react = ReActContext.create(context, {
    question,
    prompt: PROMPT,
    tools: context.tools(FIND, SOURCE, PAY),
    catalog: [
      ReActTool.of(FIND, "Find an item by its name."),
      ReActTool.of(SOURCE, "List where an item comes from."),
    ],
    answer: ANSWER,
  });
  return ReActLoop.run(context, react, {
    recoverable: setup.recoverable ?? new Set([AgentFailure.MODEL_UNAVAILABLE, AgentFailure.TIMEOUT]),
    ...(setup.degrade === undefined ? {} : { degrade: setup.degrade }),
    ...(setup.guard === undefined ? {} : { guard: setup.guard }),
  });
};

/** An engine with the test workflow, its three tools and a model port (a gateway over a scripted server). */
export const createHarness = (options: {
  readonly model: ModelPort;
  readonly policy?: Partial<ExecutionPolicy>;
  readonly config?: AgentConfig;
  /** Runs inside the FIND handler (e.g. to change config or throw). */
  readonly onFind?: (name: string) => void;
}): Harness => {
  const calls: CallLog = [];
  const tools = [
    Tool.of(FIND, async (input) => {
      calls.push(FIND.id.toString());
      options.onFind?.(input.name);
      return { item: `minecraft:${input.name}` };
    }).asReadOnly(),
    Tool.of(SOURCE, async (input) => {
      calls.push(SOURCE.id.toString());
      return { sources: [`${input.item} drops from ore`] };
    }).asReadOnly(),
    Tool.of(PAY, async () => {
      calls.push(PAY.id.toString());
      return { paid: true };
    }),
  ] as unknown as Tool<never, unknown>[];
  const policy = Object.freeze({ ...REASONING_POLICY, ...options.policy });
  const engine = new AgentEngine({
    model: options.model,
    ...(options.config === undefined ? {} : { config: options.config }),
  });
  const module = new TestReasoningModule(tools, policy);
  engine.registerModule(module);
  engine.start();
  let sequence = 0;
  return {
    engine,
    module,
    calls,
    context: (request = {}) =>
      engine.createContext(module, {
        requestId: `request-${++sequence}`,
        playerId: "player-1",
        locale: "en_us",
        features: new Set<string>(),
        ...request,
      }),
  };
};

/** A degrade callback that records what it received and answers from the evidence. */
export const recordingDegrade = (): {
  readonly received: { failure: Failure; observations: Observations }[];
  readonly degrade: NonNullable<LoopSetup["degrade"]>;
} => {
  const received: { failure: Failure; observations: Observations }[] = [];
  return {
    received,
    degrade: (failure, observations) => {
      received.push({ failure, observations });
      return observations.length > 0
        ? { text: `partial from ${observations.length} observations` }
        : undefined;
    },
  };
};

/** JSON replies of the scripted model. */
export const reply = {
  find: (name: string): string => JSON.stringify({ type: "test:item.find", input: { name } }),
  source: (item: string): string => JSON.stringify({ type: "test:item.source", input: { item } }),
  answer: (text: string): string => JSON.stringify({ type: "answer", text }),
};

/** The user JSON of one loop request, as the scripted server received it. */
export interface SentUserJson {
  readonly question: string;
  readonly tools?: { type: string; description: string; input: unknown }[];
  readonly observations: { tool: string; input: unknown; result: unknown }[];
  readonly notices?: string[];
  readonly round: number;
  readonly finalOnly: boolean;
}

/** The user JSON of request `index`; throws when the server has not received it. */
export const sentUser = (server: ScriptedModelServer, index: number): SentUserJson => {
  const request = server.requests[index];
  if (request === undefined) throw new Error(`the server received no request #${index}`);
  return request.user as SentUserJson;
};

/** The chat messages of request `index`. */
export const sentMessages = (server: ScriptedModelServer, index: number): unknown[] => {
  const request = server.requests[index];
  if (request === undefined) throw new Error(`the server received no request #${index}`);
  return request.body.messages as unknown[];
};
