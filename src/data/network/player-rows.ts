import type { ChatRecord } from "../../agent/storage/agent-store.js";
import type { PlayerPreferences, PlayerRecord, StoredModuleData } from "../../agent/storage/player-data.js";
import type { Json } from "../../util/codec.js";
import { invalid, type Validation, valid } from "../../util/validation.js";

/**
 * Format of the rows of `system_player_record` and `system_player_chat` (a column beside the JSON): the JSON is
 * the PlayerRecord / ChatRecord as the agent defines them. A row of another format is refused, never guessed.
 */
export const PLAYER_ROW_FORMAT = 1;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const formatOf = (row: unknown): Validation<unknown> => {
  if (!isObject(row)) return invalid("no row");
  if (row.format !== PLAYER_ROW_FORMAT) return invalid(`format ${String(row.format)} is not known here`);
  return valid(row);
};

/** A `system_player_record` row (`format`, `record`) → the player's record; damage is invalid. */
export const decodeRecordRow = (row: unknown, expectedPlayer: string): Validation<PlayerRecord> => {
  const checked = formatOf(row);
  if (!checked.success) return checked;
  const record = (row as { record?: unknown }).record;
  if (!isObject(record)) return invalid("record is not an object");
  const { playerId, generation, preferences, moduleData } = record;
  if (playerId !== expectedPlayer) return invalid(`record belongs to ${String(playerId)}`);
  if (typeof generation !== "number" || !Number.isInteger(generation)) return invalid("bad generation");
  if (!isObject(moduleData)) return invalid("moduleData is not an object");
  const owners: Record<string, Record<string, StoredModuleData>> = {};
  for (const [owner, types] of Object.entries(moduleData)) {
    if (!isObject(types)) return invalid(`moduleData.${owner} is not an object`);
    const entries: Record<string, StoredModuleData> = {};
    for (const [type, stored] of Object.entries(types)) {
      if (!isObject(stored) || typeof stored.codec !== "string" || !("data" in stored))
        return invalid(`moduleData.${owner}.${type} has no codec or data`);
      entries[type] = { codec: stored.codec, data: stored.data as Json };
    }
    owners[owner] = entries;
  }
  let chosen: PlayerPreferences | undefined;
  if (preferences !== undefined) {
    if (
      !isObject(preferences) ||
      typeof preferences.history !== "boolean" ||
      typeof preferences.external !== "boolean"
    )
      return invalid("bad preferences");
    chosen = {
      history: preferences.history,
      external: preferences.external,
      speech: preferences.speech === true,
    };
  }
  return valid({
    playerId,
    generation,
    ...(chosen === undefined ? {} : { preferences: chosen }),
    moduleData: owners,
  });
};

/** A `system_player_chat` row (`format`, `chat`) → the chat cache; damage is invalid (read as empty). */
export const decodeChatRow = (row: unknown, expectedPlayer: string): Validation<ChatRecord> => {
  const checked = formatOf(row);
  if (!checked.success) return checked;
  const chat = (row as { chat?: unknown }).chat;
  if (!isObject(chat)) return invalid("chat is not an object");
  const { playerId, generation, history, replay } = chat;
  if (playerId !== expectedPlayer) return invalid(`chat belongs to ${String(playerId)}`);
  if (typeof generation !== "number" || !Array.isArray(history) || !isObject(replay))
    return invalid("missing generation, history or replay");
  return valid({ playerId, generation, history: history as Json[], replay: replay as Record<string, Json> });
};
