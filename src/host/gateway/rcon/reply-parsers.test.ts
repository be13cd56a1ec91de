import { describe, expect, it } from "vitest";
import { MemoryLogger, silentLogger } from "../../../util/logger.js";
import type { Validation } from "../../../util/validation.js";
import { clearCommand, giveCommand } from "./item-commands.js";
import { dataGetEntityCommand, experienceAddCommand, listCommand } from "./player-commands.js";
import type { RconCommand } from "./rcon-command.js";
import { loadReplyLanguage, type ReplyLanguage } from "./reply-language.js";
import { objectiveAddCommand, saveAllCommand, scoreGetCommand } from "./server-commands.js";

const built = <R>(command: Validation<RconCommand<R>>): RconCommand<R> => {
  if (!command.success) throw new Error(command.error);
  return command.value;
};

const give = built(giveCommand({ player: "Steve", item: "minecraft:bread", count: 3 }));
const clear = built(clearCommand({ player: "Steve", item: "minecraft:bread", maxCount: 3 }));
const data = built(dataGetEntityCommand({ player: "Steve", path: "Inventory" }));
const experience = built(experienceAddCommand({ player: "Steve", amount: 30, unit: "points" }));
const objective = built(
  objectiveAddCommand({ objective: "kills", criterion: "minecraft.custom:minecraft.mob_kills" }),
);
const score = built(scoreGetCommand({ player: "Steve", objective: "kills" }));
const UUID = "5627dd98-e6be-3c21-b8a8-e92344183641";
const HERE = "<--[HERE]";

