import nbt from "prismarine-nbt";
import type { PlayerRecord, StoredModuleData } from "../../agent/storage/player-data.js";
import type { Json } from "../../util/codec.js";
import { invalid, type Validation, valid } from "../../util/validation.js";
import type { NbtFields } from "./nbt-file.js";

/** Format version of player files; bump with a migration when the layout changes. */
export const PLAYER_FILE_VERSION = 1;

type Tag = NbtFields[string];

const stringOf = (tag: Tag): string | undefined => (tag?.type === "string" ? tag.value : undefined);
const intOf = (tag: Tag): number | undefined => (tag?.type === "int" ? tag.value : undefined);
const compoundOf = (tag: Tag): NbtFields | undefined => (tag?.type === "compound" ? tag.value : undefined);

/**
 * Player record → NBT fields. Layout: playerId (string), generation (int), preferences {history, external}
 * (bytes, absent until chosen), moduleData {<owner>: {<type>: {codec: string, data: string}}}. `data` is the
 * storage codec's JSON as a string tag: module codecs are JSON codecs, and this keeps them lossless.
 */
export const encodePlayer = (record: PlayerRecord): NbtFields => {
  const owners: NbtFields = {};
  for (const [owner, types] of Object.entries(record.moduleData)) {
    const entries: NbtFields = {};
    for (const [type, stored] of Object.entries(types))
      entries[type] = nbt.comp({
        codec: nbt.string(stored.codec),
        data: nbt.string(JSON.stringify(stored.data)),
      });
    owners[owner] = nbt.comp(entries);
  }
  const fields: NbtFields = {
    playerId: nbt.string(record.playerId),
    generation: nbt.int(record.generation),
    moduleData: nbt.comp(owners),
  };
  if (record.preferences !== undefined)
    fields.preferences = nbt.comp({
      history: nbt.byte(record.preferences.history ? 1 : 0),
      external: nbt.byte(record.preferences.external ? 1 : 0),
      speech: nbt.byte(record.preferences.speech === true ? 1 : 0),
    });
  return fields;
};

/** NBT fields → player record; any structural damage is invalid (the store then quarantines the file). */
export const decodePlayer = (fields: NbtFields, expectedPlayer: string): Validation<PlayerRecord> => {
  const playerId = stringOf(fields.playerId);
  const generation = intOf(fields.generation);
  const owners = compoundOf(fields.moduleData);
  if (playerId === undefined || generation === undefined || owners === undefined)
    return invalid("missing playerId, generation or moduleData");
  if (playerId !== expectedPlayer) return invalid(`file belongs to ${playerId}`);
  const moduleData: Record<string, Record<string, StoredModuleData>> = {};
  for (const [owner, ownerTag] of Object.entries(owners)) {
    const types = compoundOf(ownerTag);
    if (types === undefined) return invalid(`moduleData.${owner} is not a compound`);
    const decoded: Record<string, StoredModuleData> = {};
    for (const [type, typeTag] of Object.entries(types)) {
      const entry = compoundOf(typeTag);
      const codecId = entry === undefined ? undefined : stringOf(entry.codec);
      const text = entry === undefined ? undefined : stringOf(entry.data);
      if (codecId === undefined || text === undefined)
        return invalid(`moduleData.${owner}.${type} is damaged`);
      try {
        decoded[type] = { codec: codecId, data: JSON.parse(text) as Json };
      } catch {
        return invalid(`moduleData.${owner}.${type} holds no JSON`);
      }
    }
    moduleData[owner] = decoded;
  }
  const preferences = compoundOf(fields.preferences);
  const record: PlayerRecord = { playerId, generation, moduleData };
  if (preferences === undefined) return valid(record);
  const history = preferences.history?.type === "byte" ? preferences.history.value !== 0 : true;
  const external = preferences.external?.type === "byte" ? preferences.external.value !== 0 : true;
  const speech = preferences.speech?.type === "byte" ? preferences.speech.value !== 0 : false;
  return valid({ ...record, preferences: { history, external, speech } });
};
