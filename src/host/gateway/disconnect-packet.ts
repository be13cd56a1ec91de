import type { Languages } from "../../util/language.js";
import { componentToJson, componentToNbt } from "../shared/chat-component.js";
import type { PacketCodec, ProtocolState } from "./protocol/packet-codec.js";

/** The packet that ends a connection in each state where the gateway may have to end one. */
const DISCONNECT_PACKETS: Partial<Record<ProtocolState, string>> = {
  login: "disconnect",
  configuration: "disconnect",
  play: "kick_disconnect",
};

/**
 * The reason shown to a player the gateway disconnects: in the player's language once the client has told it
 * (`settings`), before that (during login) in English and Chinese both, as the gateway cannot know which.
 */
export const disconnectText = (
  languages: Languages,
  locale: string | undefined,
  key: string,
  args: readonly string[] = [],
): string => {
  if (locale !== undefined) return languages.format(locale, key, args);
  const english = languages.format("en_us", key, args);
  const chinese = languages.format("zh_cn", key, args);
  return english === chinese ? english : `${english}\n${chinese}`;
};

/**
 * The frame that disconnects a client in `state` with `text`, in the format of its version (a JSON string
 * during login and before 1.20.3, NBT after); undefined in states that have no disconnect packet.
 */
export const disconnectFrame = (
  codec: PacketCodec,
  state: ProtocolState,
  text: string,
): Buffer | undefined => {
  const name = DISCONNECT_PACKETS[state];
  if (name === undefined || !codec.has(state, "toClient", name)) return undefined;
  const component = { text };
  const reason =
    state !== "login" && codec.supports("chatPacketsUseNbtComponents")
      ? componentToNbt(component)
      : JSON.stringify(componentToJson(component, { legacyHover: false }));
  return codec.encode(state, "toClient", name, { reason });
};
