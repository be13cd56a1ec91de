import { commandTreeFrame, patchCommandTree } from "../command-tree-patch.js";
import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";
import { patchTags } from "./config-session.js";

/**
 * The backend's side of PLAY. Everything is relayed as it came, `start_configuration` included (the state
 * changes when the client acknowledges it), except the command tree: System's nodes are put into each
 * `declare_commands` without decoding the backend's, and a tree of System's alone follows `login` so that a
 * backend that sends none still gives the player `/system`. `kick_disconnect` is read so that no second
 * reason follows it. A `tags` after a backend's reload points the dialog tags at System's launcher again.
 */
export class BackendPlaySession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["kick_disconnect"]);
  readonly undecoded: ReadonlySet<string> = new Set(["login", "declare_commands", "tags"]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    const { player } = this;
    if (packet.name === "kick_disconnect") {
      player.backendSaidGoodbye();
      return "relay";
    }
    if (packet.name === "tags") return patchTags(player, "play", packet.frame);
    if (packet.name === "login") player.commands?.join?.(player);
    else player.backendCommandTree = packet.frame;
    const tree = player.commands?.tree(player);
    if (tree === undefined) return "relay";
    if (packet.name === "login") {
      player.client.write(packet.frame);
      player.client.write(commandTreeFrame(player.codec, tree));
      return "consume";
    }
    const patched = patchCommandTree(player.codec, packet.frame, tree);
    if (patched === undefined) {
      player.logger.warn(
        "the backend's command tree is not laid out as vanilla writes it: relayed without /system",
      );
      return "relay";
    }
    player.client.write(patched);
    return "consume";
  }
}
