import { invalid, type Validation, valid } from "../../../util/validation.js";
import {
  checkInteger,
  checkPattern,
  ITEM_ID,
  MAX_CLEAR_COUNT,
  MAX_GIVE_COUNT,
  PLAYER_NAME,
} from "./command-arguments.js";
import {
  arg,
  BRACKETED,
  NO_PLAYER_CASE,
  type NoPlayer,
  NUMBER,
  type RconCommand,
  readReply,
  UNKNOWN_ITEM_CASE,
  type UnknownCommand,
  type UnknownItem,
  unbracket,
} from "./rcon-command.js";

/**
 * What `give` answered. Vanilla reports "Gave …" even when the inventory had no room: it puts in what fits and
 * drops the rest at the player's feet as an item only that player can pick up (GiveCommand: `Inventory.add`,
 * then `createItemStackToDrop` with `setTarget(player)` and no pickup delay). So a success reply never proves the
 * items are in the inventory: check the room first and the slots after.
 */
export type GiveReply =
  | { readonly outcome: "given"; readonly count: number; readonly item: string; readonly player: string }
  | {
      readonly outcome: "given_to_players";
      readonly count: number;
      readonly item: string;
      readonly players: number;
    }
  | NoPlayer
  | UnknownItem
  | { readonly outcome: "too_many"; readonly max: number; readonly item: string }
  | UnknownCommand;

/** What `clear` answered; `none` (nothing matched, so nothing changed) is vanilla's failure reply. */
export type ClearReply =
  | { readonly outcome: "removed"; readonly count: number; readonly player: string }
  | { readonly outcome: "removed_from_players"; readonly count: number; readonly players: number }
  | { readonly outcome: "found"; readonly count: number; readonly player: string }
  | { readonly outcome: "found_on_players"; readonly count: number; readonly players: number }
  | { readonly outcome: "none"; readonly player: string }
  | { readonly outcome: "none_on_players"; readonly players: number }
  | NoPlayer
  | UnknownItem
  | UnknownCommand;

/** `give <player> <item> <count>`: one player, a namespaced item id, 1 to 6 400 items. */
export const giveCommand = (options: {
  readonly player: string;
  readonly item: string;
  readonly count: number;
}): Validation<RconCommand<GiveReply>> => {
  const player = checkPattern("player name", PLAYER_NAME, options.player);
  if (!player.success) return player;
  const item = checkPattern("item id", ITEM_ID, options.item);
  if (!item.success) return item;
  const count = checkInteger("give count", options.count, 1, MAX_GIVE_COUNT);
  if (!count.success) return count;
  return valid({
    name: "give",
    arguments: [player.value, item.value, String(count.value)],
    parse: (reply, language) =>
      readReply<GiveReply>(reply, language, [
        // "to 5 players" before "to <name>": a display name could read "5 players", a count cannot
        {
          keys: ["commands.give.success.multiple"],
          patterns: { "commands.give.success.multiple": [NUMBER, BRACKETED, NUMBER] },
          read: (args) => ({
            outcome: "given_to_players",
            count: Number(arg(args, 0, 0)),
            item: unbracket(arg(args, 0, 1)),
            players: Number(arg(args, 0, 2)),
          }),
        },
        {
          keys: ["commands.give.success.single"],
          patterns: { "commands.give.success.single": [NUMBER, BRACKETED, ".+"] },
          read: (args) => ({
            outcome: "given",
            count: Number(arg(args, 0, 0)),
            item: unbracket(arg(args, 0, 1)),
            player: arg(args, 0, 2),
          }),
        },
        {
          keys: ["commands.give.failed.toomanyitems"],
          patterns: { "commands.give.failed.toomanyitems": [NUMBER, ".+"] },
          read: (args) => ({
            outcome: "too_many",
            max: Number(arg(args, 0, 0)),
            item: unbracket(arg(args, 0, 1)),
          }),
        },
        NO_PLAYER_CASE,
        UNKNOWN_ITEM_CASE,
      ]),
  });
};

/**
 * `clear <player> <item> <maxCount>`: removes up to `maxCount` of an item (0 only counts them). The reply says how
 * many were removed, which may be fewer than asked.
 */
export const clearCommand = (options: {
  readonly player: string;
  readonly item: string;
  readonly maxCount: number;
}): Validation<RconCommand<ClearReply>> => {
  const player = checkPattern("player name", PLAYER_NAME, options.player);
  if (!player.success) return player;
  const item = checkPattern("item id", ITEM_ID, options.item);
  if (!item.success) return item;
  const count = checkInteger("clear count", options.maxCount, 0, MAX_CLEAR_COUNT);
  if (!count.success) return count;
  if (options.item.startsWith("#")) return invalid("item tags are not cleared over RCON");
  return valid({
    name: "clear",
    arguments: [player.value, item.value, String(count.value)],
    parse: (reply, language) =>
      readReply<ClearReply>(reply, language, [
        countCase("commands.clear.success.single", (count, player) => ({
          outcome: "removed",
          count,
          player,
        })),
        countCase("commands.clear.test.single", (count, player) => ({ outcome: "found", count, player })),
        playersCase("commands.clear.success.multiple", (count, players) => ({
          outcome: "removed_from_players",
          count,
          players,
        })),
        playersCase("commands.clear.test.multiple", (count, players) => ({
          outcome: "found_on_players",
          count,
          players,
        })),
        { keys: ["clear.failed.single"], read: (args) => ({ outcome: "none", player: arg(args, 0, 0) }) },
        {
          keys: ["clear.failed.multiple"],
          patterns: { "clear.failed.multiple": [NUMBER] },
          read: (args) => ({ outcome: "none_on_players", players: Number(arg(args, 0, 0)) }),
        },
        NO_PLAYER_CASE,
        UNKNOWN_ITEM_CASE,
      ]),
  });
};

const countCase = (
  key: "commands.clear.success.single" | "commands.clear.test.single",
  read: (count: number, player: string) => ClearReply,
) => ({
  keys: [key],
  patterns: { [key]: [NUMBER, ".+"] },
  read: (args: readonly (readonly string[])[]) => read(Number(arg(args, 0, 0)), arg(args, 0, 1)),
});

const playersCase = (
  key: "commands.clear.success.multiple" | "commands.clear.test.multiple",
  read: (count: number, players: number) => ClearReply,
) => ({
  keys: [key],
  patterns: { [key]: [NUMBER, NUMBER] },
  read: (args: readonly (readonly string[])[]) => read(Number(arg(args, 0, 0)), Number(arg(args, 0, 1))),
});
