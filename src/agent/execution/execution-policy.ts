import { z } from "zod";
import { codec } from "../../util/codec.js";
import type { Logger } from "../../util/logger.js";

/** The hard limits of one player request (the seed's ten fields). */
export interface ExecutionPolicy {
  readonly modelCalls: number;
  readonly toolCalls: number;
  readonly steps: number;
  readonly writeSteps: number;
  /** UTF-8 bytes of one model request (system text + user JSON) and of the player's input. */
  readonly inputBytes: number;
  /** Output tokens over the whole request. */
  readonly outputTokens: number;
  /** Input + output tokens over the whole request. */
  readonly totalTokens: number;
  readonly ttlMillis: number;
  readonly modelTimeoutMillis: number;
  /** ReAct rounds; 0 disables the loop of the workflow. */
  readonly reactIterations: number;
}

/** Rounds used when `reactIterations` is missing or invalid. */
export const DEFAULT_REACT_ITERATIONS = 3;

const count = z.number().int().min(0).max(1_000_000);
const bytes = z
  .number()
  .int()
  .min(0)
  .max(64 * 1024 * 1024);
const tokens = z.number().int().min(0).max(100_000_000);
const millis = z
  .number()
  .int()
  .min(1)
  .max(24 * 3_600_000);

/** Every field but reactIterations is required; reactIterations falls back to 3 when missing or invalid. */
const POLICY_SCHEMA = z.object({
  modelCalls: count,
  toolCalls: count,
  steps: count,
  writeSteps: count,
  inputBytes: bytes,
  outputTokens: tokens,
  totalTokens: tokens,
  ttlMillis: millis,
  modelTimeoutMillis: millis,
  reactIterations: z.unknown().optional(),
});

export const EXECUTION_POLICY_CODEC = codec(
  z.object({
    modelCalls: count,
    toolCalls: count,
    steps: count,
    writeSteps: count,
    inputBytes: bytes,
    outputTokens: tokens,
    totalTokens: tokens,
    ttlMillis: millis,
    modelTimeoutMillis: millis,
    reactIterations: z.number().int().min(0).max(64),
  }),
);

const reactIterationsOf = (value: unknown): number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 64
    ? value
    : DEFAULT_REACT_ITERATIONS;

/**
 * Reads a policy override from config. A partial or invalid object is refused with a log line naming the field,
 * and `fallback` (the module default) applies. Only reactIterations may be missing or invalid (then 3).
 */
export const readPolicyOverride = (
  workflowId: string,
  raw: unknown,
  fallback: ExecutionPolicy,
  logger: Logger,
): ExecutionPolicy => {
  const parsed = POLICY_SCHEMA.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? "(object)" : issue.path.join(".");
    logger.warn(
      `policies.${workflowId}: field ${field} is ${issue?.message ?? "invalid"}; a policy override must be a full object; using the module default`,
    );
    return fallback;
  }
  const { reactIterations, ...rest } = parsed.data;
  const rounds = reactIterationsOf(reactIterations);
  if (reactIterations !== undefined && rounds !== reactIterations)
    logger.warn(
      `policies.${workflowId}: reactIterations ${JSON.stringify(reactIterations)} is invalid; using ${rounds}`,
    );
  return Object.freeze({ ...rest, reactIterations: rounds });
};

/** A policy no looser than `base` in any dimension (children may only tighten). */
export const tightenPolicy = (base: ExecutionPolicy, change: Partial<ExecutionPolicy>): ExecutionPolicy => {
  const result: Record<string, number> = { ...base };
  for (const [field, value] of Object.entries(change)) {
    // NaN would make every `used >= limit` check false: an unlimited budget. Unknown fields are ignored.
    if (typeof value !== "number" || Number.isNaN(value) || !(field in base)) continue;
    const current = base[field as keyof ExecutionPolicy];
    result[field] = Math.min(current, value);
  }
  return Object.freeze(result as unknown as ExecutionPolicy);
};
