import { type ChatComponent, CLICK_VALUE_FIELD, literalText, type NbtTextOptions } from "./chat-component.js";

/**
 * A component's network NBT written straight to bytes: the same bytes as `componentToNbt` through the protocol's
 * serializer (a nameless compound; tags, names and order as there; strings as UTF-8 behind a u16 length), without
 * building the tag objects and without the serializer's size pass. A card's packet is most of what an answer
 * costs to send.
 */

const TAG_END = 0;
const TAG_BYTE = 1;
const TAG_STRING = 8;
const TAG_LIST = 9;
const TAG_COMPOUND = 10;
/** A string's length is a u16: a longer one is left to the serializer (as before). */
const MAX_STRING_BYTES = 0xffff;

class TooLong extends Error {}

/** A growing byte buffer with the few writes NBT needs. */
class Bytes {
  buffer = Buffer.allocUnsafe(2048);
  length = 0;

  #room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }

  byte(value: number): void {
    this.#room(1);
    this.buffer[this.length++] = value;
  }

  int(value: number): void {
    this.#room(4);
    this.buffer.writeInt32BE(value, this.length);
    this.length += 4;
  }

  varint(value: number): void {
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.byte((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    this.byte(rest);
  }

  /** UTF-8 behind its u16 byte length, as Buffer writes it (a lone surrogate becomes U+FFFD). */
  string(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.#room(2 + text.length * 3);
    const buffer = this.buffer;
    const start = this.length + 2;
    let at = start;
    // written here rather than by Buffer.write: a call into the runtime per short string costs more than the loop
    for (let index = 0; index < text.length; index++) {
      let code = text.charCodeAt(index);
      if (code < 0x80) {
        buffer[at++] = code;
        continue;
      }
      if (code < 0x800) {
        buffer[at++] = 0xc0 | (code >> 6);
        buffer[at++] = 0x80 | (code & 0x3f);
        continue;
      }
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
        if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          index++;
          buffer[at++] = 0xf0 | (code >> 18);
          buffer[at++] = 0x80 | ((code >> 12) & 0x3f);
          buffer[at++] = 0x80 | ((code >> 6) & 0x3f);
          buffer[at++] = 0x80 | (code & 0x3f);
          continue;
        }
        code = 0xfffd;
      }
      buffer[at++] = 0xe0 | (code >> 12);
      buffer[at++] = 0x80 | ((code >> 6) & 0x3f);
      buffer[at++] = 0x80 | (code & 0x3f);
    }
    const written = at - start;
    if (written > MAX_STRING_BYTES) throw new TooLong();
    buffer[this.length] = written >> 8;
    buffer[this.length + 1] = written & 0xff;
    this.length = at;
  }

  /** A named tag's header: its type and its name. */
  tag(type: number, name: string): void {
    this.byte(type);
    this.string(name);
  }

  named(name: string, value: string): void {
    this.tag(TAG_STRING, name);
    this.string(value);
  }

  flag(name: string, value: boolean | undefined): void {
    if (value === undefined) return;
    this.tag(TAG_BYTE, name);
    this.byte(value ? 1 : 0);
  }
}

/** The payload of one component's compound (its fields, then TAG_End), in `componentToNbt`'s order. */
const writeFields = (out: Bytes, component: ChatComponent, options: NbtTextOptions): void => {
  out.named("text", literalText(component.text));
  if (component.color !== undefined) out.named("color", component.color);
  out.flag("bold", component.bold);
  out.flag("italic", component.italic);
  out.flag("underlined", component.underlined);
  const click = component.clickEvent;
  const hover = component.hoverText;
  if (options.snakeCaseEvents === true) {
    if (click !== undefined) {
      out.tag(TAG_COMPOUND, "click_event");
      out.named("action", click.action);
      out.named(CLICK_VALUE_FIELD[click.action], click.value);
      out.byte(TAG_END);
    }
    if (hover !== undefined) {
      out.tag(TAG_COMPOUND, "hover_event");
      out.named("action", "show_text");
      out.tag(TAG_COMPOUND, "value");
      writeFields(out, hover, options);
      out.byte(TAG_END);
    }
  } else {
    if (click !== undefined) {
      out.tag(TAG_COMPOUND, "clickEvent");
      out.named("action", click.action);
      out.named("value", click.value);
      out.byte(TAG_END);
    }
    if (hover !== undefined) {
      out.tag(TAG_COMPOUND, "hoverEvent");
      out.named("action", "show_text");
      out.tag(TAG_COMPOUND, "contents");
      writeFields(out, hover, {});
      out.byte(TAG_END);
    }
  }
  const extra = component.extra;
  if (extra !== undefined && extra.length > 0) {
    out.tag(TAG_LIST, "extra");
    out.byte(TAG_COMPOUND);
    out.int(extra.length);
    for (const child of extra) writeFields(out, child, options);
  }
  out.byte(TAG_END);
};

/**
 * The whole `system_chat` packet of 1.20.3+ (packet id, the component as a nameless NBT compound, isActionBar),
 * as the serializer would write it; undefined when a text is too long for NBT (the serializer then decides).
 */
export const systemChatBytes = (
  packetId: number,
  component: ChatComponent,
  options: NbtTextOptions,
  isActionBar: boolean,
): Buffer | undefined => {
  const out = new Bytes();
  try {
    out.varint(packetId);
    out.byte(TAG_COMPOUND);
    writeFields(out, component, options);
    out.byte(isActionBar ? 1 : 0);
  } catch (error) {
    if (error instanceof TooLong) return undefined;
    throw error;
  }
  return out.buffer.subarray(0, out.length);
};

/** The parts of a version's protocol description (minecraft-data) that name a packet's id and fields. */
export interface ProtocolDescription {
  readonly protocol?: {
    readonly play?: {
      readonly toClient?: { readonly types?: Record<string, unknown> };
    };
  };
}

/**
 * The id of `system_chat` in this version's play state, when its fields are exactly `content` (anonymous NBT)
 * and `isActionBar`: the packet `systemChatBytes` writes. Undefined otherwise (an older or newer shape).
 */
export const systemChatPacketId = (registry: ProtocolDescription): number | undefined => {
  const types = registry.protocol?.play?.toClient?.types;
  const fields = types?.packet_system_chat as [string, { name: string; type: unknown }[]] | undefined;
  const shape = fields?.[1]?.map((field) => `${field.name}:${JSON.stringify(field.type)}`).join(",");
  if (shape !== 'content:"anonymousNbt",isActionBar:"bool"') return undefined;
  const packet = types?.packet as [string, { type?: [string, { mappings?: Record<string, string> }] }[]];
  const mappings = packet?.[1]?.[0]?.type?.[1]?.mappings ?? {};
  const entry = Object.entries(mappings).find(([, name]) => name === "system_chat");
  return entry === undefined ? undefined : Number.parseInt(entry[0], 16);
};
