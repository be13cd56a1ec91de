// Engine overhead of one ReAct round: three instant tools then an answer (4 rounds per loop), on our loop with an
// in-process instant ModelClient behind the real ModelGateway, on the Vercel AI SDK (generateText + MockLanguageModelV3)
// and on LangGraph.js (createReactAgent + a fake chat model). Also heap per loop with 1,000 loops in flight.
// Run: npx tsx bench/react-overhead.ts   (npm run bench adds --expose-gc for the memory figures)

import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { tool as langchainTool } from "@langchain/core/tools";
import { FakeChatModel } from "@langchain/core/utils/testing";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { tool as aiTool, generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { AgentResult } from "../src/agent/agent-result.js";
import { AgentEngine } from "../src/agent/execution/agent-engine.js";
import type { ExecutionContext } from "../src/agent/execution/execution-context.js";
import { defaultPolicyFor } from "../src/agent/execution/policy-defaults.js";
import type { ModelClient, ModelRequest, ModelResponse } from "../src/agent/model/model-client.js";
import { ModelGateway } from "../src/agent/model/model-gateway.js";
import { AbstractAgentModule } from "../src/agent/module/abstract-agent-module.js";
import { ActionType } from "../src/agent/module/action-type.js";
import { ReActContext } from "../src/agent/react/react-context.js";
import { ReActLoop } from "../src/agent/react/react-loop.js";
import { ReActTool } from "../src/agent/react/react-tool.js";
import { Tool } from "../src/agent/tool/tool.js";
import { ToolType } from "../src/agent/tool/tool-type.js";
import { codec } from "../src/util/codec.js";

const ROUNDS = 4;
const QUESTION = "What do I need for my next quest and where do I get it?";
const TOOL_NAMES = ["quest_find", "quest_detail", "item_source"] as const;
const INPUTS = [{ query: "next quest" }, { quest: "q-17" }, { item: "minecraft:diamond" }] as const;
const RESULT = { summary: "Quest q-17 needs 3 diamonds; diamonds come from deepslate ore below y=0." };
const ANSWER = "Mine 3 diamonds from deepslate ore below y=0, then hand them in for quest q-17.";
const schemas = [
  z.object({ query: z.string() }),
  z.object({ quest: z.string() }),
  z.object({ item: z.string() }),
];

/** A gate that holds model calls of a chosen round, to keep loops in flight for the memory figure. */
const gate = { round: 0, open: Promise.resolve(), arrived: 0 };
const waitAtGate = async (round: number): Promise<void> => {
  if (round !== gate.round) return;
  gate.arrived++;
  await gate.open;
};

// ----- ours -----
const ourTypes = TOOL_NAMES.map((name, index) =>
  ToolType.of(
    `bench:${name}`,
    codec(schemas[index] as z.ZodType<Record<string, string>>),
    codec(z.object({ summary: z.string() })),
  ),
);
const replies = [
  ...INPUTS.map((input, index) => JSON.stringify({ type: ourTypes[index]?.id.toString(), input })),
  JSON.stringify({ type: "answer", text: ANSWER }),
];

class InstantClient implements ModelClient {
  async complete(request: ModelRequest): Promise<ModelResponse> {
    const round = request.user.round as number;
    await waitAtGate(round);
    return { text: replies[round - 1] ?? "{}", usage: { inputTokens: 200, outputTokens: 20 } };
  }
}

const action = ActionType.of("bench:reasoning", codec(z.object({ question: z.string() })));
class BenchModule extends AbstractAgentModule<{ question: string }> {
  constructor() {
    super({
      action,
      description: "bench",
      tools: ourTypes.map((type) => Tool.of(type, async () => RESULT).asReadOnly()) as unknown as Tool<
        never,
        unknown
      >[],
      policy: { ...defaultPolicyFor("system:reasoning"), reactIterations: ROUNDS },
    });
  }
  async run(): Promise<AgentResult> {
    return AgentResult.success();
  }
}
const module = new BenchModule();
const engine = new AgentEngine({
  model: new ModelGateway({ client: new InstantClient(), concurrency: 100_000 }),
});
engine.registerModule(module);
engine.start();
const catalog = ourTypes.map((type) => ReActTool.of(type, `The ${type.id.path} tool.`));
const answerCodec = codec(z.object({ text: z.string() }));
const recoverable = new Set<never>();
let requestSequence = 0;

const ours = async (): Promise<void> => {
  const context: ExecutionContext = engine.createContext(module, {
    requestId: `r${++requestSequence}`,
    playerId: "bench",
    locale: "en_us",
    features: new Set(),
  });
  const react = ReActContext.create(context, {
    question: QUESTION,
    prompt: "You are a bench.",
    tools: context.tools(...ourTypes),
    catalog,
    answer: answerCodec,
  });
  const outcome = await ReActLoop.run(context, react, { recoverable });
  if (outcome.kind !== "answer" || outcome.rounds !== ROUNDS)
    throw new Error(`ours: unexpected ${outcome.kind}`);
};

// ----- Vercel AI SDK -----
const aiTools = Object.fromEntries(
  TOOL_NAMES.map((name, index) => [
    name,
    aiTool({
      description: `The ${name} tool.`,
      inputSchema: schemas[index] as z.ZodObject<{ [key: string]: z.ZodString }>,
      execute: async () => RESULT,
    }),
  ]),
);
const usage = {
  inputTokens: { total: 200, noCache: 200, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const aiModel = new MockLanguageModelV3({
  doGenerate: async (options) => {
    const step = options.prompt.filter((message) => message.role === "tool").length;
    await waitAtGate(step + 1);
    const name = TOOL_NAMES[step];
    if (name === undefined)
      return {
        content: [{ type: "text", text: ANSWER }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    return {
      content: [
        {
          type: "tool-call",
          toolCallId: `call-${step}`,
          toolName: name,
          input: JSON.stringify(INPUTS[step]),
        },
      ],
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage,
      warnings: [],
    };
  },
});
const vercel = async (): Promise<void> => {
  const result = await generateText({
    model: aiModel,
    tools: aiTools,
    stopWhen: stepCountIs(ROUNDS),
    prompt: QUESTION,
  });
  if (result.steps.length !== ROUNDS || result.text !== ANSWER)
    throw new Error(`ai sdk: ${result.steps.length} steps`);
};

// ----- LangGraph.js -----
/** A fake chat model that supports bindTools: it calls the tools in order, then answers. */
class ToolCallingFakeModel extends FakeChatModel {
  override bindTools(): this {
    return this;
  }
  override async _generate(
    messages: BaseMessage[],
  ): Promise<{ generations: { text: string; message: AIMessage }[] }> {
    const step = messages.filter((message) => message.getType() === "tool").length;
    await waitAtGate(step + 1);
    const name = TOOL_NAMES[step];
    const message =
      name === undefined
        ? new AIMessage(ANSWER)
        : new AIMessage({
            content: "",
            tool_calls: [{ id: `call-${step}`, name, args: { ...INPUTS[step] }, type: "tool_call" }],
          });
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}
const graphTools = TOOL_NAMES.map((name, index) =>
  langchainTool(async () => JSON.stringify(RESULT), {
    name,
    description: `The ${name} tool.`,
    schema: schemas[index] as z.ZodObject<{ [key: string]: z.ZodString }>,
  }),
);
const agent = createReactAgent({ llm: new ToolCallingFakeModel({}), tools: graphTools });
const langgraph = async (): Promise<void> => {
  const state = await agent.invoke({ messages: [{ role: "user", content: QUESTION }] });
  const last = state.messages.at(-1);
  if (last?.content !== ANSWER) throw new Error("langgraph: no answer");
};

// ----- measurement -----
/** CPU time (user + system) per round: the machine may be shared, so wall-clock time would measure the others. */
const measure = async (run: () => Promise<void>, minimumMillis: number): Promise<number> => {
  for (let index = 0; index < 200; index++) await run();
  let loops = 0;
  const started = process.cpuUsage();
  let elapsedMicros = 0;
  while (elapsedMicros < minimumMillis * 1000 || loops < 300) {
    for (let index = 0; index < 50; index++) await run();
    loops += 50;
    const used = process.cpuUsage(started);
    elapsedMicros = used.user + used.system;
  }
  return elapsedMicros / (loops * ROUNDS);
};

const collect = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Heap per loop with 1,000 loops in flight, each held at its third model call (two observations gathered). */
const memoryPerLoop = async (run: () => Promise<void>): Promise<number> => {
  collect();
  const before = process.memoryUsage().heapUsed;
  let release = (): void => {};
  gate.open = new Promise<void>((resolve) => (release = resolve));
  gate.round = 3;
  gate.arrived = 0;
  const loops = Array.from({ length: 1000 }, () => run());
  while (gate.arrived < 1000) await new Promise((resolve) => setImmediate(resolve));
  collect();
  const during = process.memoryUsage().heapUsed;
  release();
  await Promise.all(loops);
  gate.round = 0;
  return (during - before) / 1000;
};

const only = process.argv[2];
const contenders: [string, () => Promise<void>][] = (
  [
    ["ours (ReActLoop)", ours],
    ["Vercel AI SDK 6", vercel],
    ["LangGraph.js", langgraph],
  ] as [string, () => Promise<void>][]
).filter(([name]) => only === undefined || name.startsWith(only));
const perRound = new Map<string, number>();
for (const [name, run] of contenders) perRound.set(name, await measure(run, 2_000));
const memory = new Map<string, number>();
for (const [name, run] of contenders) memory.set(name, await memoryPerLoop(run));

const ourRound = perRound.get("ours (ReActLoop)") ?? Number.NaN;
console.log(
  `scenario: 3 tools + answer (${ROUNDS} rounds per loop), instant model and tools; gc ${typeof (globalThis as { gc?: unknown }).gc === "function" ? "exposed" : "not exposed (run with --expose-gc)"}`,
);
for (const [name] of contenders) {
  const micros = perRound.get(name) ?? Number.NaN;
  const ratio = name.startsWith("ours") ? "" : `  ours/peer ${(ourRound / micros).toFixed(3)}x`;
  console.log(
    `${name.padEnd(18)} ${micros.toFixed(1).padStart(8)} µs CPU/round  ${((memory.get(name) ?? 0) / 1024).toFixed(1).padStart(7)} KiB/loop in flight${ratio}`,
  );
}
const fastestPeer = Math.min(
  perRound.get("Vercel AI SDK 6") ?? Number.POSITIVE_INFINITY,
  perRound.get("LangGraph.js") ?? Number.POSITIVE_INFINITY,
);
const ratio = ourRound / fastestPeer;
if (Number.isFinite(ratio))
  console.log(
    `ours / faster peer: ${ratio.toFixed(3)}x (target <= 0.5x): ${ratio <= 0.5 ? "met" : "NOT met"}`,
  );
