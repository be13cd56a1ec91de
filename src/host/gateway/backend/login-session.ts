import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The backend's side of LOGIN. Follows its `compress` on both legs (the client gets the same threshold),
 * notes the UUID of its `success`, and refuses a backend that asks for encryption: that backend runs in
 * online mode and cannot be proxied. Login plugin messages (Forge handshakes, Velocity's `player_info`) and
 * cookies are relayed as they came.
 */
export class BackendLoginSession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["compress", "success", "encryption_begin", "disconnect"]);

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
      case "success":
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
}
