import nbt from "prismarine-nbt";
import type { ChatRecord } from "../../agent/storage/agent-store.js";
import type { Json } from "../../util/codec.js";
import { invalid, type Validation, valid } from "../../util/validation.js";
import type { NbtFields } from "./nbt-file.js";

/** Format version of chat cache files. */
export const CHAT_FILE_VERSION = 1;

/**
 * Chat cache → NBT fields: playerId (string), generation (int), history (list of strings, one JSON entry
 * each, oldest first), replay {<fingerprint>: string JSON}.
 */
export const encodeChat = (record: ChatRecord): NbtFields => {
  const replay: NbtFields = {};
  for (const [fingerprint, entry] of Object.entries(record.replay))
    replay[fingerprint] = nbt.string(JSON.stringify(entry));
  return {
    playerId: nbt.string(record.playerId),
    generation: nbt.int(record.generation),
    history: {
      type: "list",
      value: { type: "string", value: record.history.map((entry) => JSON.stringify(entry)) },
    },
    replay: nbt.comp(replay),
  };
};

/** NBT fields → chat cache; damage is invalid (the store quarantines the file and reads empty). */
export const decodeChat = (fields: NbtFields, expectedPlayer: string): Validation<ChatRecord> => {
  const playerId = fields.playerId?.type === "string" ? fields.playerId.value : undefined;
  const generation = fields.generation?.type === "int" ? fields.generation.value : undefined;
  const history = fields.history?.type === "list" ? fields.history.value : undefined;
  const replay = fields.replay?.type === "compound" ? fields.replay.value : undefined;
  if (
    playerId !== expectedPlayer ||
    generation === undefined ||
    history === undefined ||
    replay === undefined
  )
    return invalid("missing or foreign playerId, generation, history or replay");
  if (history.type !== "string" && history.value.length > 0)
    return invalid("history is not a list of strings");
  try {
    const entries = (history.value as string[]).map((text) => JSON.parse(text) as Json);
    const replayed: Record<string, Json> = {};
    for (const [fingerprint, tag] of Object.entries(replay)) {
      if (tag?.type !== "string") return invalid(`replay.${fingerprint} is not a string`);
      replayed[fingerprint] = JSON.parse(tag.value) as Json;
    }
    return valid({ playerId, generation, history: entries, replay: replayed });
  } catch {
    return invalid("an entry holds no JSON");
  }
};
