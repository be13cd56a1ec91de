import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { Languages } from "../../util/language.js";
import { MemoryLogger } from "../../util/logger.js";
import type { HostHandler, HostPlayer } from "../shared/host-handler.js";
import type { SquidPlayer, SquidServer } from "./flying-squid-types.js";
import { systemPlugin } from "./system-plugin.js";

/** A flying-squid player as far as the plugin's per-player setup touches it. */
const fakePlayer = (): SquidPlayer =>
  Object.assign(new EventEmitter(), {
    _client: Object.assign(new EventEmitter(), {
      protocolVersion: 769,
      version: "1.21.4",
      username: "Hunter",
      uuid: "5f0c8f04-0000-3000-8000-000000000001",
      write: () => {},
    }),
    username: "Hunter",
    uuid: "5f0c8f04-0000-3000-8000-000000000001",
    system: () => {},
    handleCommand: async () => {},
  }) as unknown as SquidPlayer;

/** A handler that records nothing but what a test adds (`onKill`, `onDeath`, …). */
const handlerWith = (hooks: Partial<HostHandler>): HostHandler => ({
  onCommand: async () => {},
  completions: async () => [],
  commandTree: () => undefined,
  onJoin: () => {},
  onLeave: () => {},
  ...hooks,
});

const fakeServer = (): SquidServer =>
  Object.assign(new EventEmitter(), {
    supportFeature: () => true,
    players: [],
    registry: { loginPacket: {} },
  }) as unknown as SquidServer;

describe("the System plugin's kill reports", () => {
  it("reports a mob that an attack brought to 0 health, once per attack that killed; never a player or a cancelled attack", () => {
    const kills: { player: string; entity: string; entityId: string }[] = [];
    const handler = handlerWith({
      onKill: (player: HostPlayer, entity: string, entityId: string) =>
        void kills.push({ player: player.name, entity, entityId }),
    });
    const plugin = systemPlugin({
      handler,
      shortcuts: [],
      ops: [],
      logger: new MemoryLogger(),
      languages: Languages.load(),
    });
    const player = fakePlayer();
    plugin.player?.(player, fakeServer());
    const zombie = {
      type: "mob",
      name: "zombie",
      health: 3,
      id: 7,
      uuid: "6a1b0c2d-0000-4000-8000-000000000007",
    };
    player.emit("attack_done", { attackedEntity: zombie }, false);
    expect(kills).toEqual([]);
    zombie.health = 0;
    player.emit("attack_done", { attackedEntity: zombie }, true);
    expect(kills).toEqual([]);
    player.emit("attack_done", { attackedEntity: zombie }, false);
    player.emit("attack_done", { attackedEntity: { type: "player", name: "Alex", health: 0, id: 2 } }, false);
    expect(kills).toEqual([
      { player: "Hunter", entity: "minecraft:zombie", entityId: "6a1b0c2d-0000-4000-8000-000000000007" },
    ]);
  });
});

describe("the System plugin's death and dimension reports", () => {
  it("reports a death when the player's health reaches 0 (once per death), and each change of world with its dimension", async () => {
    const reports: string[] = [];
    const handler = handlerWith({
      onDeath: (player: HostPlayer) => void reports.push(`death ${player.name}`),
      onDimensionChange: (player: HostPlayer, dimension: string) =>
        void reports.push(`${player.name} in ${dimension}`),
    });
    const plugin = systemPlugin({
      handler,
      shortcuts: [],
      ops: [],
      logger: new MemoryLogger(),
      languages: Languages.load(),
    });
    const nether = { name: "nether" };
    const overworld = { name: "overworld" };
    const serv = Object.assign(fakeServer(), { netherworld: nether, overworld });
    // flying-squid's health plugin: every damage goes through updateHealth
    const player = Object.assign(fakePlayer(), {
      health: 20,
      world: overworld,
      updateHealth(this: { health: number }, health: number) {
        this.health = health;
      },
    });
    plugin.player?.(player, serv);
    player.emit("spawned");
    const damage = (player as unknown as { updateHealth(health: number): void }).updateHealth.bind(player);
    damage(12);
    damage(0);
    damage(-3);
    damage(20);
    damage(0);
    Object.assign(player, { world: nether });
    player.emit("change_world");
    Object.assign(player, { world: overworld });
    player.emit("change_world");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reports).toEqual([
      "death Hunter",
      "death Hunter",
      "Hunter in minecraft:the_nether",
      "Hunter in minecraft:overworld",
    ]);
    expect(player.health).toBe(0);
  });
});
