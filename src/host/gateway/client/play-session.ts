import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The client's side of PLAY: `configuration_acknowledged` (the answer to the backend's
 * `start_configuration`) moves both sides back to CONFIGURATION; `settings` keep the player's language
 * current (versions without a configuration phase send them here only). All is relayed.
 */
export class ClientPlaySession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["settings", "configuration_acknowledged"]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    if (packet.name === "settings") this.player.locale = (packet.params.locale as string).toLowerCase();
    else this.player.switchState("configuration");
    return "relay";
  }
}
