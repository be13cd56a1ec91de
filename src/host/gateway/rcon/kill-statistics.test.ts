import { afterEach, describe, expect, it } from "vitest";
import { type RconServer, startRconServer } from "../../../../test/support/rcon-server.js";
import { ANY_MOB } from "../../../game/kill-interests.js";
import { MemoryLogger } from "../../../util/logger.js";
import { KillStatistics, killCriterion, killObjective } from "./kill-statistics.js";
import { RconClient } from "./rcon-client.js";
import { RconCommands } from "./rcon-commands.js";
import { loadReplyLanguage } from "./reply-language.js";

const language = loadReplyLanguage("1.21.4", new MemoryLogger());

/**
 * A scripted vanilla scoreboard over the real RCON protocol: objectives (some existing before System came), scores,
 * and the criteria it knows; every command is recorded.
 */
const scoreboard = async (options: {
  readonly objectives?: readonly string[];
  readonly criteria?: (criterion: string) => boolean;
}) => {
  const objectives = new Set(options.objectives ?? []);
  const scores = new Map<string, number>();
  const commands: string[] = [];
  const say = (key: Parameters<typeof language.format>[0], ...args: (string | number)[]) =>
    language.format(key, args);
  const server: RconServer = await startRconServer({
    password: "pw",
    handle: (line) => {
      commands.push(line);
      const [name, group, action, first, second] = line.split(" ");
      if (name === "minecraft:list")
        return say("command.unknown.command") + line + say("command.context.here");
      if (name === "scoreboard" && group === "objectives" && action === "add" && first && second) {
        if (!(options.criteria?.(second) ?? true))
          return say("argument.criteria.invalid", second) + say("command.context.here");
        if (objectives.has(first)) return say("commands.scoreboard.objectives.add.duplicate");
        objectives.add(first);
        return say("commands.scoreboard.objectives.add.success", `[${first}]`);
      }
      if (name === "scoreboard" && group === "players" && action === "get" && first && second) {
        if (!objectives.has(second)) return say("arguments.objective.notFound", second);
        const value = scores.get(`${first}/${second}`);
        return value === undefined
          ? say("commands.scoreboard.players.get.null", second, first)
          : say("commands.scoreboard.players.get.success", first, value, `[${second}]`);
      }
      return say("command.unknown.command") + line + say("command.context.here");
    },
  });
  return { server, commands, scores };
};

const servers: RconServer[] = [];
const clients: RconClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
});

const watch = async (
  board: Awaited<ReturnType<typeof scoreboard>>,
  hunted: Readonly<Record<string, readonly string[]>>,
) => {
  servers.push(board.server);
  const logger = new MemoryLogger();
  const client = new RconClient({ host: "127.0.0.1", port: board.server.port, password: "pw", logger });
  clients.push(client);
  const kills: string[] = [];
  const statistics = new KillStatistics({
    commands: new RconCommands({ client, language, logger }),
    players: () => [
      { uuid: "u-steve", name: "Steve" },
      { uuid: "u-alex", name: "Alex" },
    ],
    hunted: async (uuid) => new Set(hunted[uuid] ?? []),
    report: (uuid, entity, id) => kills.push(`${uuid} ${entity} ${id}`),
    logger,
  });
  return { statistics, kills, logger };
};

