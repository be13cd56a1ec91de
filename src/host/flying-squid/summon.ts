import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type { SquidPlayer, SquidServer } from "./flying-squid-types.js";

/** The entity kinds of 1.19+ registries that are living mobs (earlier registries call them all "mob"). */
const LIVING_KINDS: ReadonlySet<string> = new Set([
  "mob",
  "hostile",
  "animal",
  "passive",
  "ambient",
  "water_creature",
]);

interface EntityData {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly width?: number;
  readonly height?: number;
}

/** A flying-squid entity as `initEntity` returns it (prismarine-entity plus flying-squid's plugins). */
interface SquidEntity {
  readonly id: number;
  uuid: string;
  name: string;
  health: number;
  pitch: number;
  yaw: number;
  headPitch: number;
  metadata: unknown[];
  velocity: unknown;
  gravity: unknown;
  terminalvelocity: unknown;
  friction: unknown;
  size: unknown;
  updateAndSpawn(): void;
  takeDamage(options: object): void;
}

interface SummoningServer {
  readonly registry: { readonly entitiesByName: Record<string, EntityData | undefined> };
  initEntity(kind: "mob", entityType: number, world: unknown, position: unknown): SquidEntity;
  destroyEntity(entity: SquidEntity): void;
}

/** How long a killed mob lies before it is removed from clients (the vanilla death animation). */
const REMOVE_DEAD_MILLIS = 1_000;

const require = createRequire(import.meta.url);
const { Vec3 } = require("vec3") as { Vec3: new (x: number, y: number, z: number) => unknown };

/**
 * Spawns a living mob where flying-squid's `spawnMob` cannot: it looks the name up among the "mob" kind only,
 * which 1.19+ registries split into hostile, animal, passive… The mob has 20 health and no AI; a player's
 * attacks (1 damage each) kill it, which the host reports as a kill. Returns undefined for a name that is not a
 * living mob.
 */
export const spawnLivingMob = (
  serv: SquidServer,
  name: string,
  world: unknown,
  position: { x: number; y: number; z: number },
): { readonly id: number; readonly name: string; readonly health: number } | undefined => {
  const server = serv as unknown as SummoningServer;
  const data = server.registry.entitiesByName[name.replace(/^minecraft:/, "")];
  if (data === undefined || !LIVING_KINDS.has(data.type)) return undefined;
  const mob = server.initEntity("mob", data.id, world, new Vec3(position.x, position.y, position.z));
  mob.uuid = randomUUID();
  mob.name = data.name;
  mob.health = 20;
  mob.pitch = 0;
  mob.yaw = 0;
  mob.headPitch = 0;
  mob.metadata = [];
  mob.velocity = new Vec3(0, 0, 0);
  mob.gravity = new Vec3(0, -20, 0);
  mob.terminalvelocity = new Vec3(27, 27, 27);
  mob.friction = new Vec3(15, 0, 15);
  mob.size = new Vec3(data.width ?? 0.75, data.height ?? 1.75, data.width ?? 0.75);
  // flying-squid forgets a dead mob but never tells clients to remove it: it would lie there for good
  const takeDamage = mob.takeDamage;
  mob.takeDamage = (options) => {
    const alive = mob.health > 0;
    takeDamage.call(mob, options);
    if (alive && mob.health <= 0) setTimeout(() => server.destroyEntity(mob), REMOVE_DEAD_MILLIS).unref();
  };
  mob.updateAndSpawn();
  return mob;
};

/** Summoned mobs alive at once: they never despawn, and flying-squid refuses logins past its entity cap. */
export const MAX_SUMMONED = 32;

/**
 * `/summon <mob>` for operators, replacing flying-squid's, which summons nothing on 1.19+ for every mob whose
 * registry kind is not "mob" (a zombie is "hostile"). Living mobs spawn beside the operator and are removed a
 * second after they die; other entities (boats, arrows) are refused, and so is a summon past
 * {@link MAX_SUMMONED} mobs alive. `text` renders a reply in the operator's language.
 */
export const repairSummon = (
  serv: SquidServer,
  text: (player: SquidPlayer, key: string, ...args: string[]) => string,
): void => {
  const alive = new Set<{ readonly id: number; readonly health: number }>();
  const entities = (serv as unknown as { readonly entities: Record<number, unknown> }).entities;
  serv.commands.add({
    base: "summon",
    info: "Summon a mob",
    usage: "/summon <mob>",
    tab: ["entity"],
    onlyPlayer: true,
    op: true,
    action: (rest, context) => {
      const player = context.player as (SquidPlayer & { readonly world: unknown }) | undefined;
      if (player === undefined) return undefined;
      const name = typeof rest === "string" ? rest.trim() : "";
      if (name === "") return text(player, "system.host.summon.usage");
      // dead, or gone another way (a /kill, a world unloaded)
      for (const mob of alive) if (mob.health <= 0 || entities[mob.id] === undefined) alive.delete(mob);
      if (alive.size >= MAX_SUMMONED) return text(player, "system.host.summon.limit", String(MAX_SUMMONED));
      const { x, y, z } = player.position;
      let mob: ReturnType<typeof spawnLivingMob>;
      try {
        mob = spawnLivingMob(serv, name, player.world, { x: x + 2, y, z });
      } catch {
        // flying-squid's own entity cap (players count too)
        return text(player, "system.host.summon.full");
      }
      if (mob === undefined) return text(player, "system.host.summon.unknown", name);
      alive.add(mob);
      return text(player, "system.host.summon.done", mob.name);
    },
  });
};
