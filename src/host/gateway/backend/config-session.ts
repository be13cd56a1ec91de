import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The backend's side of CONFIGURATION: registry data, tags, known packs, feature flags and mod payloads are
 * relayed as they came, never decoded, so modded registries reach the client exactly as the backend sent
 * them. Only its `disconnect` is read, so that no second reason of the gateway's follows it.
 */
export class BackendConfigSession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["disconnect"]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(_packet: DecodedPacket): Verdict {
    this.player.backendSaidGoodbye();
    return "relay";
  }
}
