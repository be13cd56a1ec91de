import { AgentResult } from "../../agent/agent-result.js";
import type { AgentStore, ChatRecord } from "../../agent/storage/agent-store.js";
import type {
  ConversationPreferences,
  ConversationStore,
  ConversationTurn,
} from "../../agent/storage/conversation-memory.js";
import type { Json } from "../../util/codec.js";

const encodeTurn = (turn: ConversationTurn): Json =>
  turn.role === "user"
    ? { role: "user", requestId: turn.requestId, at: turn.at, text: turn.text }
    : {
        role: "assistant",
        requestId: turn.requestId,
        at: turn.at,
        result: AgentResult.CODEC.encode(turn.result),
      };

const decodeTurn = (entry: Json): ConversationTurn | undefined => {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
  const { role, requestId, at } = entry;
  if (typeof requestId !== "string" || typeof at !== "number") return undefined;
  if (role === "user")
    return typeof entry.text === "string" ? { role, requestId, at, text: entry.text } : undefined;
  if (role !== "assistant") return undefined;
  const result = AgentResult.CODEC.decode(entry.result);
  return result.success ? { role, requestId, at, result: result.value } : undefined;
};

/**
 * ConversationStore over the AgentStore: history in the chat cache file (a cache: a failed write is logged,
 * never thrown), preferences in the player file (a business write, durable). A cache written under an older
 * memory generation than the player's reads as empty, so forgotten history never comes back.
 */
export class FileConversationStore implements ConversationStore {
  constructor(
    private readonly store: AgentStore,
    private readonly maxTurns = 64,
  ) {}

  async history(playerId: string): Promise<readonly ConversationTurn[]> {
    const [chat, generation] = await Promise.all([this.store.readChat(playerId), this.#generation(playerId)]);
    if (chat.generation < generation) return [];
    return chat.history.map(decodeTurn).filter((turn): turn is ConversationTurn => turn !== undefined);
  }

  async append(playerId: string, turns: readonly ConversationTurn[]): Promise<void> {
    const generation = await this.#generation(playerId);
    await this.store.writeChat(playerId, (chat): ChatRecord => {
      const kept = chat.generation < generation ? [] : chat.history;
      const history = [...kept, ...turns.map(encodeTurn)];
      return {
        ...chat,
        generation,
        ...(chat.generation < generation ? { replay: {} } : {}),
        history: history.slice(Math.max(0, history.length - this.maxTurns)),
      };
    });
  }

  async clearHistory(playerId: string): Promise<void> {
    const generation = await this.#generation(playerId);
    await this.store.writeChat(playerId, (chat) => ({ ...chat, generation, history: [], replay: {} }));
  }

  preferences(playerId: string): Promise<ConversationPreferences | undefined> {
    return this.store.read(playerId, (data) => data.preferences);
  }

  async setPreferences(playerId: string, preferences: ConversationPreferences): Promise<void> {
    await this.store.transaction(playerId, (data) => data.setPreferences(preferences));
  }

  /**
   * Deletes the conversation (revoke): history and preferences. The rest of the player file (check-in streaks,
   * deliveries, other features' data) is kept; `/system reset` is what deletes everything.
   */
  async delete(playerId: string): Promise<void> {
    await this.clearHistory(playerId);
    await this.store.transaction(playerId, (data) => data.clearPreferences());
  }

  #generation(playerId: string): Promise<number> {
    return this.store.read(playerId, (data) => data.generation);
  }
}
