/*
 * A STAND-IN for a real Minecraft server's RCON, for tests only. flying-squid has no RCON; the gateway's backend
 * in tests is a plain flying-squid world, so this file gives that world an RCON endpoint: a real TCP server
 * speaking the RCON protocol as vanilla's RconClient does (one read per request, 4 096-unit fragments, "Unknown
 * request" for other types), answering the vanilla commands System sends with the game's own reply texts from
 * minecraft-data's language.json for the world's version, and really changing the flying-squid world (a give puts
 * items in the player's inventory and the client sees the slots change). What it cannot do like vanilla: items
 * that do not fit are listed in `dropped` instead of lying at the player's feet; selectors other than `@a` and
 * item components or NBT in item arguments are refused as unknown items; kill statistics do not count by
 * themselves: a test drives them with vanilla's `scoreboard players add` over the real protocol.
 */
import { createRequire } from "node:module";
import { levelOfPoints, pointsAtLevel } from "../../src/game/data/experience.js";
import type { SquidPlayer, SquidServer } from "../../src/host/flying-squid/flying-squid-types.js";
import { savePlayerData } from "../../src/host/flying-squid/player-data-file.js";
import {
  loadReplyLanguage,
  type ReplyKey,
  type ReplyLanguage,
} from "../../src/host/gateway/rcon/reply-language.js";
import { silentLogger } from "../../src/util/logger.js";

const require = createRequire(import.meta.url);
/** minecraft-data's `language.json` (en_us) of a version. */
const languageTexts = (version: string): Readonly<Record<string, string>> =>
  (require("minecraft-data")(version) as { language: Record<string, string> }).language;

import { type RconServer, type ReplyWrites, startRconServer } from "./rcon-server.js";
import {
  clearItems,
  giveItems,
  inventoryCount,
  playerSnbt,
  type StandInWorld,
} from "./rcon-stand-in-world.js";

export interface RconStandInOptions {
  /** The plain flying-squid world to act on. */
  readonly server: SquidServer;
  readonly password: string;
  /** 0 or unset: any free port. */
  readonly port?: number;
  /**
   * `vanilla` (and Fabric, NeoForge) knows only plain command names and refuses `minecraft:give` as an unknown
   * command; `paper` also knows every vanilla command as `minecraft:<name>`.
   */
  readonly dialect?: "vanilla" | "paper";
  /** Where `save-all` writes the online players' data files; without it a save writes nothing. */
  readonly worldFolder?: string;
  readonly writes?: ReplyWrites;
}

/** Something the stand-in did instead of vanilla's item drop. */
export interface DroppedItems {
  readonly player: string;
  readonly item: string;
  readonly count: number;
}

export interface RconStandIn {
  readonly port: number;
  readonly language: ReplyLanguage;
  /** Every command it was sent, in order. */
  readonly commands: string[];
  /** Items a give could not fit (vanilla drops them at the player's feet for that player only). */
  readonly dropped: DroppedItems[];
  /** Completed `save-all` runs. */
  saves(): number;
  /** The next `save-all` fails as vanilla's does when the disk is full. */
  failNextSave(): void;
  /**
   * Holds every command whose text (without `minecraft:`) starts with `prefix` until the returned release is
   * called: it is received (listed in `commands`) but not run, as a backend busy with a long tick would.
   */
  hold(prefix: string): () => void;
  /**
   * The next command whose text (without `minecraft:`) starts with `prefix` loses its connection: `before` it
   * runs (nothing happens), or `after` it ran (its effect is applied, its reply lost).
   */
  dropNext(prefix: string, when: "before" | "after"): void;
  /** Answers every command starting with `prefix` as an unknown command until the returned undo is called. */
  refuse(prefix: string): () => void;
  /** Sets a score the way a scoreboard criterion would count it. */
  setScore(player: string, objective: string, value: number): void;
  close(): Promise<void>;
}

