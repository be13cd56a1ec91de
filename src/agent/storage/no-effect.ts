import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";

/**
 * A write handler's refusal that provably changed nothing (the player is offline, the items do not fit): its
 * receipt is closed as FAILED with `noEffect`, so the same step may run again later, even for a tool that is not
 * idempotent. Throw it only before the first change; a failure after any change must stay an ordinary one.
 */
export class NoEffectException extends AgentException {
  constructor(...args: ConstructorParameters<typeof AgentException>) {
    super(...args);
    this.name = "NoEffectException";
  }
}

/** Whether an error (or one along its cause chain, up to the first AgentException) is a no-effect refusal. */
export const hadNoEffect = (error: unknown): boolean => {
  let current: unknown = error;
  for (let depth = 0; depth < 32 && current instanceof Error; depth++) {
    if (current instanceof AgentException) return current instanceof NoEffectException;
    current = current.cause;
  }
  return false;
};

/**
 * Whether an error is a no-effect refusal because the world could not take the effect now (EFFECT_DEFERRED):
 * the effect is still owed, so a workflow passes it on (its event task waits) instead of settling anything.
 */
export const wasDeferred = (error: unknown): boolean =>
  hadNoEffect(error) && AgentException.failure(error).code === AgentFailure.EFFECT_DEFERRED.code;
