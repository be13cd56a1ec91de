import type {
  ConversationPreferences,
  ConversationStore,
  ConversationTurn,
} from "../storage/conversation-memory.js";

/**
 * A ConversationStore in process memory, keeping the newest `maxTurns` per player. Used until the chat cache
 * file backs the service, and in tests. Turns are immutable values, so copies of the arrays suffice.
 */
export class InMemoryConversationStore implements ConversationStore {
  readonly #history = new Map<string, ConversationTurn[]>();
  readonly #preferences = new Map<string, ConversationPreferences>();

  constructor(private readonly maxTurns = 64) {}

  async history(playerId: string): Promise<readonly ConversationTurn[]> {
    return [...(this.#history.get(playerId) ?? [])];
  }

  async append(playerId: string, turns: readonly ConversationTurn[]): Promise<void> {
    const next = [...(this.#history.get(playerId) ?? []), ...turns];
    this.#history.set(playerId, next.slice(Math.max(0, next.length - this.maxTurns)));
  }

  async clearHistory(playerId: string): Promise<void> {
    this.#history.delete(playerId);
  }

  async preferences(playerId: string): Promise<ConversationPreferences | undefined> {
    const stored = this.#preferences.get(playerId);
    return stored === undefined ? undefined : { ...stored };
  }

  async setPreferences(playerId: string, preferences: ConversationPreferences): Promise<void> {
    this.#preferences.set(playerId, { history: preferences.history, external: preferences.external });
  }

  async delete(playerId: string): Promise<void> {
    this.#history.delete(playerId);
    this.#preferences.delete(playerId);
  }
}