/** Starts the stand-in RCON endpoint on a flying-squid world (see the file header). */
export const startRconStandIn = async (options: RconStandInOptions): Promise<RconStandIn> => {
  const { server } = options;
  const language = loadReplyLanguage(server.registry.version.minecraftVersion, silentLogger);
  const commands: string[] = [];
  const dropped: DroppedItems[] = [];
  const objectives = new Set<string>();
  const scores = new Map<string, number>();
  let saves = 0;
  let failSave = false;
  const say = (key: ReplyKey, ...args: (string | number)[]): string => language.format(key, args);
  /** A reply System never reads (so not among its reply keys), from the same language file. */
  const texts = languageTexts(server.registry.version.minecraftVersion);
  const vanillaText = (key: string, ...args: (string | number)[]): string => {
    let next = 0;
    return (texts[key] ?? key).replace(/%(?:(\d+)\$)?s/g, (_, position?: string) =>
      String(args[position === undefined ? next++ : Number(position) - 1] ?? ""),
    );
  };
  const world: StandInWorld = { server, say };
  const holds = new Map<string, Promise<void>>();
  const drops = new Map<string, "before" | "after">();
  const refused = new Set<string>();

  /** Vanilla's parse error: the message, then the last 10 characters before the cursor, the rest and `<--[HERE]`. */
  const parseError = (message: string, input: string, cursor: number): string => {
    const at = Math.min(input.length, cursor);
    return `${message}${at > 10 ? "..." : ""}${input.slice(Math.max(0, at - 10), at)}${input.slice(at)}${say("command.context.here")}`;
  };
  const unknownCommand = (input: string, cursor: number): string =>
    parseError(say("command.unknown.command"), input, cursor);

  const playerNamed = (name: string): SquidPlayer | undefined =>
    server.players.find((player) => player.username.toLowerCase() === name.toLowerCase());
  const targets = (selector: string): SquidPlayer[] =>
    selector === "@a"
      ? [...server.players]
      : [playerNamed(selector)].filter((player) => player !== undefined);

  const bareOf = (input: string): string =>
    (input.startsWith("/") ? input.slice(1) : input).replace(/^minecraft:/, "");
  const run = async (input: string): Promise<string> => {
    const line = input.startsWith("/") ? input.slice(1) : input;
    const words = line.split(" ");
    const first = words[0] ?? "";
    if (first.startsWith("minecraft:") && options.dialect !== "paper") return unknownCommand(line, 0);
    const name = first.replace(/^minecraft:/, "");
    const bare = [name, ...words.slice(1)].join(" ");
    for (const [prefix, released] of holds) if (bare.startsWith(prefix)) await released;
    for (const prefix of refused) if (bare.startsWith(prefix)) return unknownCommand(line, 0);
    const args = words.slice(1);
    const argumentStart = (index: number): number => words.slice(0, index + 1).join(" ").length + 1;
    switch (name) {
      case "give": {
        const [selector, item, countText] = args;
        if (selector === undefined || item === undefined) return unknownCommand(line, line.length);
        const count = countText === undefined ? 1 : Number(countText);
        if (!Number.isInteger(count) || count < 1) return unknownCommand(line, argumentStart(2));
        const players = targets(selector);
        const result = giveItems(world, players, item, count, dropped);
        if (result.error === "unknown_item")
          return parseError(say("argument.item.id.invalid", item), line, argumentStart(1));
        if (result.error === "too_many") return result.reply;
        if (players.length === 0) return say("argument.entity.notfound.player");
        return result.reply;
      }
      case "clear": {
        const [selector, item, maxText] = args;
        if (selector === undefined) return unknownCommand(line, line.length);
        const players = targets(selector);
        if (players.length === 0) return say("argument.entity.notfound.player");
        const maxCount = maxText === undefined ? -1 : Number(maxText);
        if (!Number.isInteger(maxCount) || maxCount < -1) return unknownCommand(line, argumentStart(2));
        const result = clearItems(world, players, item, maxCount);
        if (result.error === "unknown_item")
          return parseError(say("argument.item.id.invalid", item ?? ""), line, argumentStart(1));
        return result.reply;
      }
      case "list": {
        const uuids = args[0] === "uuids";
        const names = server.players.map((player) =>
          uuids ? say("commands.list.nameAndId", player.username, player._client.uuid) : player.username,
        );
        return say("commands.list.players", server.players.length, 20, names.join(", "));
      }
      case "save-all": {
        const reply = say("commands.save.saving");
        if (failSave) {
          failSave = false;
          return reply + say("commands.save.failed");
        }
        if (options.worldFolder !== undefined)
          for (const player of server.players)
            await savePlayerData({
              player,
              worldFolder: options.worldFolder,
              snakeCase: server.supportFeature("attributeSnakeCase"),
              theFlattening: server.supportFeature("theFlattening"),
            });
        saves++;
        return reply + say("commands.save.success");
      }
      case "data": {
        const [get, kind, selector, path] = args;
        if (get !== "get" || kind !== "entity" || selector === undefined)
          return unknownCommand(line, line.length);
        const player = playerNamed(selector);
        if (player === undefined) return say("argument.entity.notfound.entity");
        const snbt = playerSnbt(world, player, path);
        if (snbt === undefined) return say("arguments.nbtpath.nothing_found", path ?? "");
        return say("commands.data.entity.query", player.username, snbt);
      }
      case "experience":
      case "xp": {
        const [add, selector, amountText, unitText] = args;
        const amount = Number(amountText);
        const unit = unitText ?? "points";
        if (
          add !== "add" ||
          selector === undefined ||
          !Number.isInteger(amount) ||
          !["points", "levels"].includes(unit)
        )
          return unknownCommand(line, line.length);
        const players = targets(selector);
        if (players.length === 0) return say("argument.entity.notfound.player");
        for (const player of players) addExperience(player, amount, unit as "points" | "levels");
        const only = players[0];
        return players.length === 1 && only !== undefined
          ? say(
              `commands.experience.add.${unit as "points" | "levels"}.success.single`,
              amount,
              only.username,
            )
          : say(
              `commands.experience.add.${unit as "points" | "levels"}.success.multiple`,
              amount,
              players.length,
            );
      }
      case "scoreboard": {
        const [group, action, first, second] = args;
        if (group === "objectives" && action === "add" && first !== undefined && second !== undefined) {
          if (objectives.has(first)) return say("commands.scoreboard.objectives.add.duplicate");
          objectives.add(first);
          return say("commands.scoreboard.objectives.add.success", `[${first}]`);
        }
        if (group === "players" && action === "get" && first !== undefined && second !== undefined) {
          if (!objectives.has(second)) return say("arguments.objective.notFound", second);
          const value = scores.get(`${first}\u0000${second}`);
          if (value === undefined) return say("commands.scoreboard.players.get.null", second, first);
          return say("commands.scoreboard.players.get.success", first, value, `[${second}]`);
        }
        // what the test drives as the game's kill statistic would count (flying-squid has neither mobs with AI
        // nor statistics): vanilla's own `scoreboard players add <player> <objective> <n>`, over the real protocol
        const amount = Number(args[4]);
        if (group === "players" && action === "add" && first !== undefined && second !== undefined) {
          if (!objectives.has(second)) return say("arguments.objective.notFound", second);
          if (!Number.isInteger(amount)) return unknownCommand(line, line.length);
          const now = (scores.get(`${first}\u0000${second}`) ?? 0) + amount;
          scores.set(`${first}\u0000${second}`, now);
          return vanillaText(
            "commands.scoreboard.players.add.success.single",
            amount,
            `[${second}]`,
            first,
            now,
          );
        }
        return unknownCommand(line, line.length);
      }
      default:
        return unknownCommand(line, 0);
    }
  };

  const rcon: RconServer = await startRconServer({
    password: options.password,
    strictReads: true,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.writes === undefined ? {} : { writes: options.writes }),
    handle: async (command, connection) => {
      commands.push(command);
      const bare = bareOf(command);
      const drop = [...drops].find(([prefix]) => bare.startsWith(prefix));
      if (drop !== undefined) drops.delete(drop[0]);
      if (drop?.[1] === "before") {
        connection.drop();
        return "";
      }
      const reply = await run(command);
      if (drop?.[1] === "after") connection.drop();
      return reply;
    },
  });
  return {
    port: rcon.port,
    language,
    commands,
    dropped,
    saves: () => saves,
    failNextSave: () => {
      failSave = true;
    },
    hold: (prefix) => {
      let release: () => void = () => {};
      holds.set(
        prefix,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return () => {
        holds.delete(prefix);
        release();
      };
    },
    dropNext: (prefix, when) => {
      drops.set(prefix, when);
    },
    refuse: (prefix) => {
      refused.add(prefix);
      return () => {
        refused.delete(prefix);
      };
    },
    setScore: (player, objective, value) => {
      objectives.add(objective);
      scores.set(`${player}\u0000${objective}`, value);
    },
    close: () => rcon.close(),
  };
};

/** vanilla `experience add`: points onto the total; levels onto the level, keeping the progress into it. */
const addExperience = (player: SquidPlayer, amount: number, unit: "points" | "levels"): void => {
  const total = player.xp;
  if (unit === "points") player.setXp(Math.max(0, total + amount));
  else {
    const level = levelOfPoints(total);
    const progress = total - pointsAtLevel(level);
    player.setXp(Math.max(0, Math.floor(pointsAtLevel(Math.max(0, level + amount))) + progress));
  }
};

export { inventoryCount };
