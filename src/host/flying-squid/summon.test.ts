import { describe, expect, it } from "vitest";
import type { SquidCommandSpec, SquidPlayer, SquidServer } from "./flying-squid-types.js";
import { MAX_SUMMONED, repairSummon } from "./summon.js";

/** A server whose `initEntity` makes plain mobs (or throws past `cap` entities, as flying-squid does). */
const fakeServer = (cap: number) => {
  const commands: SquidCommandSpec[] = [];
  const mobs: { id: number; health: number; takeDamage(options: object): void }[] = [];
  const entities: Record<number, unknown> = {};
  const serv = {
    entities,
    commands: { add: (spec: SquidCommandSpec) => commands.push(spec) },
    registry: {
      entitiesByName: {
        zombie: { id: 143, name: "zombie", type: "hostile" },
        acacia_boat: { id: 1, name: "acacia_boat", type: "other" },
      },
    },
    initEntity: () => {
      if (mobs.length >= cap) throw new Error("Too many mobs !");
      const mob = {
        id: mobs.length + 1,
        health: 0,
        takeDamage(this: { health: number }, { damage = 1 }: { damage?: number }) {
          this.health -= damage;
        },
        updateAndSpawn: () => {},
      };
      mobs.push(mob);
      entities[mob.id] = mob;
      return mob;
    },
    destroyEntity: () => {},
  } as unknown as SquidServer;
  repairSummon(serv, (_player, key, ...args) => [key, ...args].join(" "));
  const summon = (line: string) =>
    commands[0]?.action(line, {
      player: { position: { x: 0, y: 5, z: 0 }, world: {} } as unknown as SquidPlayer,
    });
  return { summon, mobs, entities };
};

describe("/summon", () => {
  it("spawns living mobs only, up to the limit of mobs alive, in the operator's language", () => {
    const { summon, mobs, entities } = fakeServer(1_000);
    expect(summon("minecraft:zombie")).toBe("system.host.summon.done zombie");
    expect(mobs[0]?.health).toBe(20);
    expect(summon("acacia_boat")).toBe("system.host.summon.unknown acacia_boat");
    expect(summon("")).toBe("system.host.summon.usage");
    for (let count = 1; count < MAX_SUMMONED; count++) summon("zombie");
    expect(summon("zombie")).toBe(`system.host.summon.limit ${MAX_SUMMONED}`);
    // a dead mob frees its place
    mobs[0]?.takeDamage({ damage: 20 });
    expect(summon("zombie")).toBe("system.host.summon.done zombie");
    expect(summon("zombie")).toBe(`system.host.summon.limit ${MAX_SUMMONED}`);
    // and so does one removed another way (a /kill @e, a world unloaded)
    delete entities[mobs[1]?.id ?? 0];
    expect(summon("zombie")).toBe("system.host.summon.done zombie");
  });

  it("answers when flying-squid's own entity cap is reached", () => {
    const { summon } = fakeServer(0);
    expect(summon("zombie")).toBe("system.host.summon.full");
  });
});
