import { type ChatComponent, componentToJson, componentToNbt } from "./chat-component.js";

/** How a protocol version wants chat written; derived from minecraft-data features, never from names. */
export interface ChatDialect {
  /** 1.20.3+: `system_chat.content` is an NBT compound. */
  readonly nbtComponents: boolean;
  /** 1.19+: server messages go through `system_chat`; before, through `chat`. */
  readonly systemChatPacket: boolean;
  /** 1.8–1.15: `hoverEvent.value` instead of `contents`. */
  readonly legacyHover: boolean;
  /** 1.17+: titles go through `set_title_*` packets; before, through `title` with an action. */
  readonly titlePackets: boolean;
  /** 1.21.5+: NBT text names its events `click_event`/`hover_event` (with `command`, `url`, `value`). */
  readonly snakeCaseEvents: boolean;
}

/** A packet ready for `client.write(name, params)`. */
export interface ChatPacket {
  readonly name:
    | "system_chat"
    | "chat"
    | "set_title_text"
    | "set_title_subtitle"
    | "set_title_time"
    | "title";
  readonly params: Record<string, unknown>;
}

const ZERO_UUID = "00000000-0000-0000-0000-000000000000";

/** Reads the dialect from a registry's feature table (flying-squid's `serv.supportFeature`). */
export const chatDialect = (
  supportFeature: (feature: string) => boolean,
  protocolVersion: number,
): ChatDialect => ({
  nbtComponents: supportFeature("chatPacketsUseNbtComponents"),
  systemChatPacket: supportFeature("signedChat"),
  // 735 is 1.16: the first protocol that reads hoverEvent.contents
  legacyHover: protocolVersion < 735,
  // 755 is 1.17: the first protocol with separate title packets
  titlePackets: protocolVersion >= 755,
  // 770 is 1.21.5: the first protocol whose text components read `click_event`
  snakeCaseEvents: protocolVersion >= 770,
});

/**
 * Builds the packet that shows a component as a system message: NBT `system_chat` on 1.20.3+, JSON
 * `system_chat` on 1.19–1.20.2, `chat` position 1 (system) on ≤1.18. Both `type` and `isActionBar` are set
 * because 1.19.0 reads the first and 1.19.1+ the second; the serializer ignores the other.
 */
export const chatPacket = (dialect: ChatDialect, component: ChatComponent): ChatPacket => {
  if (dialect.nbtComponents) {
    return {
      name: "system_chat",
      params: { content: componentToNbt(component, dialect), isActionBar: false },
    };
  }
  const json = JSON.stringify(componentToJson(component, { legacyHover: dialect.legacyHover }));
  if (dialect.systemChatPacket) {
    return { name: "system_chat", params: { content: json, type: 1, isActionBar: false } };
  }
  return { name: "chat", params: { message: json, position: 1, sender: ZERO_UUID } };
};

/** The packet that shows a component in the action bar: `system_chat` with `isActionBar` (1.19+), `chat` position 2 before. */
export const actionBarPacket = (dialect: ChatDialect, component: ChatComponent): ChatPacket => {
  if (dialect.nbtComponents)
    return {
      name: "system_chat",
      params: { content: componentToNbt(component, dialect), isActionBar: true },
    };
  const json = JSON.stringify(componentToJson(component, { legacyHover: dialect.legacyHover }));
  if (dialect.systemChatPacket)
    return { name: "system_chat", params: { content: json, type: 2, isActionBar: true } };
  return { name: "chat", params: { message: json, position: 2, sender: ZERO_UUID } };
};

/**
 * The packets that show a title and subtitle (times first: fade in 0.5 s, stay 3 s, fade out 1 s): `set_title_*`
 * on 1.17+ (NBT on 1.20.3+), the `title` packet with actions before. The subtitle shows with its title.
 */
export const titlePackets = (
  dialect: ChatDialect,
  title: ChatComponent,
  subtitle: ChatComponent,
): ChatPacket[] => {
  const times = { fadeIn: 10, stay: 60, fadeOut: 20 };
  const text = (component: ChatComponent): unknown =>
    dialect.nbtComponents
      ? componentToNbt(component, dialect)
      : JSON.stringify(componentToJson(component, { legacyHover: dialect.legacyHover }));
  if (dialect.titlePackets)
    return [
      { name: "set_title_time", params: times },
      { name: "set_title_subtitle", params: { text: text(subtitle) } },
      { name: "set_title_text", params: { text: text(title) } },
    ];
  return [
    { name: "title", params: { action: 3, ...times } },
    { name: "title", params: { action: 1, text: text(subtitle) } },
    { name: "title", params: { action: 0, text: text(title) } },
  ];
};
