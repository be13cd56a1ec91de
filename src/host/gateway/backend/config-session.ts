import { dialogNbt } from "../dialog/dialog-nbt.js";
import { appendLauncherEntry, pointDialogTags } from "../dialog/dialog-registry-patch.js";
import type { DecodedPacket } from "../protocol/packet-codec.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import type { SessionHandler, Verdict } from "../session-handler.js";

/**
 * The backend's side of CONFIGURATION: registry data, tags, known packs, feature flags and mod payloads are
 * relayed as they came, never decoded, so modded registries reach the client exactly as the backend sent
 * them. Its `disconnect` is read, so that no second reason of the gateway's follows it. For a client that gets
 * System's window, the `minecraft:dialog` registry gets System's launcher appended (the backend's entries byte
 * for byte, keeping their indices) and the quick-actions and pause-menu tags point at it as well.
 */
export class BackendConfigSession implements SessionHandler {
  readonly reads: ReadonlySet<string> = new Set(["disconnect"]);
  readonly undecoded: ReadonlySet<string> = new Set(["registry_data", "tags"]);

  constructor(private readonly player: ProxiedPlayer) {}

  handle(packet: DecodedPacket): Verdict {
    const { player } = this;
    if (packet.name === "disconnect") {
      player.backendSaidGoodbye();
      return "relay";
    }
    const window = player.commands?.window;
    if (!player.windowed || window === undefined) return "relay";
    if (packet.name === "registry_data") {
      const patched = appendLauncherEntry(packet.frame, dialogNbt(window.launcher(player)));
      if (patched === undefined) return "relay";
      player.launcherIndex = patched.index;
      player.client.write(patched.frame);
      return "consume";
    }
    return patchTags(player, "configuration", packet.frame);
  }
}

/** Writes the backend's `tags` with the dialog tags pointing at the launcher too; relays them as they came if they do not decode. */
export const patchTags = (player: ProxiedPlayer, state: "configuration" | "play", frame: Buffer): Verdict => {
  if (player.launcherIndex === undefined) return "relay";
  const patched = pointDialogTags(player.codec, state, frame, player.launcherIndex);
  if (patched === undefined) {
    player.logger.warn("the backend's tags do not decode: relayed without System's quick action");
    return "relay";
  }
  player.client.write(patched);
  return "consume";
};
