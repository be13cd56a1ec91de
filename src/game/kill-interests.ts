import { ContextType } from "../agent/module/context-type.js";

/**
 * The entity a kill is reported with when only "a mob was killed" is known (a host that reads the server's mob-kills
 * statistic), and the interest in such kills (a kill rule that names no entity). No entity condition matches it.
 */
export const ANY_MOB = "*";

/** The entity types (`minecraft:zombie`) whose kills a feature counts for a player now. */
export type KillInterest = (playerId: string) => Promise<readonly string[]>;

/**
 * Which kills matter to whom, for hosts that must ask the server for kill counts (the gateway polls the backend's
 * scoreboard only for these): features register what they count (the quest book: kill tasks a player can work on).
 */
export class KillInterests {
  readonly #interests = new Set<KillInterest>();

  /** Registers a feature's interest; returns the unregister. */
  register(interest: KillInterest): () => void {
    this.#interests.add(interest);
    return () => this.#interests.delete(interest);
  }

  /** Every entity type some feature counts for the player now; a feature that fails counts nothing. */
  async of(playerId: string): Promise<ReadonlySet<string>> {
    const entities = new Set<string>();
    for (const interest of this.#interests)
      for (const entity of await interest(playerId).catch(() => [])) entities.add(entity);
    return entities;
  }
}

/** The server's kill interests, provided to every feature. */
export const KILL_INTERESTS = ContextType.of<KillInterests>("system:kill_interests");
