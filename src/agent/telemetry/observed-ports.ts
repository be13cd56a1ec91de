import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { ModelCallMeta, ModelPort, ModelRequest, ModelResponse } from "../model/model-client.js";
import type { StepRunner } from "../storage/step-runner.js";
import type { AnyTool } from "../tool/tool.js";
import type { Telemetry, TelemetrySpan, TraceParent } from "./telemetry.js";

const secondsSince = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;

/** The failure code of whatever a call threw (MODULE_FAILED for errors that carry none). */
export const failureCodeOf = (error: unknown): string => AgentException.failure(error).code;

/**
 * A model port that records every call (routing and workflows alike) with its model, workflow, latency, tokens and
 * outcome, inside a `chat <model>` span carrying the GenAI attributes. Prompts and answers go into the span only
 * when the admin opted in.
 */
export const observedModelPort = (port: ModelPort, telemetry: Telemetry, model: () => string): ModelPort => ({
  call: (request: ModelRequest, meta: ModelCallMeta): Promise<ModelResponse> => {
    const name = model();
    return telemetry.span(
      `chat ${name}`,
      {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": name,
        "gen_ai.request.max_tokens": request.maxOutputTokens,
        "assistant.workflow": meta.workflow,
        ...(telemetry.recordsContent
          ? { "gen_ai.prompt": `${request.system}\n${JSON.stringify(request.user)}` }
          : {}),
      },
      meta.trace ?? meta.requestId,
      async (span) => {
        const started = process.hrtime.bigint();
        try {
          const response = await port.call(request, meta);
          span.setAttributes({
            "gen_ai.usage.input_tokens": response.usage.inputTokens,
            "gen_ai.usage.output_tokens": response.usage.outputTokens,
            ...(telemetry.recordsContent ? { "gen_ai.completion": response.text } : {}),
          });
          telemetry.modelCall({
            ...(meta.requestId === undefined ? {} : { requestId: meta.requestId }),
            model: name,
            workflow: meta.workflow,
            outcome: "ok",
            seconds: secondsSince(started),
            inputTokens: finite(response.usage.inputTokens),
            outputTokens: finite(response.usage.outputTokens),
          });
          return response;
        } catch (error) {
          const outcome = failureCodeOf(error);
          span.fail(outcome);
          telemetry.modelCall({
            ...(meta.requestId === undefined ? {} : { requestId: meta.requestId }),
            model: name,
            workflow: meta.workflow,
            outcome,
            seconds: secondsSince(started),
            inputTokens: 0,
            outputTokens: 0,
          });
          throw error;
        }
      },
    );
  },
});

const finite = (value: number): number => (Number.isFinite(value) ? Math.max(0, value) : 0);

/** A step runner that records each journal write step in a `journal.step` span and counts it by outcome. */
export const observedStepRunner = (steps: StepRunner, telemetry: Telemetry): StepRunner => ({
  run: (
    stepKey: string,
    tool: AnyTool,
    input: unknown,
    effect: () => Promise<unknown>,
    trace?: TraceParent,
  ): Promise<unknown> =>
    telemetry.span("journal.step", { "assistant.tool": tool.id.toString() }, trace, async (span) => {
      try {
        const result = await steps.run(stepKey, tool, input, effect);
        telemetry.journalStep("done");
        return result;
      } catch (error) {
        const code = failureCodeOf(error);
        span.fail(code);
        telemetry.journalStep(code === AgentFailure.EFFECT_UNKNOWN.code ? "unknown" : "failed");
        throw error;
      }
    }),
});

/** Runs one tool call inside a `tool <id>` span under `parent` and counts it by tool and outcome. */
export const observedToolCall = <T>(
  telemetry: Telemetry,
  tool: AnyTool,
  parent: TraceParent,
  call: (span: TelemetrySpan) => Promise<T>,
): Promise<T> => {
  const id = tool.id.toString();
  return telemetry.span(
    `execute_tool ${id}`,
    {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": id,
      "assistant.tool.read_only": tool.readOnly,
    },
    parent,
    async (span) => {
      const started = process.hrtime.bigint();
      try {
        const result = await call(span);
        telemetry.toolCall(id, "ok", secondsSince(started));
        return result;
      } catch (error) {
        const code = failureCodeOf(error);
        span.fail(code);
        telemetry.toolCall(id, code, secondsSince(started));
        throw error;
      }
    },
  );
};
