import type { ExecutionPolicy } from "../../src/agent/execution/execution-policy.js";

/** A roomy policy for tests of one ExecutionContext: every budget set, none in the way of a few calls. */
export const TEST_POLICY: ExecutionPolicy = {
  modelCalls: 10,
  toolCalls: 10,
  steps: 20,
  writeSteps: 2,
  inputBytes: 10_000,
  outputTokens: 1000,
  totalTokens: 100_000,
  ttlMillis: 60_000,
  modelTimeoutMillis: 10_000,
  reactIterations: 3,
};
