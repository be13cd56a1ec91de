import { createHmac } from "node:crypto";
import { varIntBuffer } from "../protocol/minecraft-protocol.js";
import { type GameProfile, type ProfileProperty, undashedUuid, uuidBytes } from "./game-profile.js";

/**
 * How the backend learns who joined (Velocity's `PlayerInfoForwarding`):
 * - `none`: it does not; it gives each name its offline UUID.
 * - `bungeecord`: the handshake's server address carries `host\0ip\0uuid\0properties` (Spigot/Paper
 *   `settings.bungeecord`, unauthenticated).
 * - `bungeeguard`: the same plus a `bungeeguard-token` property holding the shared secret.
 * - `velocity`: modern forwarding; the backend asks on the login plugin channel `velocity:player_info` and
 *   the gateway answers with the profile signed by HMAC-SHA256 over the shared secret.
 */
export type ForwardingMode = "none" | "bungeecord" | "bungeeguard" | "velocity";

/** The login plugin channel on which a modern-forwarding backend asks who joined. */
export const VELOCITY_CHANNEL = "velocity:player_info";

/** Modern forwarding versions: the profile alone (1), and the same payload for 1.19.3+ lazy sessions (4). */
const MODERN_DEFAULT = 1;
const MODERN_LAZY_SESSION = 4;
/** Protocol 761 is 1.19.3, from which chat sessions no longer ride in the forwarding payload. */
const PROTOCOL_1_19_3 = 761;

/** The property BungeeGuard reads its token from. */
const BUNGEEGUARD_TOKEN = "bungeeguard-token";
/** BungeeCord's properties for a client whose handshake carried a mod loader's marker (`\0FML3\0`, `\0FORGE`). */
const FORGE_CLIENT = "forgeClient";
const FORGE_EXTRA_DATA = "extraData";

/**
 * The handshake server address of legacy forwarding: `host\0playerAddress\0undashedUuid\0propertiesJson`.
 * Whatever followed a NUL in the client's own address (Forge's marker) cannot stay there, as the backend
 * splits on NUL: BungeeCord's rule moves it into a `forgeClient` property and an `extraData` property with
 * each NUL written as `\u0001`, which Forge-side forwarding mods put back. `token` (BungeeGuard) is appended
 * as the `bungeeguard-token` property.
 */
export const legacyForwardingHost = (
  clientHost: string,
  address: string,
  profile: GameProfile,
  token?: string,
): string => {
  const marker = clientHost.indexOf("\0");
  const host = marker < 0 ? clientHost : clientHost.slice(0, marker);
  const properties: ProfileProperty[] = [...profile.properties];
  if (marker >= 0)
    properties.push(
      { name: FORGE_CLIENT, value: "true" },
      { name: FORGE_EXTRA_DATA, value: clientHost.slice(marker).replaceAll("\0", "\u0001"), signature: "" },
    );
  if (token !== undefined) properties.push({ name: BUNGEEGUARD_TOKEN, value: token, signature: "" });
  const json = JSON.stringify(
    properties.map(({ name, value, signature }) =>
      signature === undefined ? { name, value } : { name, value, signature },
    ),
  );
  return [host, address, undashedUuid(profile.id), json].join("\0");
};

/** The modern forwarding version answered to a backend that asked for `requested` on `protocolVersion`. */
export const modernForwardingVersion = (requested: number, protocolVersion: number): number =>
  requested >= MODERN_LAZY_SESSION && protocolVersion >= PROTOCOL_1_19_3
    ? MODERN_LAZY_SESSION
    : MODERN_DEFAULT;

/** The version a `velocity:player_info` request asks for: its single data byte, or the default without one. */
export const requestedForwardingVersion = (data: Buffer): number =>
  data.length === 1 ? (data[0] ?? MODERN_DEFAULT) : MODERN_DEFAULT;

/**
 * The answer to `velocity:player_info`: `HMAC-SHA256(secret, payload) ‖ payload`, where the payload is the
 * version (VarInt), the player's address, UUID, name and properties, written as the protocol writes strings
 * (VarInt length, UTF-8), UUIDs (16 bytes) and properties (count, then name, value, has-signature, signature).
 */
export const modernForwardingData = (
  secret: Buffer,
  version: number,
  address: string,
  profile: GameProfile,
): Buffer => {
  const parts: Buffer[] = [
    varIntBuffer(version),
    protocolString(address),
    uuidBytes(profile.id),
    protocolString(profile.name),
    varIntBuffer(profile.properties.length),
  ];
  for (const property of profile.properties) {
    const signed = property.signature !== undefined && property.signature !== "";
    parts.push(protocolString(property.name), protocolString(property.value), Buffer.of(signed ? 1 : 0));
    if (signed) parts.push(protocolString(property.signature ?? ""));
  }
  const payload = Buffer.concat(parts);
  return Buffer.concat([createHmac("sha256", secret).update(payload).digest(), payload]);
};

const protocolString = (text: string): Buffer => {
  const bytes = Buffer.from(text, "utf8");
  return Buffer.concat([varIntBuffer(bytes.length), bytes]);
};
