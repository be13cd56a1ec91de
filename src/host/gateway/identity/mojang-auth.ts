import { constants, createHash, generateKeyPairSync, type KeyObject, privateDecrypt } from "node:crypto";
import { z } from "zod";
import { dashedUuid, type GameProfile } from "./game-profile.js";

/** Mojang's session server, which `hasJoined` asks; a test points the gateway at a scripted one. */
export const MOJANG_SESSION_SERVER = "https://sessionserver.mojang.com";

/** How long the session server has to answer one `hasJoined`. */
const SESSION_TIMEOUT_MILLIS = 10_000;

/** What `hasJoined` concluded: the player's profile, not joined (a client that did not log in), or no answer. */
export type JoinVerdict =
  | { readonly kind: "verified"; readonly profile: GameProfile }
  | { readonly kind: "unverified" }
  | { readonly kind: "unavailable"; readonly reason: string };

const sessionProfileSchema = z.object({
  id: z.string(),
  name: z.string().min(1).max(16),
  properties: z
    .array(z.object({ name: z.string(), value: z.string(), signature: z.string().optional() }))
    .default([]),
});

/**
 * Mojang authentication at the gateway, as a vanilla online-mode server does it: one RSA key pair per
 * gateway; the client encrypts a shared secret with its public key and tells the session server it joins
 * the server whose hash is `sha1(serverId ‖ secret ‖ publicKey)`; the gateway asks the session server
 * whether that name has joined that hash (`hasJoined`), which answers with the profile (UUID, name, skin).
 */
export class MojangAuthenticator {
  /** The public key as the encryption request carries it (X.509 SubjectPublicKeyInfo, DER). */
  readonly publicKey: Buffer;
  /** The server id of the encryption request: empty, as vanilla sends it. */
  readonly serverId = "";
  readonly #privateKey: KeyObject;
  readonly #sessionServer: string;

  constructor(sessionServer: string = MOJANG_SESSION_SERVER) {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    this.publicKey = publicKey.export({ type: "spki", format: "der" });
    this.#privateKey = privateKey;
    this.#sessionServer = sessionServer.replace(/\/+$/, "");
  }

  /**
   * Decrypts what the client encrypted with the public key (RSA, PKCS#1 v1.5 padding); undefined when it is
   * not a well-padded block. Node 20 refuses PKCS#1 padding for private decryption, so the raw block is
   * decrypted and its padding (`00 02 <nonzero random> 00 <message>`) removed here.
   */
  decrypt(data: Buffer): Buffer | undefined {
    let block: Buffer;
    try {
      block = privateDecrypt({ key: this.#privateKey, padding: constants.RSA_NO_PADDING }, data);
    } catch {
      return undefined;
    }
    if (block[0] !== 0 || block[1] !== 2) return undefined;
    const end = block.indexOf(0, 2);
    // at least eight bytes of padding
    if (end < 10) return undefined;
    return block.subarray(end + 1);
  }

  /** The server hash the client and the session server agree on (Java's signed hex of the SHA-1). */
  serverHash(sharedSecret: Buffer): string {
    return minecraftHexDigest(
      createHash("sha1").update(this.serverId).update(sharedSecret).update(this.publicKey).digest(),
    );
  }

  /** Asks the session server whether `username` joined with `sharedSecret`. */
  async hasJoined(username: string, sharedSecret: Buffer): Promise<JoinVerdict> {
    const url = `${this.#sessionServer}/session/minecraft/hasJoined?username=${encodeURIComponent(username)}&serverId=${this.serverHash(sharedSecret)}`;
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(SESSION_TIMEOUT_MILLIS) });
    } catch (error) {
      return { kind: "unavailable", reason: error instanceof Error ? error.message : String(error) };
    }
    if (response.status === 204) return { kind: "unverified" };
    if (response.status !== 200) return { kind: "unavailable", reason: `HTTP ${response.status}` };
    const parsed = sessionProfileSchema.safeParse(await response.json().catch(() => undefined));
    const id = parsed.success ? dashedUuid(parsed.data.id) : undefined;
    if (!parsed.success || id === undefined) return { kind: "unavailable", reason: "an unreadable profile" };
    const properties = parsed.data.properties.map(({ name, value, signature }) =>
      signature === undefined ? { name, value } : { name, value, signature },
    );
    return { kind: "verified", profile: { id, name: parsed.data.name, properties } };
  }
}

/** A digest as Java's `new BigInteger(digest).toString(16)`: two's complement, minus sign, no leading zeros. */
export const minecraftHexDigest = (digest: Buffer): string => {
  const negative = ((digest[0] ?? 0) & 0x80) !== 0;
  let value = BigInt(`0x${digest.toString("hex")}`);
  if (negative) value = (1n << BigInt(digest.length * 8)) - value;
  return `${negative ? "-" : ""}${value.toString(16)}`;
};
