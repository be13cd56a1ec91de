import { AgentFailure } from "./agent-failure.js";
import type { Failure } from "./failure.js";

/** The one exception of the engine: it carries a Failure and nothing else. */
export class AgentException extends Error {
  readonly #failure: Failure;

  constructor(failure: Failure, options?: { cause?: unknown }) {
    super(failure.args.length > 0 ? `${failure.code}(${failure.args.join(", ")})` : failure.code, options);
    this.name = "AgentException";
    this.#failure = failure;
  }

  failure(): Failure {
    return this.#failure;
  }

  /** Finds the original Failure along the cause chain; anything else is MODULE_FAILED. */
  static failure(error: unknown): Failure {
    let current: unknown = error;
    for (let depth = 0; depth < 32 && current !== undefined && current !== null; depth++) {
      if (current instanceof AgentException) return current.failure();
      current = current instanceof Error ? current.cause : undefined;
    }
    return AgentFailure.MODULE_FAILED;
  }

  /** Wraps any error as an AgentException, keeping the original as the cause. */
  static wrap(error: unknown): AgentException {
    return error instanceof AgentException
      ? error
      : new AgentException(AgentException.failure(error), { cause: error });
  }
}
