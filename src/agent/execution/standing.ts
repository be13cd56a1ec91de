import type { Failure } from "../failure.js";

/**
 * A player's standing as it is now, read at every tool call, model call and before the output: a request that
 * started with a permission keeps running only while the player still has it.
 */
export interface Standing {
  /** The features enabled for the player now. */
  features(): ReadonlySet<string>;
  /** Why the request may not go on (memory cleared, access revoked); undefined while it may. */
  lost(): Failure | undefined;
  /**
   * Why the player may not call a model now (AI off, `simple` mode, no model, external services turned off);
   * undefined when allowed. Read before every model call.
   */
  modelRefusal(): Failure | undefined | Promise<Failure | undefined>;
}

/** A standing fixed at admission (unit tests and tools that run outside a player's request). */
export const fixedStanding = (features: ReadonlySet<string>): Standing => ({
  features: () => features,
  lost: () => undefined,
  modelRefusal: () => undefined,
});
