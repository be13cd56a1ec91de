/**
 * A reason for failure: a stable code (persisted), a translation key and message arguments.
 * Extensions may create their own Failure values; they need not join AgentFailure.
 */
export interface Failure {
  readonly code: string;
  readonly key: string;
  readonly args: readonly string[];
}

/** Whether two failures are the same reason (by code), whatever their arguments. */
export const sameFailure = (left: Failure, right: Failure): boolean => left.code === right.code;

/** Whether a failure is in a set of reasons, compared by code. */
export const failureIn = (failure: Failure, set: ReadonlySet<Failure>): boolean => {
  for (const entry of set) if (entry.code === failure.code) return true;
  return false;
};

/** Creates an extension failure with its own key. */
export const customFailure = (code: string, key: string, ...args: string[]): Failure => ({ code, key, args });

/** The budget dimensions of an ExecutionPolicy that can run out. */
export type BudgetDimension =
  | "modelCalls"
  | "toolCalls"
  | "steps"
  | "writeSteps"
  | "inputBytes"
  | "outputTokens"
  | "totalTokens"
  | "ttlMillis"
  | "reactIterations";
