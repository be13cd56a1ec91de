import { isSystemClick } from "../dialog/dialog-packets.js";
import { forwardsChatSessions } from "../identity/login-settings.js";
import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The client's side of PLAY.
 * - `chat_command` (unsigned) of System's own (`/system …`) is consumed and run at the gateway; it never
 *   reaches the backend. Signed commands and chat are not even read. Versions whose unsigned commands still
 *   carry chat acknowledgements (before the separate `chat_command_signed`) are relayed, never consumed.
 * - `chat_session_update` is dropped unless the player was authenticated at the gateway and forwarded:
 *   otherwise the backend knows the player by another UUID than the one Mojang signed the key for, and would
 *   reject it.
 * - `configuration_acknowledged` (the answer to `start_configuration`) moves both sides to CONFIGURATION.
 * - `settings` keep the player's language current.
 * - `tab_complete` of one of System's lines is answered by the gateway with the assistant's completions; the
 *   rest (the backend's commands, player names) is relayed.
 * - `custom_click_action` (1.21.6+, never decoded by the library, which mis-reads it) whose id is System's
 *   (`system:*`) goes to the window and never reaches the backend; a backend's or a plugin's is relayed as it came.
 */
export class ClientPlaySession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set([
    "settings",
    "configuration_acknowledged",
    "chat_command",
    "chat_session_update",
    "tab_complete",
  ]);
  readonly undecoded: ReadonlySet<string> = new Set(["custom_click_action"]);

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
        return forwardsChatSessions(player.login) ? "relay" : "consume";
      case "tab_complete":
        return this.#complete(packet.params.transactionId as number, packet.params.text as string);
      case "custom_click_action": {
        const window = player.commands?.window;
        if (!player.windowed || window === undefined || !isSystemClick(packet.frame)) return "relay";
        window.click(player, packet.frame);
        return "consume";
      }
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

  /** Answers a completion request for one of System's lines (replacing its last word); relays any other. */
  #complete(transactionId: number, text: string): Verdict {
    const { player } = this;
    const commands = player.commands;
    if (commands?.complete === undefined || !text.startsWith("/")) return "relay";
    const line = text.slice(1);
    // the base itself is completed by the client from its tree; only what follows a base of System's is ours
    if (!/\s/u.test(line) || !commands.owns(line)) return "relay";
    const start = text.lastIndexOf(" ") + 1;
    commands
      .complete(player, line)
      .then((matches) =>
        player.send({
          name: "tab_complete",
          params: {
            transactionId,
            start,
            length: text.length - start,
            matches: matches.map((match) => ({ match })),
          },
        }),
      )
      .catch((error: unknown) => player.logger.error(`completing /${line} failed`, error));
    return "consume";
  }
}
