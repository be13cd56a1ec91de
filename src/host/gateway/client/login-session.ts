import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The client's side of LOGIN (offline mode at the gateway): `login_start` is relayed as it came after noting
 * the name; `login_acknowledged` moves both sides to CONFIGURATION. Login plugin responses are relayed.
 */
export class ClientLoginSession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["login_start", "login_acknowledged"]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    if (packet.name === "login_start") this.player.username = packet.params.username as string;
    else this.player.switchState("configuration");
    return "relay";
  }
}
