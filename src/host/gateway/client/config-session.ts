import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The client's side of CONFIGURATION: its `settings` tell the gateway the player's language;
 * `finish_configuration` (the client's acknowledgement) moves both sides to PLAY. All is relayed.
 */
export class ClientConfigSession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["settings", "finish_configuration"]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    if (packet.name === "settings") this.player.locale = (packet.params.locale as string).toLowerCase();
    else this.player.switchState("play");
    return "relay";
  }
}
