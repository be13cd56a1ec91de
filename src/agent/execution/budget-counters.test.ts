import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { AgentException } from "../agent-exception.js";
import type { BudgetDimension } from "../failure.js";
import type { ModelPort } from "../model/model-client.js";
import { type AnyTool, Tool } from "../tool/tool.js";
import { ToolType } from "../tool/tool-type.js";
import { BudgetCounters, modelInputBytes, worstCaseInputTokens } from "./budget-counters.js";
import { ExecutionContext } from "./execution-context.js";
import type { ExecutionPolicy } from "./execution-policy.js";
import { INPUT_TOKEN_OVERHEAD } from "./policy-defaults.js";

describe("BudgetCounters", () => {
  it("totals input and output tokens", () => {
    const counters = new BudgetCounters();
    counters.inputTokens = 7;
    counters.outputTokens = 3;
    expect(counters.totalTokens).toBe(10);
    expect(counters.snapshot()).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
  });

  it("measures model input in UTF-8 and reserves it with the template overhead", () => {
    expect(modelInputBytes({ system: "钻石", user: { a: "é" } })).toBe(6 + 10);
    expect(worstCaseInputTokens(100)).toBe(100 + INPUT_TOKEN_OVERHEAD);
  });
});

// ---- property: random policies, random sequences of tool and model calls ----

const ARG = codec(z.object({ n: z.number() }));
const READ = ToolType.of("system:read", ARG, ARG);
const WRITE = ToolType.of("system:write", ARG, ARG);
const TOOLS = [
  Tool.of(READ, async (input) => input).asReadOnly(),
  Tool.of(WRITE, async (input) => input),
] as unknown as AnyTool[];

type Command =
  | { readonly kind: "tool"; readonly write: boolean }
  | {
      readonly kind: "model";
      readonly system: string;
      readonly user: string;
      readonly maxOutputTokens: number | undefined;
      /** How much of what the context allows the model reports using, in percent. */
      readonly inputPercent: number;
      readonly outputPercent: number;
    }
  | { readonly kind: "child"; readonly tighten: Partial<ExecutionPolicy> };

const text = fc
  .array(fc.constantFrom("a", "Z", "钻", "石", "é", "😀", " ", "\n", '"'), { maxLength: 40 })
  .map((parts) => parts.join(""));

const policyArbitrary: fc.Arbitrary<ExecutionPolicy> = fc.record({
  modelCalls: fc.integer({ min: 0, max: 5 }),
  toolCalls: fc.integer({ min: 0, max: 6 }),
  steps: fc.integer({ min: 0, max: 9 }),
  writeSteps: fc.integer({ min: 0, max: 3 }),
  inputBytes: fc.integer({ min: 0, max: 200 }),
  outputTokens: fc.integer({ min: 0, max: 300 }),
  totalTokens: fc.integer({ min: 0, max: 1_000 }),
  ttlMillis: fc.constant(600_000),
  modelTimeoutMillis: fc.constant(600_000),
  reactIterations: fc.integer({ min: 0, max: 6 }),
});

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant("tool" as const), write: fc.boolean() }),
  fc.record({
    kind: fc.constant("model" as const),
    system: text,
    user: text,
    maxOutputTokens: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
    inputPercent: fc.integer({ min: 0, max: 100 }),
    outputPercent: fc.integer({ min: 0, max: 100 }),
  }),
  fc.record({
    kind: fc.constant("child" as const),
    tighten: fc.record(
      {
        modelCalls: fc.integer({ min: 0, max: 8 }),
        toolCalls: fc.integer({ min: 0, max: 8 }),
        steps: fc.integer({ min: 0, max: 12 }),
        totalTokens: fc.integer({ min: 0, max: 1_200 }),
      },
      { requiredKeys: [] },
    ),
  }),
);

/** The counter a dimension limits (inputBytes is per request, so it has none). */
const used = (counters: BudgetCounters, dimension: BudgetDimension): number =>
  dimension === "totalTokens"
    ? counters.totalTokens
    : ((counters as unknown as Record<string, number>)[dimension] ?? 0);

