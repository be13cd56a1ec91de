import type { SquidPlayer, SquidServer } from "./flying-squid-types.js";

type PacketFields = readonly [string, readonly { readonly name: string }[]];

interface ProtocolRegistry {
  readonly protocol?: {
    readonly play?: { readonly toClient?: { readonly types?: Record<string, PacketFields | undefined> } };
  };
}

/** flying-squid's teleport of an entity (a move of more than a few blocks), as it writes it on every version. */
interface OldTeleport {
  readonly entityId: number;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** An angle in 1/256 of a turn (-128..127). */
  readonly yaw: number;
  readonly pitch: number;
  readonly onGround?: boolean;
}

/** Whether the version's `entity_teleport` has the 1.21.2+ shape (velocity, float degrees, relative flags). */
export const teleportHasVelocity = (serv: SquidServer): boolean => {
  const packet = (serv.registry as ProtocolRegistry).protocol?.play?.toClient?.types?.packet_entity_teleport;
  return packet?.[1]?.some((field) => field.name === "dx") === true;
};

/** The 1.21.2+ `entity_teleport` for flying-squid's: no velocity, absolute, angles in degrees. */
export const teleportPacket = (old: OldTeleport): Record<string, unknown> => ({
  entityId: old.entityId,
  x: old.x,
  y: old.y,
  z: old.z,
  dx: 0,
  dy: 0,
  dz: 0,
  yaw: (old.yaw * 360) / 256,
  pitch: (old.pitch * 360) / 256,
  flags: 0,
  onGround: old.onGround === true,
});

/**
 * flying-squid writes `entity_teleport` (another entity moved more than a few blocks: a respawn, `/tp`,
 * `/changeworld`) in the pre-1.21.2 shape, which does not encode on 1.21.2+: every player near the mover was
 * disconnected. Rewrites it for this player's connection on those versions.
 */
export const repairEntityTeleport = (serv: SquidServer, player: SquidPlayer): void => {
  if (!teleportHasVelocity(serv)) return;
  const client = player._client;
  const write = client.write.bind(client);
  client.write = (name, params) =>
    write(name, name === "entity_teleport" ? teleportPacket(params as unknown as OldTeleport) : params);
};