describe.each(["1.20.1", "1.21.1", "1.21.4"])("replies read by the %s texts", (version) => {
  const language: ReplyLanguage = loadReplyLanguage(version, silentLogger);
  const say = (key: Parameters<ReplyLanguage["format"]>[0], ...args: (string | number)[]) =>
    language.format(key, args);

  it("give: one player, several, no player, unknown item, too many, unknown command", () => {
    expect(give.parse("Gave 3 [Bread] to Steve", language)).toEqual({
      outcome: "given",
      count: 3,
      item: "Bread",
      player: "Steve",
    });
    expect(
      give.parse(say("commands.give.success.single", 64, "[Enchanted Golden Apple]", "Alex"), language),
    ).toEqual({ outcome: "given", count: 64, item: "Enchanted Golden Apple", player: "Alex" });
    expect(give.parse(say("commands.give.success.multiple", 2, "[Bread]", 5), language)).toEqual({
      outcome: "given_to_players",
      count: 2,
      item: "Bread",
      players: 5,
    });
    expect(give.parse(say("argument.entity.notfound.player"), language)).toEqual({ outcome: "no_player" });
    expect(
      give.parse(
        `${say("argument.item.id.invalid", "minecraft:nope")}...ve Steve minecraft:nope${HERE}`,
        language,
      ),
    ).toEqual({ outcome: "unknown_item", item: "minecraft:nope" });
    expect(give.parse(say("commands.give.failed.toomanyitems", 6400, "[Bread]"), language)).toEqual({
      outcome: "too_many",
      max: 6400,
      item: "Bread",
    });
    expect(give.parse(`${say("command.unknown.command")}minecraft:give Steve${HERE}`, language)).toEqual({
      outcome: "unknown_command",
    });
  });

  it("a reply that matches none is no outcome at all, never a success", () => {
    for (const reply of [
      "",
      "Gave some bread to Steve",
      "Gave 3 [Bread] to",
      "OK",
      "Saving the game (this may take a moment!)",
    ])
      expect(give.parse(reply, language), reply).toBeUndefined();
    expect(saveAllCommand().parse(say("commands.save.saving"), language)).toBeUndefined();
  });

  it("clear: removed, counted, none found, several players", () => {
    expect(clear.parse(say("commands.clear.success.single", 3, "Steve"), language)).toEqual({
      outcome: "removed",
      count: 3,
      player: "Steve",
    });
    expect(clear.parse(say("commands.clear.test.single", 7, "Steve"), language)).toEqual({
      outcome: "found",
      count: 7,
      player: "Steve",
    });
    expect(clear.parse(say("clear.failed.single", "Steve"), language)).toEqual({
      outcome: "none",
      player: "Steve",
    });
    expect(clear.parse(say("commands.clear.success.multiple", 9, 3), language)).toEqual({
      outcome: "removed_from_players",
      count: 9,
      players: 3,
    });
    expect(clear.parse(say("clear.failed.multiple", 2), language)).toEqual({
      outcome: "none_on_players",
      players: 2,
    });
    expect(clear.parse(say("argument.entity.notfound.player"), language)).toEqual({ outcome: "no_player" });
  });

  it("data get entity: the SNBT value, a path with nothing, no entity", () => {
    const snbt = '[{count: 3, Slot: 0b, id: "minecraft:bread"}, {count: 1, Slot: 9b, id: "minecraft:stone"}]';
    expect(data.parse(say("commands.data.entity.query", "Steve", snbt), language)).toEqual({
      outcome: "data",
      entity: "Steve",
      snbt,
    });
    expect(data.parse("Steve has the following entity data: 20.0f", language)).toEqual({
      outcome: "data",
      entity: "Steve",
      snbt: "20.0f",
    });
    expect(data.parse(say("arguments.nbtpath.nothing_found", "Inventory"), language)).toEqual({
      outcome: "nothing_found",
      path: "Inventory",
    });
    expect(data.parse(say("argument.entity.notfound.entity"), language)).toEqual({ outcome: "no_entity" });
  });

  it("list uuids: nobody, two players, a count that does not add up", () => {
    const list = listCommand();
    expect(list.parse(say("commands.list.players", 0, 20, ""), language)).toEqual({
      outcome: "list",
      online: 0,
      max: 20,
      players: [],
    });
    const two = [
      say("commands.list.nameAndId", "Steve", UUID),
      say("commands.list.nameAndId", "Alex_2", UUID),
    ];
    expect(list.parse(say("commands.list.players", 2, 20, two.join(", ")), language)).toEqual({
      outcome: "list",
      online: 2,
      max: 20,
      players: [
        { name: "Steve", uuid: UUID },
        { name: "Alex_2", uuid: UUID },
      ],
    });
    expect(list.parse(say("commands.list.players", 3, 20, two.join(", ")), language)).toBeUndefined();
  });

  it("save-all: saved (vanilla joins the two messages, Paper puts a newline and colour codes), or failed", () => {
    const save = saveAllCommand();
    expect(save.parse(say("commands.save.saving") + say("commands.save.success"), language)).toEqual({
      outcome: "saved",
    });
    expect(
      save.parse(`§7${say("commands.save.saving")}\n§7${say("commands.save.success")}\n`, language),
    ).toEqual({
      outcome: "saved",
    });
    expect(save.parse(say("commands.save.saving") + say("commands.save.failed"), language)).toEqual({
      outcome: "save_failed",
    });
  });

  it("experience, scoreboard objectives and scores", () => {
    expect(
      experience.parse(say("commands.experience.add.points.success.single", 30, "Steve"), language),
    ).toEqual({
      outcome: "added",
      amount: 30,
      unit: "points",
      player: "Steve",
    });
    expect(
      experience.parse(say("commands.experience.add.levels.success.single", 30, "Steve"), language),
    ).toBe(undefined);
    expect(experience.parse(say("argument.entity.notfound.player"), language)).toEqual({
      outcome: "no_player",
    });
    expect(objective.parse(say("commands.scoreboard.objectives.add.success", "[kills]"), language)).toEqual({
      outcome: "created",
      objective: "kills",
    });
    expect(objective.parse(say("commands.scoreboard.objectives.add.duplicate"), language)).toEqual({
      outcome: "exists",
    });
    expect(
      score.parse(say("commands.scoreboard.players.get.success", "Steve", 12, "[kills]"), language),
    ).toEqual({
      outcome: "score",
      holder: "Steve",
      value: 12,
      objective: "kills",
    });
    expect(score.parse(say("commands.scoreboard.players.get.null", "kills", "Steve"), language)).toEqual({
      outcome: "no_score",
      objective: "kills",
      holder: "Steve",
    });
    expect(score.parse(say("arguments.objective.notFound", "kills"), language)).toEqual({
      outcome: "unknown_objective",
      objective: "kills",
    });
  });
});

