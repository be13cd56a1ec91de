import { z } from "zod";
import { codec } from "../../util/codec.js";
import { AgentFailure } from "../agent-failure.js";
import { type Failure, failureIn } from "../failure.js";
import type { ToolObservation } from "../tool/tool-observation.js";

/** Observations as a loop hands them back: typed, in order. */
export type Observations = readonly ToolObservation<unknown, unknown>[];

/**
 * How a loop ended: the model's decoded answer; a degraded answer the workflow built from evidence after a
 * failure; or a failure with whatever evidence was gathered. Always one of these, never a throw.
 */
export type ReActOutcome<O> =
  | {
      readonly kind: "answer";
      readonly answer: O;
      readonly observations: Observations;
      readonly rounds: number;
    }
  | {
      readonly kind: "degraded";
      readonly answer: O;
      readonly failure: Failure;
      readonly observations: Observations;
      readonly rounds: number;
    }
  | {
      readonly kind: "failed";
      readonly failure: Failure;
      readonly observations: Observations;
      readonly rounds: number;
    };

/**
 * Failures that end a loop at once, with no finalization and no degrade: lost authorization (permission,
 * disabled feature, tool not allowed, revoked or forgotten, AI turned off) and cancellation.
 */
export const TERMINAL_FAILURES: ReadonlySet<Failure> = new Set<Failure>([
  AgentFailure.PERMISSION_DENIED,
  AgentFailure.MODULE_DISABLED,
  AgentFailure.TOOL_NOT_ALLOWED,
  AgentFailure.REVOKED,
  AgentFailure.AI_DISABLED,
  AgentFailure.CANCELLED,
]);

/** Whether a failure ends a loop at once (checked before the workflow's recoverable set). */
export const isTerminal = (failure: Failure): boolean => failureIn(failure, TERMINAL_FAILURES);

/**
 * The failures a loop that answers in words recovers from once it has evidence (one final answer within what is
 * left): the model or a tool failing, running out of budget or time, nothing found, an input refused.
 */
export const ANSWERABLE_FAILURES: ReadonlySet<Failure> = new Set<Failure>([
  AgentFailure.MODEL_UNAVAILABLE,
  AgentFailure.MODEL_INVALID_OUTPUT,
  AgentFailure.TIMEOUT,
  AgentFailure.BUSY,
  AgentFailure.BUDGET_EXHAUSTED,
  AgentFailure.MODULE_FAILED,
  AgentFailure.NOT_FOUND,
  AgentFailure.INPUT_INVALID,
]);

/** The final answer of such a loop: one text. */
export const TEXT_ANSWER = codec<{ text: string }>(z.object({ text: z.string().trim().min(1).max(4_000) }));
