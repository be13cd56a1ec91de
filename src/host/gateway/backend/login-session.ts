import { forwardedAddress } from "../identity/game-profile.js";
import {
  modernForwardingData,
  modernForwardingVersion,
  requestedForwardingVersion,
  VELOCITY_CHANNEL,
} from "../identity/player-forwarding.js";
import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The backend's side of LOGIN.
 * - `compress` is followed on both legs (the client gets the same threshold).
 * - `success` gives the UUID the backend uses (the forwarded one). Under `velocity` forwarding, a backend
 *   that lets the player in without asking who it is has no forwarding set up: the player is refused.
 * - `encryption_begin` means the backend runs in online mode and cannot be proxied: refused.
 * - `login_plugin_request` on `velocity:player_info` is answered by the gateway under `velocity` forwarding
 *   (the signed profile); every other login plugin message (Forge's handshake) and cookies are relayed.
 */
export class BackendLoginSession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set([
    "compress",
    "success",
    "encryption_begin",
    "disconnect",
    "login_plugin_request",
  ]);
  /** Whether the gateway answered the backend's `velocity:player_info`. */
  #forwarded = false;

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    const { player } = this;
    switch (packet.name) {
      case "compress": {
        const threshold = packet.params.threshold as number;
        player.backend.enableCompression(threshold);
        // the client reads this frame uncompressed and compresses from the next one on
        player.client.write(packet.frame);
        player.client.enableCompression(threshold);
        return "consume";
      }
      case "login_plugin_request":
        return this.#pluginRequest(packet.params);
      case "success":
        if (player.login.forwarding === "velocity" && !this.#forwarded) {
          player.logger.warn(
            `the backend let ${player.username ?? "a player"} in without asking for Velocity forwarding: enable modern forwarding with the same secret on the backend (see docs/gateway.md)`,
          );
          player.disconnect("system.gateway.forwarding_failed");
          return "consume";
        }
        player.loginAnswered();
        player.uuid = packet.params.uuid as string;
        // versions without a configuration phase go straight to PLAY; the others wait for login_acknowledged
        if (!player.codec.has("login", "toServer", "login_acknowledged")) player.switchState("play");
        return "relay";
      case "encryption_begin":
        player.logger.warn(
          "the backend asked a joining player for encryption: it runs in online mode. Set online-mode=false in its server.properties (the gateway authenticates players).",
        );
        player.disconnect("system.gateway.backend_online_mode");
        return "consume";
      default:
        player.backendSaidGoodbye();
        return "relay";
    }
  }

  /** Answers `velocity:player_info` under modern forwarding with the version the backend asked for. */
  #pluginRequest(params: Record<string, unknown>): Verdict {
    const { player } = this;
    const { secret } = player.login;
    const profile = player.profile;
    if (player.login.forwarding !== "velocity" || params.channel !== VELOCITY_CHANNEL) return "relay";
    if (secret === undefined || profile === undefined) return "relay";
    const version = modernForwardingVersion(
      requestedForwardingVersion(params.data as Buffer),
      player.codec.protocolVersion,
    );
    const data = modernForwardingData(
      secret,
      version,
      forwardedAddress(player.client.socket.remoteAddress),
      profile,
    );
    player.backend.write(
      player.codec.encode("login", "toServer", "login_plugin_response", {
        messageId: params.messageId,
        data,
      }),
    );
    this.#forwarded = true;
    return "consume";
  }
}
