import { afterEach, describe, expect, it } from "vitest";
import { type RconServer, startRconServer } from "../../../../test/support/rcon-server.js";
import { MemoryLogger, silentLogger } from "../../../util/logger.js";
import type { Validation } from "../../../util/validation.js";
import { giveCommand } from "./item-commands.js";
import { RconClient } from "./rcon-client.js";
import type { RconCommand } from "./rcon-command.js";
import { RconCommands } from "./rcon-commands.js";
import { RconError } from "./rcon-error.js";
import { loadReplyLanguage } from "./reply-language.js";
import { saveAllCommand } from "./server-commands.js";

const language = loadReplyLanguage("1.21.4", silentLogger);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const built = <R>(command: Validation<RconCommand<R>>): RconCommand<R> => {
  if (!command.success) throw new Error(command.error);
  return command.value;
};

/** Answers like a backend that knows `give`, `list` and `save-all`, namespaced or not. */
const backend = async (options: { namespaced: () => boolean; odd?: string }): Promise<RconServer> => {
  const server = await startRconServer({
    password: "pw",
    strictReads: true,
    handle: (command, connection) => {
      if (command === "drop") connection.drop();
      const namespaced = command.startsWith("minecraft:");
      if (namespaced && !options.namespaced())
        return `${language.format("command.unknown.command", [])}${command}<--[HERE]`;
      const [name, ...args] = (namespaced ? command.slice("minecraft:".length) : command).split(" ");
      if (options.odd !== undefined) return options.odd;
      if (name === "list") return language.format("commands.list.players", [0, 20, ""]);
      if (name === "give")
        return language.format("commands.give.success.single", [args[2] ?? "", "[Bread]", args[0] ?? ""]);
      if (name === "save-all")
        return language.format("commands.save.saving", []) + language.format("commands.save.success", []);
      return `${language.format("command.unknown.command", [])}${command}<--[HERE]`;
    },
  });
  cleanups.push(() => server.close());
  return server;
};

const commands = (port: number, logger = new MemoryLogger()): { rcon: RconCommands; client: RconClient } => {
  const client = new RconClient({
    host: "127.0.0.1",
    port,
    password: "pw",
    logger,
    backoff: { initialMillis: 5, maxMillis: 20 },
  });
  cleanups.push(() => client.close());
  return { rcon: new RconCommands({ client, language, logger }), client };
};

const give = built(giveCommand({ player: "Steve", item: "minecraft:bread", count: 3 }));
const sentCommands = (server: RconServer): string[] =>
  server.received.filter((packet) => packet.type === 2).map((packet) => packet.body);

describe("RconCommands", () => {
  it("sends minecraft:-namespaced commands to a backend that knows them (Paper, Spigot)", async () => {
    const server = await backend({ namespaced: () => true });
    const { rcon } = commands(server.port);
    expect(await rcon.run(give)).toEqual({ outcome: "given", count: 3, item: "Bread", player: "Steve" });
    expect(await rcon.run(saveAllCommand())).toEqual({ outcome: "saved" });
    expect(sentCommands(server)).toEqual([
      "minecraft:list uuids",
      "minecraft:give Steve minecraft:bread 3",
      "minecraft:save-all",
    ]);
  });

  it("sends plain names to a backend that refuses the namespace (vanilla, Fabric, NeoForge)", async () => {
    const server = await backend({ namespaced: () => false });
    const logger = new MemoryLogger();
    const { rcon } = commands(server.port, logger);
    expect(await rcon.run(give)).toMatchObject({ outcome: "given" });
    expect(sentCommands(server)).toEqual(["minecraft:list uuids", "give Steve minecraft:bread 3"]);
    expect(logger.has("only plain command names")).toBe(true);
  });

  it("asks again after the connection was made anew (the backend may have been replaced)", async () => {
    let paper = false;
    const server = await backend({ namespaced: () => paper });
    const { rcon, client } = commands(server.port);
    await rcon.run(give);
    await expect(client.command("drop")).rejects.toMatchObject({ kind: "connection_lost" });
    paper = true;
    await rcon.run(give);
    expect(sentCommands(server)).toEqual([
      "minecraft:list uuids",
      "give Steve minecraft:bread 3",
      "drop",
      "minecraft:list uuids",
      "minecraft:give Steve minecraft:bread 3",
    ]);
  });

  it("a reply no template matches is an error naming the command, never a success", async () => {
    const odd = await backend({ namespaced: () => true, odd: "§cAn internal error occurred in plugin Foo" });
    const oddRcon = new RconCommands({
      client: commands(odd.port).client,
      language,
      logger: silentLogger,
      dialect: "namespaced",
    });
    const error = await oddRcon.run(give).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RconError);
    expect(error).toMatchObject({
      kind: "unrecognized_reply",
      sent: true,
      command: "minecraft:give Steve minecraft:bread 3",
    });
    expect((error as RconError).message).toContain('answered "minecraft:give Steve minecraft:bread 3"');
    expect((error as RconError).message).toContain("An internal error occurred in plugin Foo");
  });
});
