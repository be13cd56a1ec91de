import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Bot } from "mineflayer";
import { Anvil } from "prismarine-provider-anvil";
import { Vec3 } from "vec3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningHost, start } from "../../src/host/flying-squid/server.js";
import type { HostHandler } from "../../src/host/shared/host-handler.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { joinBot, tempFolder, waitFor } from "./host-support.js";

/** flying-squid's own reader: what the next login loads from `<world>/playerdata/<uuid>.dat`. */
const playerDat = createRequire(import.meta.url)("flying-squid/src/lib/playerDat.js") as {
  read(
    uuid: string,
    spawnPoint: unknown,
    worldFolder: string,
  ): Promise<{
    player: { heldItemSlot: number };
    inventory: { id: { value: string }; Count: { value: number } }[];
  }>;
};

const saved = async (world: string, uuid: string, item: string): Promise<number> =>
  (await playerDat.read(uuid, undefined, world)).inventory
    .filter((stack) => stack.id.value === item)
    .reduce((sum, stack) => sum + stack.Count.value, 0);

/** The held slot the player's data file records: a change flying-squid itself saves only at logout. */
const savedHeldSlot = async (world: string, uuid: string): Promise<number | undefined> => {
  try {
    return (await playerDat.read(uuid, undefined, world)).player.heldItemSlot;
  } catch {
    return undefined;
  }
};

const eventually = async (check: () => Promise<boolean>, timeoutMillis = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMillis;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const quietHandler = (joined: string[]): HostHandler => ({
  onCommand: async () => {},
  completions: async () => [],
  commandTree: () => undefined,
  onJoin: (player) => {
    joined.push(player.uuid);
  },
  onLeave: () => {},
});

/** A host in a fresh world with one joined bot. */
const hostWithBot = async (
  name: string,
  playerSaveIntervalMillis: number,
  ops: readonly string[] = [],
): Promise<{ host: RunningHost; bot: Bot; uuid: string; world: string }> => {
  const world = tempFolder("system-save-");
  const joined: string[] = [];
  const host = await start({
    host: "127.0.0.1",
    port: 0,
    worldFolder: world,
    generation: "superflat",
    viewDistance: 2,
    handler: quietHandler(joined),
    logger: new MemoryLogger(),
    announce: () => {},
    playerSaveIntervalMillis,
    ops,
  });
  const bot = await joinBot(host.port, name);
  const uuid = await waitFor(() => joined[0]);
  return { host, bot, uuid, world };
};

describe("flying-squid host: gives are saved before they count", () => {
  let running: { host: RunningHost; bot: Bot; uuid: string; world: string };

  beforeAll(async () => {
    running = await hostWithBot("Saver", 0);
  });

  afterAll(async () => {
    running?.bot.quit();
    await running?.host.close();
    if (running !== undefined) rmSync(running.world, { recursive: true, force: true });
  });

  it("resolves a give only once the player's data file on disk holds the items", async () => {
    const { host, bot, uuid, world } = running;
    const player = host.player(uuid)!;
    expect(await player.giveItems([{ item: "minecraft:bread", count: 3 }])).toEqual({ given: true });
    expect(await saved(world, uuid, "minecraft:bread")).toBe(3);
    await waitFor(() => bot.inventory.items().find((item) => item.name === "bread"));
  });

  it("gives nothing when the stacks do not all fit (no partial give)", async () => {
    const { host, uuid, world } = running;
    const player = host.player(uuid)!;
    const free = player.inventory()!.freeSlots;
    expect(free).toBeGreaterThan(2);
    expect(await player.giveItems([{ item: "minecraft:cobblestone", count: 64 * (free - 1) }])).toEqual({
      given: true,
    });
    const before = player.inventory();
    const refused = await player.giveItems([
      { item: "minecraft:diamond", count: 1 },
      { item: "minecraft:emerald", count: 1 },
    ]);
    expect(refused).toMatchObject({ given: false, refusal: "no_room" });
    expect(player.inventory()).toEqual(before);
    expect(await saved(world, uuid, "minecraft:diamond")).toBe(0);
    expect(await player.giveItems([{ item: "minecraft:no_such_item", count: 1 }])).toMatchObject({
      given: false,
      refusal: "unknown_item",
    });
  });
});

describe("flying-squid host: player data is saved periodically and at shutdown", () => {
  it("saves online players every interval, not only at logout", async () => {
    const { host, bot, uuid, world } = await hostWithBot("Periodic", 200);
    try {
      bot.setQuickBarSlot(4);
      await eventually(async () => (await savedHeldSlot(world, uuid)) === 4);
    } finally {
      bot.quit();
      await host.close();
      rmSync(world, { recursive: true, force: true });
    }
  });

  it("saves every online player when the server closes, before close resolves", async () => {
    const { host, bot, uuid, world } = await hostWithBot("Closing", 0);
    // flying-squid's login ends (with its own save) once the client moves or looks; change nothing before it.
    await bot.look(1, 0, true);
    await eventually(async () => (await savedHeldSlot(world, uuid)) !== undefined);
    bot.setQuickBarSlot(6);
    await eventually(async () => host.player(uuid)?.inventory()?.heldSlot === 6);
    expect(await savedHeldSlot(world, uuid)).not.toBe(6);
    await host.close();
    expect(await savedHeldSlot(world, uuid)).toBe(6);
    bot.quit();
    rmSync(world, { recursive: true, force: true });
  });

  it("writes the world's changed chunks when the server closes, and stops its chunk saver", async () => {
    const { host, bot, world } = await hostWithBot("Builder", 0, ["Builder"]);
    try {
      // the superflat ground's grass is at y 4; the player sees the block once the server changed it
      bot.chat("/setblock 3 4 3 minecraft:gold_block");
      await waitFor(() => (bot.blockAt(new Vec3(3, 4, 3))?.name === "gold_block" ? true : undefined));
      await host.close();
      const column = await new (Anvil("1.21.4"))(join(world, "region")).load(0, 0);
      expect(column?.getBlock(new Vec3(3, 4, 3)).name).toBe("gold_block");
    } finally {
      bot.quit();
      rmSync(world, { recursive: true, force: true });
    }
  });
});
