import { type Validation, valid } from "../../../util/validation.js";
import { CRITERION, checkPattern, OBJECTIVE_NAME, PLAYER_NAME } from "./command-arguments.js";
import { arg, NUMBER, type RconCommand, readReply, type UnknownCommand, unbracket } from "./rcon-command.js";

/**
 * What `save-all` answered. "Saved the game" comes after the player list and every level were written
 * (`PlayerList.saveAll`, then `saveAllChunks`); without `flush` chunk writes may still be queued, player data
 * (inventories) is written before the reply.
 */
export type SaveReply = { readonly outcome: "saved" } | { readonly outcome: "save_failed" } | UnknownCommand;

/** What `scoreboard objectives add` answered. */
export type ObjectiveAddReply =
  | { readonly outcome: "created"; readonly objective: string }
  | { readonly outcome: "exists" }
  | { readonly outcome: "unknown_criterion"; readonly criterion: string }
  | UnknownCommand;

/** What `scoreboard players get` answered. */
export type ScoreReply =
  | { readonly outcome: "score"; readonly holder: string; readonly value: number; readonly objective: string }
  | { readonly outcome: "no_score"; readonly objective: string; readonly holder: string }
  | { readonly outcome: "unknown_objective"; readonly objective: string }
  | UnknownCommand;

/** `save-all` (not `flush`: that stalls the server until every chunk is on disk). */
export const saveAllCommand = (): RconCommand<SaveReply> => ({
  name: "save-all",
  arguments: [],
  parse: (reply, language) =>
    readReply<SaveReply>(reply, language, [
      { keys: ["commands.save.saving", "commands.save.success"], read: () => ({ outcome: "saved" }) },
      { keys: ["commands.save.saving", "commands.save.failed"], read: () => ({ outcome: "save_failed" }) },
    ]),
});

/** `scoreboard objectives add <name> <criterion>`. */
export const objectiveAddCommand = (options: {
  readonly objective: string;
  readonly criterion: string;
}): Validation<RconCommand<ObjectiveAddReply>> => {
  const objective = checkPattern("objective name", OBJECTIVE_NAME, options.objective);
  if (!objective.success) return objective;
  const criterion = checkPattern("criterion", CRITERION, options.criterion);
  if (!criterion.success) return criterion;
  return valid({
    name: "scoreboard",
    arguments: ["objectives", "add", objective.value, criterion.value],
    parse: (reply, language) =>
      readReply<ObjectiveAddReply>(reply, language, [
        {
          keys: ["commands.scoreboard.objectives.add.success"],
          read: (args) => ({ outcome: "created", objective: unbracket(arg(args, 0, 0)) }),
        },
        { keys: ["commands.scoreboard.objectives.add.duplicate"], read: () => ({ outcome: "exists" }) },
        {
          keys: ["argument.criteria.invalid"],
          context: true,
          read: (args) => ({ outcome: "unknown_criterion", criterion: arg(args, 0, 0) }),
        },
      ]),
  });
};

/** `scoreboard players get <player> <objective>`. */
export const scoreGetCommand = (options: {
  readonly player: string;
  readonly objective: string;
}): Validation<RconCommand<ScoreReply>> => {
  const player = checkPattern("player name", PLAYER_NAME, options.player);
  if (!player.success) return player;
  const objective = checkPattern("objective name", OBJECTIVE_NAME, options.objective);
  if (!objective.success) return objective;
  return valid({
    name: "scoreboard",
    arguments: ["players", "get", player.value, objective.value],
    parse: (reply, language) =>
      readReply<ScoreReply>(reply, language, [
        {
          keys: ["commands.scoreboard.players.get.success"],
          patterns: { "commands.scoreboard.players.get.success": [".+?", NUMBER, ".+"] },
          read: (args) => ({
            outcome: "score",
            holder: arg(args, 0, 0),
            value: Number(arg(args, 0, 1)),
            objective: unbracket(arg(args, 0, 2)),
          }),
        },
        {
          keys: ["commands.scoreboard.players.get.null"],
          read: (args) => ({ outcome: "no_score", objective: arg(args, 0, 0), holder: arg(args, 0, 1) }),
        },
        {
          keys: ["arguments.objective.notFound"],
          context: true,
          read: (args) => ({ outcome: "unknown_objective", objective: arg(args, 0, 0) }),
        },
      ]),
  });
};
