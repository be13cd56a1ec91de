import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The client's side of PLAY.
 * - `chat_command` (unsigned) of System's own (`/system …`) is consumed and run at the gateway; it never
 *   reaches the backend. Signed commands and chat are not even read. Versions whose unsigned commands still
 *   carry chat acknowledgements (before the separate `chat_command_signed`) are relayed, never consumed.
 * - `chat_session_update` is dropped: without forwarding, the backend sees an offline UUID and would reject
 *   the profile key signed for the online one.
 * - `configuration_acknowledged` (the answer to `start_configuration`) moves both sides to CONFIGURATION.
 * - `settings` keep the player's language current.
 */
export class ClientPlaySession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set([
    "settings",
    "configuration_acknowledged",
    "chat_command",
    "chat_session_update",
  ]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    const { player } = this;
    switch (packet.name) {
      case "settings":
        player.locale = (packet.params.locale as string).toLowerCase();
        return "relay";
      case "configuration_acknowledged":
        player.switchState("configuration");
        return "relay";
      case "chat_session_update":
        return "consume";
      default: {
        const line = packet.params.command as string;
        const commands = player.commands;
        if (commands === undefined || !player.codec.has("play", "toServer", "chat_command_signed"))
          return "relay";
        if (!commands.owns(line)) return "relay";
        commands.run(player, line);
        return "consume";
      }
    }
  }
}
