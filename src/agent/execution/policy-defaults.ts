import type { ExecutionPolicy } from "./execution-policy.js";

/**
 * Every behaviour-altering default of the engine's budgets lives here; docs/policies.md quotes this table.
 * Values follow the seed's table for reasoning, question and free chat.
 */
const policy = (fields: ExecutionPolicy): ExecutionPolicy => Object.freeze(fields);

/** Tokens a chat template adds around one request (role markers, separators); reserved with its input bytes. */
export const INPUT_TOKEN_OVERHEAD = 16;

/** A single-shot workflow: no loop, one model call, a few tools. */
export const SIMPLE_POLICY = policy({
  modelCalls: 1,
  toolCalls: 4,
  steps: 8,
  writeSteps: 0,
  inputBytes: 65_536,
  outputTokens: 1_024,
  totalTokens: 65_536,
  ttlMillis: 30_000,
  modelTimeoutMillis: 15_000,
  reactIterations: 0,
});

export const DEFAULT_POLICIES: Readonly<Record<string, ExecutionPolicy>> = Object.freeze({
  "system:reasoning": policy({
    modelCalls: 4,
    toolCalls: 8,
    steps: 14,
    writeSteps: 0,
    inputBytes: 65_536,
    outputTokens: 1_536,
    totalTokens: 262_144,
    ttlMillis: 60_000,
    modelTimeoutMillis: 12_000,
    reactIterations: 3,
  }),
  "system:question": policy({
    modelCalls: 6,
    toolCalls: 9,
    steps: 20,
    writeSteps: 0,
    inputBytes: 65_536,
    outputTokens: 2_048,
    totalTokens: 262_144,
    ttlMillis: 90_000,
    modelTimeoutMillis: 20_000,
    reactIterations: 6,
  }),
  "system:free_chat": policy({
    modelCalls: 6,
    toolCalls: 16,
    steps: 32,
    writeSteps: 2,
    inputBytes: 65_536,
    outputTokens: 2_048,
    totalTokens: 262_144,
    ttlMillis: 90_000,
    modelTimeoutMillis: 30_000,
    reactIterations: 6,
  }),
});

/** The built-in default of a workflow, or the simple policy. */
export const defaultPolicyFor = (workflowId: string): ExecutionPolicy =>
  DEFAULT_POLICIES[workflowId] ?? SIMPLE_POLICY;