describe("texts per version", () => {
  it("reads each version's own words: 1.18.2 says 'items', later versions 'item(s)'", () => {
    const old = loadReplyLanguage("1.18.2", silentLogger);
    const current = loadReplyLanguage("1.21.4", silentLogger);
    const reply = "Removed 3 items from player Steve";
    expect(clear.parse(reply, old)).toEqual({ outcome: "removed", count: 3, player: "Steve" });
    expect(clear.parse(reply, current)).toBeUndefined();
  });

  it("1.21.11 words the unknown-command error differently, and its own file reads it", () => {
    const reply = `Unknown or incomplete command. See below for errorminecraft:list${HERE}`;
    expect(listCommand().parse(reply, loadReplyLanguage("1.21.11", silentLogger))).toEqual({
      outcome: "unknown_command",
    });
    expect(listCommand().parse(reply, loadReplyLanguage("1.21.4", silentLogger))).toBeUndefined();
  });

  it("a version minecraft-data does not know reads the newest release's texts, with a warning", () => {
    const logger = new MemoryLogger();
    const language = loadReplyLanguage("99.1", logger);
    expect(language.version).not.toBe("99.1");
    expect(logger.has("has no reply texts for Minecraft 99.1")).toBe(true);
    expect(loadReplyLanguage("1.21.10", silentLogger).version).toBe("1.21.9");
  });
});

describe("command builders", () => {
  it("write namespaced-ready vanilla commands", () => {
    expect(
      [give, clear, data, experience, objective, score].map((command) => [
        command.name,
        ...command.arguments,
      ]),
    ).toEqual([
      ["give", "Steve", "minecraft:bread", "3"],
      ["clear", "Steve", "minecraft:bread", "3"],
      ["data", "get", "entity", "Steve", "Inventory"],
      ["experience", "add", "Steve", "30", "points"],
      ["scoreboard", "objectives", "add", "kills", "minecraft.custom:minecraft.mob_kills"],
      ["scoreboard", "players", "get", "Steve", "kills"],
    ]);
  });

  it("refuse any argument that could end the command or start another", () => {
    const refused = [
      giveCommand({ player: "Steve @a", item: "minecraft:bread", count: 1 }),
      giveCommand({ player: "Steve\nop Mallory", item: "minecraft:bread", count: 1 }),
      giveCommand({ player: "@a", item: "minecraft:bread", count: 1 }),
      giveCommand({ player: "ThisNameIsTooLong1", item: "minecraft:bread", count: 1 }),
      giveCommand({ player: "Steve", item: "bread", count: 1 }),
      giveCommand({ player: "Steve", item: "minecraft:bread 64", count: 1 }),
      giveCommand({ player: "Steve", item: 'minecraft:bread{display:{Name:"x"}}', count: 1 }),
      giveCommand({ player: "Steve", item: "minecraft:bread[custom_name='x']", count: 1 }),
      giveCommand({ player: "Steve", item: "minecraft:bread", count: 0 }),
      giveCommand({ player: "Steve", item: "minecraft:bread", count: 6401 }),
      giveCommand({ player: "Steve", item: "minecraft:bread", count: 1.5 }),
      clearCommand({ player: "Steve", item: "#minecraft:logs", maxCount: 1 }),
      clearCommand({ player: "Steve", item: "minecraft:bread", maxCount: -1 }),
      dataGetEntityCommand({ player: "Steve", path: "Inventory run op x" }),
      dataGetEntityCommand({ player: "@e", path: "Health" }),
      experienceAddCommand({ player: "Steve", amount: 2_000_000, unit: "points" }),
      experienceAddCommand({ player: "Steve", amount: 1, unit: "levels run" as "levels" }),
      objectiveAddCommand({ objective: "kills x", criterion: "dummy" }),
      objectiveAddCommand({ objective: "kills", criterion: "dummy\nop x" }),
      scoreGetCommand({ player: "*", objective: "kills" }),
    ];
    expect(refused.map((result) => result.success)).toEqual(refused.map(() => false));
    const first = refused[0];
    if (first !== undefined && !first.success) expect(first.error).toContain("player name");
  });
});
