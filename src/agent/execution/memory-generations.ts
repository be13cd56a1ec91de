/** Called after a player's generation was bumped, so a cache can drop what it derived from older memory. */
export type GenerationListener = (playerId: string, generation: number) => void;

/**
 * Memory generations (记忆代次): forget and revoke bump a player's generation. Work records the generation
 * when it starts and may write history, caches or intent-cache entries only while `isCurrent` holds.
 * Generations live in memory: after a restart no work from before is running, so nothing stale can write.
 */
export class MemoryGenerations {
  readonly #generations = new Map<string, number>();
  readonly #listeners: GenerationListener[] = [];

  /** The player's current generation (0 until the first bump). */
  generation(playerId: string): number {
    return this.#generations.get(playerId) ?? 0;
  }

  /** Whether work that started under `generation` may still write for this player. */
  isCurrent(playerId: string, generation: number): boolean {
    return this.generation(playerId) === generation;
  }

  /** Invalidates everything started before now for this player; returns the new generation. */
  bump(playerId: string): number {
    const next = this.generation(playerId) + 1;
    this.#generations.set(playerId, next);
    for (const listener of this.#listeners) {
      try {
        listener(playerId, next);
      } catch {
        // One cache failing to drop its entries must not stop the others or the forget itself.
      }
    }
    return next;
  }

  /** Registers a cache that drops a player's entries when their generation changes. */
  onBump(listener: GenerationListener): void {
    this.#listeners.push(listener);
  }
}
