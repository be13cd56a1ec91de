import type { AnyTool } from "../tool/tool.js";

/**
 * Runs a write step durably: a RUNNING receipt before the effect, DONE with the encoded result after.
 * Implemented over AgentJournal; the ExecutionContext calls it for every write tool.
 */
export interface StepRunner {
  run(stepKey: string, tool: AnyTool, input: unknown, effect: () => Promise<unknown>): Promise<unknown>;
}
