import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TEST_POLICY as POLICY } from "../../../test/support/test-policy.js";
import { codec } from "../../util/codec.js";
import { ExecutionContext } from "../execution/execution-context.js";
import type { ModelCallMeta, ModelPort } from "../model/model-client.js";
import type { StepRunner } from "../storage/step-runner.js";
import { type AnyTool, Tool } from "../tool/tool.js";
import { ToolType } from "../tool/tool-type.js";
import { NO_TELEMETRY, type Telemetry, type TelemetrySpan, type TraceParent } from "./telemetry.js";

const QUERY = codec(z.object({ query: z.string() }));
const GIVE = ToolType.of("system:item.give", QUERY, QUERY);

/** A named span, so a test can say which one a step was opened under. */
const named = (name: string): TelemetrySpan & { readonly name: string } => ({
  name,
  setAttributes: () => {},
  fail: () => {},
});

/** Telemetry that records each span's parent and each signal linked to a span. */
const recording = () => {
  const opened: { name: string; parent: TraceParent | undefined }[] = [];
  const links: { signal: AbortSignal; span: TelemetrySpan }[] = [];
  const telemetry: Telemetry = {
    ...NO_TELEMETRY,
    span: (name, _attributes, parent, work) => {
      opened.push({ name, parent });
      return work(named(name));
    },
    link: (signal, span) => links.push({ signal, span }),
  };
  return { telemetry, opened, links };
};

describe("explicit trace parents through an ExecutionContext", () => {
  it("hangs calls under the request, then under the span it runs within; an effect's signal names its tool", async () => {
    const { telemetry, opened, links } = recording();
    const metas: ModelCallMeta[] = [];
    const model: ModelPort = {
      call: async (_request, meta) => {
        metas.push(meta);
        return { text: "ok", usage: { inputTokens: 1, outputTokens: 1 } };
      },
    };
    const stepParents: (TraceParent | undefined)[] = [];
    const steps: StepRunner = {
      run: async (_key, _tool, _input, effect, trace) => {
        stepParents.push(trace);
        return effect();
      },
    };
    const seen: AbortSignal[] = [];
    const give = Tool.of(GIVE, async (input, scope) => {
      seen.push(scope.signal);
      return input;
    }) as unknown as AnyTool;
    const context = new ExecutionContext({
      requestId: "req-1",
      playerId: "p",
      locale: "en_us",
      workflow: "system:test",
      owner: undefined,
      features: new Set(),
      policy: POLICY,
      tools: {
        required: new Map([[give.id.toString(), give]]),
        optional: new Set(),
        lookup: () => undefined,
      },
      model,
      steps,
      telemetry,
    });
    expect(context.trace).toBe("req-1");
    await context.model({ system: "s", user: {} });
    const round = named("react.round");
    await context.within(round, async () => {
      await context.model({ system: "s", user: {} });
      await context.tool(GIVE, "give", { query: "x" });
      // a workflow run from this one keeps the parent it was started under
      expect(context.child({ workflow: "system:nested", stepPrefix: "n" }).trace).toBe(round);
    });
    expect(context.trace).toBe("req-1");
    expect(metas.map((meta) => meta.trace)).toEqual(["req-1", round]);
    expect(opened).toEqual([{ name: "execute_tool system:item.give", parent: round }]);
    const tool = stepParents[0] as unknown as { name: string };
    expect(tool.name).toBe("execute_tool system:item.give");
    expect(links).toHaveLength(1);
    expect(links[0]?.signal).toBe(seen[0]);
    expect(links[0]?.span).toBe(tool);
  });
});
