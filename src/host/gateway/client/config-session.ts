import { isSystemClick } from "../dialog/dialog-packets.js";
import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The client's side of CONFIGURATION: its `settings` tell the gateway the player's language;
 * `finish_configuration` (the client's acknowledgement) moves both sides to PLAY. All is relayed, except a click
 * of System's own (`system:*`, a window left open across a re-configuration): the window lives in PLAY, and the
 * backend never gets System's clicks.
 */
export class ClientConfigSession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["settings", "finish_configuration"]);
  readonly undecoded: ReadonlySet<string> = new Set(["custom_click_action"]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    if (packet.name === "custom_click_action")
      return this.player.windowed && isSystemClick(packet.frame) ? "consume" : "relay";
    if (packet.name === "settings") this.player.locale = (packet.params.locale as string).toLowerCase();
    else this.player.switchState("play");
    return "relay";
  }
}
