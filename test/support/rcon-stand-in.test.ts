import { existsSync } from "node:fs";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFlyingSquid, type SquidServer } from "../../src/host/flying-squid/flying-squid-types.js";
import { playerDataPath } from "../../src/host/flying-squid/player-data-file.js";
import {
  clearCommand,
  dataGetEntityCommand,
  experienceAddCommand,
  giveCommand,
  listCommand,
  objectiveAddCommand,
  RconClient,
  type RconCommand,
  RconCommands,
  saveAllCommand,
  scoreGetCommand,
} from "../../src/host/gateway/rcon/index.js";
import { MemoryLogger } from "../../src/util/logger.js";
import type { Validation } from "../../src/util/validation.js";
import { joinBot, tempFolder, waitFor } from "../e2e/host-support.js";
import { type RconStandIn, startRconStandIn } from "./rcon-stand-in.js";

const built = <R>(command: Validation<RconCommand<R>>): RconCommand<R> => {
  if (!command.success) throw new Error(command.error);
  return command.value;
};

/** A plain flying-squid 1.21.4 world (nothing of System's inside), as the gateway's backend in tests. */
const startPlainWorld = async (worldFolder: string): Promise<{ server: SquidServer; port: number }> => {
  const server = loadFlyingSquid().createMCServer({
    "online-mode": false,
    host: "127.0.0.1",
    port: 0,
    version: "1.21.4",
    worldFolder,
    generation: { name: "superflat", options: { worldHeight: 80 } },
    logging: false,
    noConsoleOutput: true,
    debug: () => {},
    plugins: {},
    motd: "Plain world",
    "max-players": 20,
    "view-distance": 2,
    "everybody-op": false,
    "max-entities": 100,
    gameMode: 0,
    difficulty: 1,
    kickTimeout: 10_000,
    "player-list-text": { header: { text: "" }, footer: { text: "" } },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("ready", () => resolve());
    server.once("error", reject);
  });
  const address = (server._server.socketServer?.address() ?? {}) as { port?: number };
  return { server, port: address.port ?? 0 };
};

