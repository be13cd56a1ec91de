import { afterEach, describe, expect, it } from "vitest";
import { type RconServer, startRconServer } from "../../../../test/support/rcon-server.js";
import type { InventorySnapshot } from "../../../game/game-snapshots.js";
import { MemoryLogger } from "../../../util/logger.js";
import { RconClient } from "../rcon/rcon-client.js";
import { RconCommands } from "../rcon/rcon-commands.js";
import { loadReplyLanguage } from "../rcon/reply-language.js";
import { saveAllCommand } from "../rcon/server-commands.js";
import { itemCatalog } from "./inventory-room.js";
import { RconAvailability } from "./rcon-availability.js";
import { RconEffects } from "./rcon-effects.js";
import { SaveBatcher } from "./save-batcher.js";

const PASSWORD = "effects";
const VERSION = "1.21.4";
const UNKNOWN = "Unknown or incomplete command, see below for error";
const SAVED = "Saving the game (this may take a moment!)Saved the game";
const BREAD = [{ item: "minecraft:bread", count: 3 }];

/** A backend whose `data get` answers as `dataGet` says; gives answered as vanilla; `drop give` loses the reply. */
const backend = async (dataGet: "unknown" | "drop" | "full", dropGive = false) => {
  const lines: string[] = [];
  const server = await startRconServer({
    password: PASSWORD,
    handle: (command, connection) => {
      lines.push(command);
      const give = /^give (\w+) minecraft:(\w+) (\d+)$/.exec(command);
      if (give !== null) {
        if (dropGive) connection.drop();
        return `Gave ${give[3]} [${give[2] === "bread" ? "Bread" : give[2]}] to ${give[1]}`;
      }
      if (command === "save-all") return SAVED;
      if (command.startsWith("data get")) {
        if (dataGet === "drop") connection.drop();
        if (dataGet === "full")
          return `Steve has the following entity data: [${Array.from({ length: 36 }, (_, slot) => `{count: 64, Slot: ${slot}b, id: "minecraft:stone"}`).join(", ")}]`;
        return UNKNOWN;
      }
      return UNKNOWN;
    },
  });
  return { server, lines };
};

const live = (free: number): InventorySnapshot => ({
  stacks: Array.from({ length: 36 - free }, (_, index) => ({
    slot: 9 + index,
    item: "minecraft:stone",
    count: 64,
  })),
  freeSlots: free,
  heldSlot: 0,
});

describe("RconEffects: a failure before the first give leaves the reward owed", () => {
  const closers: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  const effectsOn = (port: number, logger: MemoryLogger) => {
    const client = new RconClient({
      host: "127.0.0.1",
      port,
      password: PASSWORD,
      logger,
      commandTimeoutMillis: 2_000,
      connectTimeoutMillis: 500,
      backoff: { initialMillis: 50, maxMillis: 200 },
    });
    const commands = new RconCommands({ client, language: loadReplyLanguage(VERSION, logger), logger });
    const saves = new SaveBatcher({
      target: { save: () => commands.run(saveAllCommand()), logins: () => commands.logins },
      intervalMillis: 0,
      logger,
    });
    const availability = new RconAvailability({
      commands,
      where: `127.0.0.1:${port}`,
      logger,
      probeMillis: { initial: 50, max: 200 },
    });
    closers.push(
      () => client.close(),
      () => saves.close(),
      () => availability.close(),
    );
    const effects = new RconEffects({ commands, saves, items: itemCatalog(VERSION), logger, availability });
    return { effects, availability };
  };

  const opened = async (server: RconServer) => {
    closers.push(() => server.close());
    return server.port;
  };

  it("decides room on the live inventory when data get is an unknown command, and waits without one", async () => {
    const { server, lines } = await backend("unknown");
    const logger = new MemoryLogger();
    const { effects } = effectsOn(await opened(server), logger);
    const noRoom = await effects.give({ name: "Steve", liveInventory: () => live(0) }, BREAD);
    expect(noRoom).toMatchObject({ given: false, refusal: "no_room" });
    const unseen = await effects.give({ name: "Steve", liveInventory: () => undefined }, BREAD);
    expect(unseen).toMatchObject({ given: false, refusal: "unavailable" });
    expect(lines.some((line) => line.startsWith("give"))).toBe(false);
    expect(logger.lines.filter((line) => line.includes('cannot answer "data get'))).toHaveLength(1);
    expect(logger.lines.filter((line) => line.includes("RCON: nothing given to Steve"))).toHaveLength(2);
    // where the live inventory shows room, the give goes ahead without data get
    const given = await effects.give({ name: "Steve", liveInventory: () => live(5) }, BREAD);
    expect(given).toEqual({ given: true });
  });

  it("waits when the room check loses its connection, and says it does not fit only when data get says so", async () => {
    const dropped = await backend("drop");
    const { effects } = effectsOn(await opened(dropped.server), new MemoryLogger());
    await expect(
      effects.give({ name: "Steve", liveInventory: () => undefined }, BREAD),
    ).resolves.toMatchObject({
      given: false,
      refusal: "unavailable",
    });
    const full = await backend("full");
    const other = effectsOn(await opened(full.server), new MemoryLogger());
    await expect(
      other.effects.give({ name: "Steve", liveInventory: () => undefined }, BREAD),
    ).resolves.toMatchObject({ given: false, refusal: "no_room" });
  });

  it("rejects (unknown) only when a give's reply was lost after it was sent", async () => {
    const { server } = await backend("unknown", true);
    const { effects } = effectsOn(await opened(server), new MemoryLogger());
    await expect(effects.give({ name: "Steve", liveInventory: () => live(5) }, BREAD)).rejects.toThrow(
      /after "give" was sent/,
    );
  });

  it("refuses at once while RCON cannot be reached, and says when it answers again", async () => {
    const { server } = await backend("unknown");
    const port = server.port;
    await server.close();
    const logger = new MemoryLogger();
    const { effects, availability } = effectsOn(port, logger);
    let back = 0;
    availability.onBack(() => back++);
    const first = await effects.give({ name: "Steve", liveInventory: () => live(5) }, BREAD);
    expect(first).toMatchObject({ given: false, refusal: "unavailable" });
    expect(availability.down).toBeDefined();
    expect(logger.has("cannot be reached")).toBe(true);
    const started = Date.now();
    const second = await effects.give({ name: "Steve", liveInventory: () => live(5) }, BREAD);
    expect(second).toMatchObject({ given: false, refusal: "unavailable" });
    expect(Date.now() - started).toBeLessThan(1_000);
    const again = await startRconServer({ password: PASSWORD, port, handle: () => UNKNOWN });
    closers.push(() => again.close());
    await expect.poll(() => back, { timeout: 10_000 }).toBe(1);
    expect(availability.down).toBeUndefined();
    expect(logger.has(`RCON at 127.0.0.1:${port} answers again`)).toBe(true);
  });

  it("sends nothing once the caller's signal aborted before the first give", async () => {
    const { server, lines } = await backend("unknown");
    const { effects } = effectsOn(await opened(server), new MemoryLogger());
    const controller = new AbortController();
    controller.abort();
    const outcome = await effects.give(
      { name: "Steve", liveInventory: () => live(5) },
      BREAD,
      undefined,
      controller.signal,
    );
    expect(outcome).toMatchObject({ given: false, refusal: "unavailable" });
    expect(lines.some((line) => line.startsWith("give"))).toBe(false);
  });
});