describe("KillStatistics", () => {
  it("names objectives within 16 characters and criteria as the statistic", () => {
    expect(killObjective("minecraft:zombie")).toBe("sk.zombie");
    expect(killObjective("minecraft:zombified_piglin")).toMatch(/^sk\.[0-9a-f]{13}$/);
    expect(killObjective("alexsmobs:grizzly_bear")).toMatch(/^sk\.[0-9a-f]{13}$/);
    expect(killObjective("alexsmobs:grizzly_bear")).not.toBe(killObjective("alexsmobs:grizzly"));
    expect(killCriterion("alexsmobs:grizzly_bear")).toBe("minecraft.killed:alexsmobs.grizzly_bear");
  });

  it("asks nothing for players whose kills count for nothing", async () => {
    const board = await scoreboard({});
    const { statistics, kills } = await watch(board, {});
    await statistics.poll();
    expect(board.commands).toEqual([]);
    expect(kills).toEqual([]);
  });

  it("starts at the first read of an objective that existed, and reports each increase as that many kills", async () => {
    const board = await scoreboard({ objectives: ["sk.zombie"] });
    board.scores.set("Steve/sk.zombie", 5);
    const { statistics, kills } = await watch(board, { "u-steve": ["minecraft:zombie"] });
    await statistics.poll();
    expect(kills).toEqual([]);
    board.scores.set("Steve/sk.zombie", 7);
    await statistics.poll();
    await statistics.poll();
    expect(kills).toEqual([
      "u-steve minecraft:zombie score:sk.zombie:6",
      "u-steve minecraft:zombie score:sk.zombie:7",
    ]);
    // an admin reset the score: counting starts again from there
    board.scores.set("Steve/sk.zombie", 0);
    await statistics.poll();
    board.scores.set("Steve/sk.zombie", 1);
    await statistics.poll();
    expect(kills.at(-1)).toBe("u-steve minecraft:zombie score:sk.zombie:1");
    expect(board.commands.filter((line) => line.startsWith("scoreboard objectives add"))).toEqual([
      "scoreboard objectives add sk.zombie minecraft.killed:minecraft.zombie",
    ]);
    // Alex hunts nothing: never read
    expect(board.commands.some((line) => line.includes("Alex"))).toBe(false);
  });

  it("reports a kill of any mob once: with its entity when a named count has it, else as any mob", async () => {
    const board = await scoreboard({});
    const { statistics, kills } = await watch(board, { "u-steve": ["minecraft:zombie", ANY_MOB] });
    await statistics.poll();
    expect(board.commands.filter((line) => line.startsWith("scoreboard objectives add"))).toEqual([
      "scoreboard objectives add sk.any_mob minecraft.custom:minecraft.mob_kills",
      "scoreboard objectives add sk.zombie minecraft.killed:minecraft.zombie",
    ]);
    const kill = (zombie: number, mobs: number): void => {
      board.scores.set("Steve/sk.zombie", zombie);
      board.scores.set("Steve/sk.any_mob", mobs);
    };
    // a zombie: both counts go up, one kill with its entity
    kill(1, 1);
    await statistics.poll();
    expect(kills).toEqual(["u-steve minecraft:zombie score:sk.zombie:1"]);
    // a skeleton: only the mob kills
    kill(1, 2);
    await statistics.poll();
    expect(kills.at(-1)).toBe(`u-steve ${ANY_MOB} score:sk.any_mob:2`);
    // the zombie's count read ahead of the mob kills' (a kill between the two reads): still one kill
    kill(2, 2);
    await statistics.poll();
    kill(2, 3);
    await statistics.poll();
    expect(kills).toEqual([
      "u-steve minecraft:zombie score:sk.zombie:1",
      `u-steve ${ANY_MOB} score:sk.any_mob:2`,
      "u-steve minecraft:zombie score:sk.zombie:2",
    ]);
    // two zombies and a spider at once
    kill(4, 6);
    await statistics.poll();
    expect(kills.slice(3)).toEqual([
      "u-steve minecraft:zombie score:sk.zombie:3",
      "u-steve minecraft:zombie score:sk.zombie:4",
      `u-steve ${ANY_MOB} score:sk.any_mob:6`,
    ]);
  });

  it("leaves an entity the backend has no statistic for (a mod not installed), logged once", async () => {
    const board = await scoreboard({ criteria: (criterion) => criterion.endsWith("minecraft.zombie") });
    const { statistics, logger } = await watch(board, { "u-alex": ["alexsmobs:grizzly_bear"] });
    await statistics.poll();
    await statistics.poll();
    expect(board.commands.filter((line) => line.startsWith("scoreboard objectives add"))).toHaveLength(1);
    expect(board.commands.some((line) => line.startsWith("scoreboard players get"))).toBe(false);
    expect(
      logger.lines.filter((line) => line.includes("no kill statistic for alexsmobs:grizzly_bear")),
    ).toHaveLength(1);
  });
});
