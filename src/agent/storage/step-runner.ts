import type { TraceParent } from "../telemetry/telemetry.js";
import type { AnyTool } from "../tool/tool.js";

/**
 * Runs a write step durably: a RUNNING receipt before the effect, DONE with the encoded result after.
 * Implemented over AgentJournal; the ExecutionContext calls it for every write tool.
 */
export interface StepRunner {
  /** `trace`: the span the step runs inside (its tool call), for a runner that records steps. */
  run(
    stepKey: string,
    tool: AnyTool,
    input: unknown,
    effect: () => Promise<unknown>,
    trace?: TraceParent,
  ): Promise<unknown>;
}
