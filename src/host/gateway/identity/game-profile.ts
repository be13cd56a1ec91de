import { offlineUuid } from "../../../util/offline-uuid.js";

/** One property of a player's profile (`textures` from Mojang: a skin, signed by the session server). */
export interface ProfileProperty {
  readonly name: string;
  readonly value: string;
  readonly signature?: string;
}

/** Who a joining player is, as the gateway tells the backend: the UUID (dashed), the name and the properties. */
export interface GameProfile {
  readonly id: string;
  readonly name: string;
  readonly properties: readonly ProfileProperty[];
}

/** The profile an offline-mode server gives a name: the offline UUID and no properties (no skin). */
export const offlineProfile = (name: string): GameProfile => ({
  id: offlineUuid(name),
  name,
  properties: [],
});

/** A UUID without its dashes (`069a79f444e94726a5befca90e38aaf5`), as BungeeCord forwarding and Mojang write it. */
export const undashedUuid = (uuid: string): string => uuid.replaceAll("-", "").toLowerCase();

/** A 32-digit UUID with its dashes put back; undefined when `text` is not one. */
export const dashedUuid = (text: string): string | undefined => {
  const hex = text.replaceAll("-", "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** The 16 bytes of a UUID (most significant first), as the protocol writes one. */
export const uuidBytes = (uuid: string): Buffer => Buffer.from(undashedUuid(uuid), "hex");

/** The client's address as a forwarding payload names it: an IPv4-mapped IPv6 address as plain IPv4. */
export const forwardedAddress = (remoteAddress: string | undefined): string => {
  const address = remoteAddress ?? "127.0.0.1";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address.replace(/%.*$/, "");
};
