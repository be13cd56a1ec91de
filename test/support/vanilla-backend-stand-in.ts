import { createRequire } from "node:module";
import { repairEntityTeleport, teleportHasVelocity } from "../../src/host/flying-squid/entity-teleport.js";
import type {
  SquidPlayer,
  SquidPlugin,
  SquidServer,
} from "../../src/host/flying-squid/flying-squid-types.js";
import { repairRespawn } from "../../src/host/flying-squid/respawn.js";

/** `entity_status` 24–28: the operator level 0–4 vanilla tells a client at join and on /op, /deop. */
const OP_LEVEL_STATUS = 24;
/** The level vanilla's `/op` gives (`op-permission-level` in server.properties, 4 by default). */
const OP_PERMISSION_LEVEL = 4;

interface ItemModule {
  toNotch(item: unknown): unknown;
}

/** What the stand-in reads of a flying-squid player beyond the typed surface. */
interface StandInPlayer {
  readonly id: number;
  op: boolean;
  readonly inventory: { readonly slots: readonly unknown[] };
}

interface Position {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}
interface TeleportedPlayer {
  position: Position;
  readonly yaw?: number;
  readonly pitch?: number;
  sendSelfPosition: (position?: Position) => void;
}

/**
 * STAND-IN for what a vanilla server sends its clients and flying-squid does not: the player's whole window
 * (`window_items` of window 0) once they spawned, the operator level as `entity_status` 24+level whenever the
 * operator flag changes (flying-squid sends level 0 at join and nothing after `/op`), a respawn packet that
 * encodes on 1.20.5+ (the embedded world's own repair, so a change of world reaches the client), and a `position`
 * and an `entity_teleport` that encode on 1.21.2+ (so `/tp` reaches the player and those who see them). It also
 * defines a few advancements at spawn; `grantAdvancement` completes one as vanilla reports it. Only what
 * the gateway's state tests need; a real vanilla server does all of this itself.
 */
export const vanillaStandIn = (): SquidPlugin => ({
  player(player: SquidPlayer, serv: SquidServer) {
    const standIn = player as unknown as StandInPlayer;
    repairRespawn(serv, player, () => {});
    repairEntityTeleport(serv, player);
    if (teleportHasVelocity(serv))
      // flying-squid's own `position` writes the flags as a number, which 1.21.2+ does not encode (the client
      // was disconnected by every /tp); set after "asap", which follows flying-squid's own plugins
      player.once("asap", () => {
        const teleported = player as unknown as TeleportedPlayer;
        teleported.sendSelfPosition = (position) => {
          if (position !== undefined) teleported.position = position;
          const { x, y, z } = teleported.position;
          player._client.write("position", {
            teleportId: 1,
            x,
            y,
            z,
            dx: 0,
            dy: 0,
            dz: 0,
            yaw: teleported.yaw ?? 0,
            pitch: teleported.pitch ?? 0,
            flags: {},
          });
        };
      });
    const Item = createRequire(import.meta.url)("prismarine-item")(serv.registry) as ItemModule;
    player.once("spawned", () => {
      player._client.write("advancements", {
        reset: true,
        advancementMapping: STAND_IN_ADVANCEMENTS.map(advancementEntry),
        identifiers: [],
        progressMapping: [],
        showAdvancements: true,
      });
      player._client.write("window_items", {
        windowId: 0,
        stateId: 0,
        items: standIn.inventory.slots.map((item) => Item.toNotch(item ?? null)),
        carriedItem: Item.toNotch(null),
      });
      let op = standIn.op === true;
      Object.defineProperty(standIn, "op", {
        configurable: true,
        get: () => op,
        set: (value: boolean) => {
          if (value === op) return;
          op = value;
          player._client.write("entity_status", {
            entityId: standIn.id,
            entityStatus: OP_LEVEL_STATUS + (value ? OP_PERMISSION_LEVEL : 0),
          });
        },
      });
    });
  },
});

/**
 * A few of vanilla's advancements, as the stand-in defines them at spawn (vanilla sends the whole tree): two shown
 * ones, and a recipe unlock, which has no display. `[id, criterion, shown]`.
 */
const STAND_IN_ADVANCEMENTS: readonly (readonly [string, string, boolean])[] = [
  ["minecraft:story/root", "crafting_table", true],
  ["minecraft:story/mine_stone", "get_stone", true],
  ["minecraft:recipes/misc/stick", "has_planks", false],
];

const text = (value: string) => ({ type: "string", value });

const advancementEntry = ([key, criterion, shown]: readonly [string, string, boolean]) => ({
  key,
  value: {
    parentId: undefined,
    displayData: shown
      ? {
          title: text(key),
          description: text(key),
          icon: { itemCount: 0 },
          frameType: 0,
          flags: { unused: 0, hidden: 0, show_toast: 1, has_background_texture: 0 },
          xCord: 0,
          yCord: 0,
        }
      : undefined,
    requirements: [[criterion]],
    sendsTelemtryData: false,
  },
});

/**
 * STAND-IN for vanilla granting an advancement's criterion (a player mined stone): the `advancements` packet with
 * that advancement's whole progress, as vanilla sends it after the change.
 */
export const grantAdvancement = (player: SquidPlayer, advancement: string): void => {
  const entry = STAND_IN_ADVANCEMENTS.find(([key]) => key === advancement);
  if (entry === undefined) throw new Error(`the stand-in does not define ${advancement}`);
  player._client.write("advancements", {
    reset: false,
    advancementMapping: [],
    identifiers: [],
    progressMapping: [
      { key: advancement, value: [{ criterionIdentifier: entry[1], criterionProgress: BigInt(Date.now()) }] },
    ],
    showAdvancements: true,
  });
};
