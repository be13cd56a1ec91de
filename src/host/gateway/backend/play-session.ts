import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The backend's side of PLAY. Everything is relayed as it came, `start_configuration` included (the state
 * changes when the client acknowledges it); its `kick_disconnect` is read so that no second reason follows.
 */
export class BackendPlaySession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["kick_disconnect"]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(_packet: DecodedPacket): Verdict {
    this.player.backendSaidGoodbye();
    return "relay";
  }
}