describe("the RCON stand-in on a plain flying-squid world", () => {
  const worldFolder = tempFolder("rcon-stand-in-");
  let server: SquidServer;
  let vanilla: RconStandIn;
  let paper: RconStandIn;
  let bot: Bot;
  const clients: RconClient[] = [];
  const commands = (standIn: RconStandIn): RconCommands => {
    const logger = new MemoryLogger();
    const client = new RconClient({ host: "127.0.0.1", port: standIn.port, password: "stand-in", logger });
    clients.push(client);
    return new RconCommands({ client, language: standIn.language, logger });
  };
  const count = (name: string): number =>
    bot.inventory.items().reduce((sum, item) => (item.name === name ? sum + item.count : sum), 0);

  beforeAll(async () => {
    const world = await startPlainWorld(worldFolder);
    server = world.server;
    vanilla = await startRconStandIn({ server, password: "stand-in", worldFolder });
    paper = await startRconStandIn({ server, password: "stand-in", dialect: "paper", worldFolder });
    bot = await joinBot(world.port, "Steve");
  });

  afterAll(async () => {
    bot?.quit();
    await Promise.all(clients.map((client) => client.close()));
    await vanilla?.close();
    await paper?.close();
    await server?.quit("test over").catch(() => {});
  });

  it("a give over RCON arrives in the bot's inventory, and the reply is vanilla's", async () => {
    const rcon = commands(vanilla);
    expect(
      await rcon.run(built(giveCommand({ player: "Steve", item: "minecraft:bread", count: 5 }))),
    ).toEqual({
      outcome: "given",
      count: 5,
      item: "Bread",
      player: "Steve",
    });
    await waitFor(() => (count("bread") === 5 ? true : undefined));
    expect(vanilla.commands).toEqual(["minecraft:list uuids", "give Steve minecraft:bread 5"]);
  });

  it("answers minecraft:-namespaced commands when it stands in for Paper", async () => {
    const rcon = commands(paper);
    expect(await rcon.dialect()).toBe("namespaced");
    await rcon.run(built(giveCommand({ player: "Steve", item: "minecraft:diamond", count: 2 })));
    await waitFor(() => (count("diamond") === 2 ? true : undefined));
    expect(paper.commands).toContain("minecraft:give Steve minecraft:diamond 2");
  });

  it("clear, list, data get, experience, scoreboard and save-all act on the world and answer in its words", async () => {
    const rcon = commands(vanilla);
    expect(
      await rcon.run(built(clearCommand({ player: "Steve", item: "minecraft:bread", maxCount: 2 }))),
    ).toEqual({
      outcome: "removed",
      count: 2,
      player: "Steve",
    });
    await waitFor(() => (count("bread") === 3 ? true : undefined));
    expect(
      await rcon.run(built(clearCommand({ player: "Steve", item: "minecraft:apple", maxCount: 1 }))),
    ).toEqual({
      outcome: "none",
      player: "Steve",
    });
    const list = await rcon.run(listCommand());
    expect(list).toMatchObject({ outcome: "list", online: 1, players: [{ name: "Steve" }] });
    const data = await rcon.run(built(dataGetEntityCommand({ player: "Steve", path: "Inventory" })));
    expect(data).toMatchObject({ outcome: "data", entity: "Steve" });
    expect(data.outcome === "data" ? data.snbt : "").toContain('{count: 3, Slot: 0b, id: "minecraft:bread"}');
    expect(
      await rcon.run(built(experienceAddCommand({ player: "Steve", amount: 30, unit: "points" }))),
    ).toMatchObject({ outcome: "added", amount: 30 });
    await waitFor(() => (bot.experience.points === 30 ? true : undefined));
    expect(await rcon.run(built(objectiveAddCommand({ objective: "kills", criterion: "dummy" })))).toEqual({
      outcome: "created",
      objective: "kills",
    });
    vanilla.setScore("Steve", "kills", 4);
    expect(await rcon.run(built(scoreGetCommand({ player: "Steve", objective: "kills" })))).toMatchObject({
      outcome: "score",
      value: 4,
    });
    expect(await rcon.run(saveAllCommand())).toEqual({ outcome: "saved" });
    const uuid = list.outcome === "list" ? (list.players[0]?.uuid ?? "") : "";
    expect(existsSync(playerDataPath(worldFolder, uuid))).toBe(true);
    vanilla.failNextSave();
    expect(await rcon.run(saveAllCommand())).toEqual({ outcome: "save_failed" });
  });

  it("refuses what vanilla refuses: a player not online, an unknown item", async () => {
    const rcon = commands(vanilla);
    expect(
      await rcon.run(built(giveCommand({ player: "Nobody", item: "minecraft:bread", count: 1 }))),
    ).toEqual({
      outcome: "no_player",
    });
    expect(await rcon.run(built(giveCommand({ player: "Steve", item: "minecraft:nope", count: 1 })))).toEqual(
      {
        outcome: "unknown_item",
        item: "minecraft:nope",
      },
    );
    expect(await rcon.run(built(dataGetEntityCommand({ player: "Nobody" })))).toEqual({
      outcome: "no_entity",
    });
  });

  it("a give into a full inventory still says it gave (vanilla drops what does not fit)", async () => {
    const rcon = commands(vanilla);
    await rcon.run(built(giveCommand({ player: "Steve", item: "minecraft:cobblestone", count: 36 * 64 })));
    await waitFor(() => (bot.inventory.emptySlotCount() === 0 ? true : undefined));
    expect(
      await rcon.run(built(giveCommand({ player: "Steve", item: "minecraft:apple", count: 1 }))),
    ).toMatchObject({
      outcome: "given",
      count: 1,
    });
    expect(vanilla.dropped).toContainEqual({ player: "Steve", item: "minecraft:apple", count: 1 });
    expect(count("apple")).toBe(0);
  });
});
