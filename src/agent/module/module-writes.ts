import type { ExecutionPolicy } from "../execution/execution-policy.js";
import type { AnyTool } from "../tool/tool.js";

/**
 * What a workflow changes, declared by the workflow itself (the seed's write budget made explicit):
 * - `none`: it only reads. Only such a workflow may be routed directly (semantic match, intent cache, fallback
 *   candidate), offered to a model as a read, or have its running answer shared with a repeat.
 * - `state`: it changes state (files, settings, grants, a quote, a game effect); every request runs it again.
 * - `replayable`: it changes state, and a repeat of the same structured request within the replay window is
 *   answered by the stored result (marked as a repeat), never run twice: a check-in, a payment's confirmation.
 */
export type ModuleWrites = "none" | "state" | "replayable";

/** Whether a declaration changes state. */
export const writesState = (writes: ModuleWrites): boolean => writes !== "none";

/**
 * The declaration a workflow gets when it states none: a write budget or a write tool make it `replayable` (what
 * the replay cache did for such workflows before declarations), otherwise `none`.
 */
export const inferredWrites = (policy: ExecutionPolicy, tools: readonly AnyTool[]): ModuleWrites =>
  policy.writeSteps > 0 || tools.some((tool) => !tool.readOnly) ? "replayable" : "none";

/**
 * Why a declaration contradicts what the workflow may do (undefined: it does not): a workflow declared `none`
 * may have no write budget and no write tool.
 */
export const writesContradiction = (
  writes: ModuleWrites,
  policy: ExecutionPolicy,
  tools: readonly AnyTool[],
): string | undefined => {
  if (writes !== "none") return undefined;
  if (policy.writeSteps > 0) return `declares no writes but has a write budget of ${policy.writeSteps}`;
  const write = tools.find((tool) => !tool.readOnly);
  return write === undefined ? undefined : `declares no writes but requires the write tool ${write.id}`;
};
