import { randomBytes } from "node:crypto";
import { offlineProfile } from "../identity/game-profile.js";
import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The client's side of LOGIN.
 * - `login_start`: offline, the player is who they say (their offline profile) and the login goes on to the
 *   backend at once. In online mode the gateway sends its own encryption request first.
 * - `encryption_begin` (online mode): the shared secret and verify token, decrypted with the gateway's key;
 *   the client leg is encrypted from here on, the session server is asked whether the name joined, and the
 *   login goes on to the backend with the profile it answered (Mojang's UUID, name and skin).
 * - `login_acknowledged` moves both sides to CONFIGURATION.
 * Login plugin responses (Forge's handshake) are relayed as they came.
 */
export class ClientLoginSession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["login_start", "encryption_begin", "login_acknowledged"]);
  #loginStart: DecodedPacket | undefined;
  #verifyToken: Buffer | undefined;

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    const { player } = this;
    switch (packet.name) {
      case "login_start":
        return this.#start(packet);
      case "encryption_begin":
        this.#encryptionResponse(packet.params);
        return "consume";
      default:
        player.switchState("configuration");
        return "relay";
    }
  }

  #start(packet: DecodedPacket): Verdict {
    const { player } = this;
    const username = packet.params.username as string;
    player.username = username;
    const authenticator = player.login.authenticator;
    if (authenticator === undefined) {
      player.loginToBackend(offlineProfile(username), packet);
      return "consume";
    }
    this.#loginStart = packet;
    this.#verifyToken = randomBytes(4);
    player.client.write(
      player.codec.encode("login", "toClient", "encryption_begin", {
        serverId: authenticator.serverId,
        publicKey: authenticator.publicKey,
        verifyToken: this.#verifyToken,
        shouldAuthenticate: true,
      }),
    );
    return "consume";
  }

  #encryptionResponse(params: Record<string, unknown>): void {
    const { player } = this;
    const authenticator = player.login.authenticator;
    const loginStart = this.#loginStart;
    if (authenticator === undefined || loginStart === undefined || this.#verifyToken === undefined) return;
    this.#loginStart = undefined;
    // 1.19–1.19.2 put the token in `crypto`; a client that signed it with its profile key instead is refused
    const encryptedToken = (params.verifyToken ??
      (params.crypto as { verifyToken?: unknown } | undefined)?.verifyToken) as Buffer | undefined;
    const token = encryptedToken === undefined ? undefined : authenticator.decrypt(encryptedToken);
    const secret = authenticator.decrypt(params.sharedSecret as Buffer);
    if (token === undefined || !token.equals(this.#verifyToken) || secret?.length !== 16) {
      player.logger.warn(`${player.username ?? "a player"} answered the encryption request wrongly`);
      player.disconnect("system.gateway.unverified");
      return;
    }
    player.client.enableEncryption(secret);
    const username = loginStart.params.username as string;
    authenticator
      .hasJoined(username, secret)
      .then((verdict) => {
        if (player.client.closed) return;
        if (verdict.kind === "verified") player.loginToBackend(verdict.profile, loginStart);
        else if (verdict.kind === "unverified") {
          player.logger.warn(`${username} could not be verified with the session server`);
          player.disconnect("system.gateway.unverified");
        } else {
          player.logger.warn(`the session server did not answer for ${username}: ${verdict.reason}`);
          player.disconnect("system.gateway.session_unavailable");
        }
      })
      .catch((error: unknown) => player.logger.error(`verifying ${username} failed`, error));
  }
}
