import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { roundTrip } from "../shared/wire.test-support.js";
import type { SquidPlayer, SquidServer } from "./flying-squid-types.js";
import { repairFirstMoveWait, repairRespawn, respawnPacket } from "./respawn.js";

const registry = (version: string) =>
  createRequire(import.meta.url)("prismarine-registry")(version) as Parameters<
    typeof respawnPacket
  >[0]["registry"];

describe("respawnPacket", () => {
  const nether = {};
  const server = { registry: registry("1.21.4"), netherworld: nether };

  it("writes the 1.21 worldState a client decodes: the dimension type's registry index and the world's name", () => {
    const packet = respawnPacket(server, { world: nether, health: 20, gameMode: 1 }, { dimension: -1 });
    const decoded = roundTrip("1.21.4", "respawn", packet).params as {
      worldState: { dimension: number; name: string; gamemode: string };
    };
    expect(decoded.worldState).toMatchObject({
      dimension: 3,
      name: "minecraft:the_nether",
      gamemode: "creative",
    });
    const back = respawnPacket(server, { world: nether, health: 20, gameMode: 0 }, { dimension: 0 });
    expect(roundTrip("1.21.4", "respawn", back).params).toMatchObject({
      worldState: { dimension: 0, name: "minecraft:overworld", gamemode: "survival" },
    });
  });

  it("respawns in the world the player is in when no dimension is given (a death in the nether)", () => {
    expect(respawnPacket(server, { world: nether, health: 0, gameMode: 0 })).toMatchObject({
      worldState: { name: "minecraft:the_nether" },
    });
    expect(respawnPacket(server, { world: {}, health: 0, gameMode: 0 })).toMatchObject({
      worldState: { name: "minecraft:overworld" },
    });
  });

  it("leaves versions before 1.20.5 to flying-squid", () => {
    expect(
      respawnPacket(
        { registry: registry("1.20.4"), netherworld: nether },
        { world: {}, health: 0, gameMode: 0 },
      ),
    ).toBe(undefined);
  });
});

describe("repairRespawn", () => {
  const overworld = { name: "overworld" };
  const nether = { name: "nether" };
  const setUp = (world: object) => {
    const client = new EventEmitter() as EventEmitter & { write: (name: string, params: unknown) => void };
    const written: string[] = [];
    client.write = (name) => void written.push(name);
    const healed: number[] = [];
    const travels: unknown[] = [];
    const player = Object.assign(new EventEmitter(), {
      _client: client,
      world,
      gameMode: 0,
      health: 4,
      position: { x: 90, y: -70, z: 90 } as unknown,
      spawnPoint: { clone: () => ({ x: 0, y: 5, z: 0 }) },
      sendSelfPosition: () => {},
      updateAndSpawn: () => {},
      updateHealth: (health: number) => void healed.push(health),
      changeWorld: async (to: unknown) => void travels.push(to),
    });
    const server = { registry: registry("1.21.4"), overworld, netherworld: nether } as unknown as SquidServer;
    const failures: unknown[] = [];
    repairRespawn(server, player as unknown as SquidPlayer, (error) => void failures.push(error));
    player.emit("asap");
    return { client, player, written, healed, travels, failures };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

  it("respawns a dead player at the spawn point on perform_respawn, once, and never heals a living one", async () => {
    const { client, player, written, healed, failures } = setUp(overworld);
    client.emit("client_command", { actionId: "perform_respawn" });
    await settle();
    expect(healed).toEqual([]);
    player.health = 0;
    client.emit("client_command", { actionId: "request_stats" });
    client.emit("client_command", { actionId: "perform_respawn" });
    client.emit("client_command", { actionId: "perform_respawn" });
    await settle();
    expect(healed).toEqual([20]);
    expect(written).toEqual(["respawn"]);
    expect(player.position).toEqual({ x: 0, y: 5, z: 0 });
    expect(failures).toEqual([]);
  });

  it("sends a player who died in the nether back to the overworld", async () => {
    const { client, player, healed, travels } = setUp(nether);
    player.health = 0;
    client.emit("client_command", { actionId: "perform_respawn" });
    await settle();
    expect(travels).toEqual([overworld]);
    expect(healed).toEqual([20]);
  });
});

describe("repairFirstMoveWait", () => {
  const setUp = () => {
    const client = new EventEmitter();
    const player = Object.assign(new EventEmitter(), { _client: client }) as unknown as SquidPlayer & {
      waitPlayerLogin: () => Promise<void>;
    };
    repairFirstMoveWait(player);
    player.emit("asap");
    return { client, player };
  };
  const ended = async (wait: Promise<void>): Promise<boolean> =>
    Promise.race([
      wait.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10)),
    ]);

  it("ends the wait for the player with the client's position answer, which is all a still client sends", async () => {
    const { client, player } = setUp();
    const wait = player.waitPlayerLogin();
    expect(await ended(wait)).toBe(false);
    client.emit("position_look", { x: 0, y: 5, z: 0 });
    expect(await ended(wait)).toBe(true);
    // the listeners went with the wait
    for (const name of ["position", "position_look", "look", "flying"])
      expect(client.listenerCount(name)).toBe(0);
  });

  it("still ends it with flying-squid's own packets", async () => {
    for (const name of ["position", "look", "flying"]) {
      const { client, player } = setUp();
      const wait = player.waitPlayerLogin();
      client.emit(name, {});
      expect(await ended(wait)).toBe(true);
    }
  });
});