const COUNTED: readonly BudgetDimension[] = [
  "modelCalls",
  "toolCalls",
  "steps",
  "writeSteps",
  "outputTokens",
  "totalTokens",
];

describe("budget property", () => {
  it("no counter ever exceeds its policy dimension and every refusal names a dimension that ran out", async () => {
    await fc.assert(
      fc.asyncProperty(
        policyArbitrary,
        fc.array(commandArbitrary, { maxLength: 30 }),
        async (root, commands) => {
          let percents = { input: 0, output: 0 };
          const port: ModelPort = {
            call: async (request) => {
              const bytes = modelInputBytes(request);
              return {
                text: "ok",
                usage: {
                  inputTokens: Math.floor((worstCaseInputTokens(bytes) * percents.input) / 100),
                  outputTokens: Math.floor((request.maxOutputTokens * percents.output) / 100),
                },
              };
            },
          };
          let context = new ExecutionContext({
            requestId: "r",
            playerId: "p",
            locale: "en_us",
            workflow: "system:test",
            owner: undefined,
            features: new Set(),
            policy: root,
            tools: {
              required: new Map(TOOLS.map((tool) => [tool.id.toString(), tool])),
              optional: new Set(),
              lookup: () => undefined,
            },
            model: port,
            now: () => 0,
          });
          const counters = context.counters;
          for (const [index, command] of commands.entries()) {
            if (command.kind === "child") {
              context = context.child({
                workflow: "system:nested",
                stepPrefix: `c${index}`,
                policy: command.tighten,
              });
              for (const dimension of COUNTED)
                expect(context.policy[dimension as keyof ExecutionPolicy]).toBeLessThanOrEqual(
                  root[dimension as keyof ExecutionPolicy],
                );
              continue;
            }
            const policy = context.policy;
            const before = counters.snapshot();
            // Which dimensions have run out for this call, from the counters before it.
            const out = new Set<BudgetDimension>();
            let attempt: Promise<unknown>;
            if (command.kind === "tool") {
              if (counters.toolCalls >= policy.toolCalls) out.add("toolCalls");
              if (counters.steps >= policy.steps) out.add("steps");
              if (command.write && counters.writeSteps >= policy.writeSteps) out.add("writeSteps");
              attempt = context.tool(command.write ? WRITE : READ, `s${index}`, { n: index });
            } else {
              const call = { system: command.system, user: { text: command.user } };
              const bytes = modelInputBytes(call);
              if (counters.modelCalls >= policy.modelCalls) out.add("modelCalls");
              if (counters.steps >= policy.steps) out.add("steps");
              if (bytes > policy.inputBytes) out.add("inputBytes");
              if (counters.outputTokens >= policy.outputTokens) out.add("outputTokens");
              if (counters.totalTokens + worstCaseInputTokens(bytes) >= policy.totalTokens)
                out.add("totalTokens");
              percents = { input: command.inputPercent, output: command.outputPercent };
              attempt = context.model(
                command.maxOutputTokens === undefined
                  ? call
                  : { ...call, maxOutputTokens: command.maxOutputTokens },
              );
            }
            let refusal: unknown;
            await attempt.catch((error: unknown) => {
              refusal = error ?? new Error("rejected with nothing");
            });
            if (refusal === undefined) {
              expect(out.size, `call ${index} ran although ${[...out].join(",")} ran out`).toBe(0);
            } else {
              expect(refusal).toBeInstanceOf(AgentException);
              const failure = (refusal as AgentException).failure();
              expect(failure.code).toBe("BUDGET_EXHAUSTED");
              expect(out.has(failure.args[0] as BudgetDimension), `${failure.args[0]} did not run out`).toBe(
                true,
              );
              expect(counters.snapshot()).toEqual(before);
            }
            for (const dimension of COUNTED) {
              expect(used(counters, dimension)).toBeLessThanOrEqual(root[dimension as keyof ExecutionPolicy]);
              // A child tightened below what was already used refuses; what a call charges stays within its context.
              const charged = used(counters, dimension) > (before[dimension] ?? 0);
              if (charged)
                expect(used(counters, dimension)).toBeLessThanOrEqual(
                  policy[dimension as keyof ExecutionPolicy],
                );
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
