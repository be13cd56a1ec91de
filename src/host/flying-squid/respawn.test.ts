import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { SquidPlayer, SquidServer } from "./flying-squid-types.js";
import { repairRespawn, respawnPacket } from "./respawn.js";
import { roundTrip } from "./wire.test-support.js";

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
  it("respawns a dead player on the client's perform_respawn, and never heals a living one", () => {
    const client = new EventEmitter() as EventEmitter & { write: (name: string, params: unknown) => void };
    const written: string[] = [];
    client.write = (name) => void written.push(name);
    const healed: number[] = [];
    const player = Object.assign(new EventEmitter(), {
      _client: client,
      world: {},
      gameMode: 0,
      health: 4,
      sendSelfPosition: () => {},
      updateAndSpawn: () => {},
      updateHealth: (health: number) => void healed.push(health),
    });
    const server = { registry: registry("1.21.4"), netherworld: {} } as unknown as SquidServer;
    repairRespawn(server, player as unknown as SquidPlayer);
    player.emit("asap");
    client.emit("client_command", { actionId: "perform_respawn" });
    expect(healed).toEqual([]);
    player.health = 0;
    client.emit("client_command", { actionId: "request_stats" });
    client.emit("client_command", { actionId: "perform_respawn" });
    expect(healed).toEqual([20]);
    expect(written).toEqual(["respawn"]);
  });
});
