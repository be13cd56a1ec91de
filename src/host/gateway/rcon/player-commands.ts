import { invalid, type Validation, valid } from "../../../util/validation.js";
import { checkInteger, checkPattern, MAX_EXPERIENCE, NBT_PATH, PLAYER_NAME } from "./command-arguments.js";
import {
  arg,
  NO_ENTITY_CASE,
  NO_PLAYER_CASE,
  type NoEntity,
  type NoPlayer,
  NUMBER,
  type RconCommand,
  readReply,
  type UnknownCommand,
  UUID,
} from "./rcon-command.js";
import type { ReplyLanguage } from "./reply-language.js";

/** What `data get entity` answered: the value as SNBT (`20.0f`, `[{count: 3, Slot: 0b, id: "minecraft:bread"}]`). */
export type DataReply =
  | { readonly outcome: "data"; readonly entity: string; readonly snbt: string }
  | { readonly outcome: "nothing_found"; readonly path: string }
  | { readonly outcome: "several_values" }
  | NoEntity
  | UnknownCommand;

/** One player in a `list uuids` reply. */
export interface ListedPlayer {
  readonly name: string;
  readonly uuid: string;
}

/** What `list uuids` answered. */
export type ListReply =
  | {
      readonly outcome: "list";
      readonly online: number;
      readonly max: number;
      readonly players: readonly ListedPlayer[];
    }
  | UnknownCommand;

/** What `experience add` answered. */
export type ExperienceReply =
  | {
      readonly outcome: "added";
      readonly amount: number;
      readonly unit: "points" | "levels";
      readonly player: string;
    }
  | {
      readonly outcome: "added_to_players";
      readonly amount: number;
      readonly unit: "points" | "levels";
      readonly players: number;
    }
  | NoPlayer
  | UnknownCommand;

/** `data get entity <player> [path]`: the player's whole data, or one path of it. */
export const dataGetEntityCommand = (options: {
  readonly player: string;
  readonly path?: string;
}): Validation<RconCommand<DataReply>> => {
  const player = checkPattern("player name", PLAYER_NAME, options.player);
  if (!player.success) return player;
  const path = options.path === undefined ? undefined : checkPattern("NBT path", NBT_PATH, options.path);
  if (path !== undefined && !path.success) return path;
  return valid({
    name: "data",
    arguments: ["get", "entity", player.value, ...(path === undefined ? [] : [path.value])],
    parse: (reply, language) =>
      readReply<DataReply>(reply, language, [
        {
          keys: ["commands.data.entity.query"],
          patterns: { "commands.data.entity.query": [".+?", ".*"] },
          read: (args) => ({ outcome: "data", entity: arg(args, 0, 0), snbt: arg(args, 0, 1) }),
        },
        {
          keys: ["arguments.nbtpath.nothing_found"],
          context: true,
          read: (args) => ({ outcome: "nothing_found", path: arg(args, 0, 0) }),
        },
        { keys: ["commands.data.get.multiple"], read: () => ({ outcome: "several_values" }) },
        NO_ENTITY_CASE,
      ]),
  });
};

/** `list uuids`: who is online, with UUIDs (plain names, where `list` would show team prefixes). */
export const listCommand = (): RconCommand<ListReply> => ({
  name: "list",
  arguments: ["uuids"],
  parse: (reply, language) => {
    const parsed = readReply<
      ListReply | { readonly outcome: "raw"; online: number; max: number; names: string }
    >(reply, language, [
      {
        keys: ["commands.list.players"],
        patterns: { "commands.list.players": ["\\d+", "\\d+", ".*"] },
        read: (args) => ({
          outcome: "raw",
          online: Number(arg(args, 0, 0)),
          max: Number(arg(args, 0, 1)),
          names: arg(args, 0, 2),
        }),
      },
    ]);
    if (parsed?.outcome !== "raw") return parsed;
    const players = listedPlayers(parsed.names, language);
    if (players === undefined || players.length !== parsed.online) return undefined;
    return { outcome: "list", online: parsed.online, max: parsed.max, players };
  },
});

/** `name (uuid), name (uuid)` (vanilla's list separator is ", "; names cannot hold it). */
const listedPlayers = (text: string, language: ReplyLanguage): ListedPlayer[] | undefined => {
  if (text === "") return [];
  const players: ListedPlayer[] = [];
  for (const entry of text.split(", ")) {
    const args = language.match(entry, ["commands.list.nameAndId"], {
      patterns: { "commands.list.nameAndId": ["[A-Za-z0-9_.]+", UUID] },
    });
    if (args === undefined) return undefined;
    players.push({ name: arg(args, 0, 0), uuid: arg(args, 0, 1).toLowerCase() });
  }
  return players;
};

/** `experience add <player> <amount> points|levels` (a negative amount takes away). */
export const experienceAddCommand = (options: {
  readonly player: string;
  readonly amount: number;
  readonly unit: "points" | "levels";
}): Validation<RconCommand<ExperienceReply>> => {
  const player = checkPattern("player name", PLAYER_NAME, options.player);
  if (!player.success) return player;
  const amount = checkInteger("experience amount", options.amount, -MAX_EXPERIENCE, MAX_EXPERIENCE);
  if (!amount.success) return amount;
  if (options.unit !== "points" && options.unit !== "levels")
    return invalid("experience unit must be points or levels");
  const unit = options.unit;
  const single = `commands.experience.add.${unit}.success.single` as const;
  const multiple = `commands.experience.add.${unit}.success.multiple` as const;
  return valid({
    name: "experience",
    arguments: ["add", player.value, String(amount.value), unit],
    parse: (reply, language) =>
      readReply<ExperienceReply>(reply, language, [
        {
          keys: [multiple],
          patterns: { [multiple]: [NUMBER, NUMBER] },
          read: (args) => ({
            outcome: "added_to_players",
            amount: Number(arg(args, 0, 0)),
            unit,
            players: Number(arg(args, 0, 1)),
          }),
        },
        {
          keys: [single],
          patterns: { [single]: [NUMBER, ".+"] },
          read: (args) => ({
            outcome: "added",
            amount: Number(arg(args, 0, 0)),
            unit,
            player: arg(args, 0, 1),
          }),
        },
        NO_PLAYER_CASE,
      ]),
  });
};
