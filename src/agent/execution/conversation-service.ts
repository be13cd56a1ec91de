import { type Logger, silentLogger } from "../../util/logger.js";
import type { AgentLifecycle } from "../agent-lifecycle.js";
import {
  ConversationMemory,
  type ConversationPreferences,
  type ConversationStore,
  type ConversationTurn,
  type ProjectedTurn,
} from "../storage/conversation-memory.js";
import type { MemoryGenerations } from "./memory-generations.js";

export interface ConversationServiceOptions {
  readonly store: ConversationStore;
  readonly generations: MemoryGenerations;
  readonly memory?: ConversationMemory;
  /** Preferences of a player who never chose. */
  readonly defaults?: ConversationPreferences;
  readonly logger?: Logger;
}

/** History on, external services allowed, until the player turns them off. */
export const DEFAULT_PREFERENCES: ConversationPreferences = Object.freeze({ history: true, external: true });

/**
 * Reads and writes a player's conversation: bounded history for prompts, clear, preferences, and
 * generation-checked write-back. Clearing history is "forget": it bumps the memory generation so work
 * started before it cannot write the old conversation back.
 */
export class ConversationService implements AgentLifecycle {
  readonly #store: ConversationStore;
  readonly #generations: MemoryGenerations;
  readonly #memory: ConversationMemory;
  readonly #defaults: ConversationPreferences;
  readonly #logger: Logger;

  constructor(options: ConversationServiceOptions) {
    this.#store = options.store;
    this.#generations = options.generations;
    this.#memory = options.memory ?? new ConversationMemory();
    this.#defaults = options.defaults ?? DEFAULT_PREFERENCES;
    this.#logger = options.logger ?? silentLogger;
  }

  get generations(): MemoryGenerations {
    return this.#generations;
  }

  async preferences(playerId: string): Promise<ConversationPreferences> {
    return { ...this.#defaults, ...(await this.#store.preferences(playerId)) };
  }

  /** Changes one or both preferences; returns the resulting preferences. */
  async setPreferences(
    playerId: string,
    change: Partial<ConversationPreferences>,
  ): Promise<ConversationPreferences> {
    const current = await this.preferences(playerId);
    const next: ConversationPreferences = {
      history: change.history ?? current.history,
      external: change.external ?? current.external,
      speech: change.speech ?? current.speech ?? false,
    };
    await this.#store.setPreferences(playerId, next);
    return next;
  }

  /** The full stored history (for the history view; read-only replay). */
  history(playerId: string): Promise<readonly ConversationTurn[]> {
    return this.#store.history(playerId);
  }

  /** The bounded history for a prompt; empty when the player turned history off. */
  async projection(playerId: string): Promise<ProjectedTurn[]> {
    if (!(await this.preferences(playerId)).history) return [];
    return this.#memory.project(await this.#store.history(playerId));
  }

  /** Forgets the conversation: bumps the generation first, then clears the stored history. */
  async clear(playerId: string): Promise<void> {
    this.#generations.bump(playerId);
    await this.#store.clearHistory(playerId);
  }

  /** Revoke/reset: bumps the generation and deletes history and preferences. */
  async revoke(playerId: string): Promise<void> {
    this.#generations.bump(playerId);
    await this.#store.delete(playerId);
  }

  onRevoke(playerId: string): Promise<void> {
    return this.revoke(playerId);
  }

  /**
   * Writes turns of work started under `generation`. Nothing is written when the generation changed since,
   * or history is off. Returns whether the turns were written; a failing write is logged, never thrown.
   */
  async record(playerId: string, generation: number, turns: readonly ConversationTurn[]): Promise<boolean> {
    if (!this.#generations.isCurrent(playerId, generation)) return false;
    try {
      if (!(await this.preferences(playerId)).history) return false;
      // The preference read may have waited: a forget meanwhile must still win.
      if (!this.#generations.isCurrent(playerId, generation)) return false;
      await this.#store.append(playerId, turns);
      return true;
    } catch (error) {
      this.#logger.warn(
        `history write for ${playerId} failed: ${error instanceof Error ? error.message : error}`,
      );
      return false;
    }
  }
}
