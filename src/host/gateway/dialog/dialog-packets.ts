import nbt from "prismarine-nbt";
import type { Dialog } from "../../shared/dialog.js";
import { readVarInt, varIntBuffer } from "../protocol/minecraft-protocol.js";
import type { PacketCodec, ProtocolState } from "../protocol/packet-codec.js";
import { dialogNbt } from "./dialog-nbt.js";

/**
 * The dialog packets of 1.21.6+ written and read by hand, where minecraft-protocol 1.68 / minecraft-data 3.119 are
 * wrong: the play `show_dialog` writer skips the inline holder marker (leaving a random byte), and
 * `custom_click_action` is described as an optional NBT while the wire has a VarInt byte length before the NBT.
 * Packet ids come from minecraft-data's per-version table.
 */

/** What vanilla reads of a click payload at most (`ByteBufCodecs.lengthPrefixed(65536)`). */
export const CLICK_PAYLOAD_LIMIT = 65_536;

/** Whether the client's version draws server dialogs (1.21.6+: its table has `show_dialog` in PLAY). */
export const showsDialogs = (codec: PacketCodec): boolean => codec.has("play", "toClient", "show_dialog");

/** The unnamed network NBT of a compound (tag type, no name, then the payload). */
export const anonymousNbt = (value: nbt.Compound): Buffer =>
  nbt.protos.big.createPacketBuffer("anonymousNbt", value) as Buffer;

const packetId = (
  codec: PacketCodec,
  state: ProtocolState,
  direction: "toClient" | "toServer",
  name: string,
) => {
  const id = codec.idOf(state, direction, name);
  if (id === undefined) throw new Error(`protocol ${codec.protocolVersion} has no ${state} ${name}`);
  return varIntBuffer(id);
};

/**
 * `show_dialog` with the dialog inline: in PLAY the holder's VarInt 0 ("not a registry entry") then the unnamed
 * NBT; in CONFIGURATION the NBT alone (no registries exist yet).
 */
export const showDialogFrame = (codec: PacketCodec, dialog: Dialog, state: ProtocolState = "play"): Buffer =>
  Buffer.concat([
    packetId(codec, state, "toClient", "show_dialog"),
    ...(state === "play" ? [Buffer.of(0)] : []),
    anonymousNbt(dialogNbt(dialog)),
  ]);

/** `clear_dialog`: closes the open dialog. */
export const clearDialogFrame = (codec: PacketCodec, state: ProtocolState = "play"): Buffer =>
  packetId(codec, state, "toClient", "clear_dialog");

/** Whether a `custom_click_action` frame names one of System's ids (`system:…`), read without its payload. */
export const isSystemClick = (frame: Buffer): boolean => {
  try {
    let offset = readVarInt(frame, 0).size;
    const length = readVarInt(frame, offset);
    offset += length.size;
    return frame
      .toString("utf8", offset, Math.min(frame.length, offset + length.value))
      .startsWith("system:");
  } catch {
    return false;
  }
};

/** A click as the client sent it: the action's id and its payload (undefined for none), as NBT. */
export interface CustomClick {
  readonly id: string;
  readonly payload: nbt.Tags[nbt.TagType] | undefined;
  /** The payload's byte length on the wire. */
  readonly payloadBytes: number;
}

/**
 * Reads `custom_click_action` by hand: packet id, the id string, the payload's VarInt byte length (at most
 * 65,536), then that many bytes of unnamed NBT (a lone TAG_End for none). Undefined for a frame that does not
 * read as exactly that: too long, cut short, bytes left over, NBT that does not parse.
 */
export const readCustomClick = (frame: Buffer): CustomClick | undefined => {
  try {
    let offset = readVarInt(frame, 0).size;
    const idLength = readVarInt(frame, offset);
    offset += idLength.size;
    if (idLength.value < 0 || idLength.value > 32_767 * 3 || offset + idLength.value > frame.length)
      return undefined;
    const id = frame.toString("utf8", offset, offset + idLength.value);
    offset += idLength.value;
    const length = readVarInt(frame, offset);
    offset += length.size;
    if (length.value < 1 || length.value > CLICK_PAYLOAD_LIMIT || offset + length.value !== frame.length)
      return undefined;
    const bytes = frame.subarray(offset);
    if (bytes.length === 1 && bytes[0] === 0) return { id, payload: undefined, payloadBytes: 1 };
    const parsed = nbt.protos.big.parsePacketBuffer("anonymousNbt", bytes) as {
      data: nbt.Tags[nbt.TagType];
      metadata: { size: number };
    };
    if (parsed.metadata.size !== bytes.length) return undefined;
    return { id, payload: parsed.data, payloadBytes: bytes.length };
  } catch {
    return undefined;
  }
};

/** Writes `custom_click_action` as a 1.21.6+ client does (what a plugin's dialog or a test client sends). */
export const customClickFrame = (
  codec: PacketCodec,
  id: string,
  payload: nbt.Compound | undefined,
  state: ProtocolState = "play",
): Buffer => {
  const name = Buffer.from(id, "utf8");
  const body = payload === undefined ? Buffer.of(0) : anonymousNbt(payload);
  return Buffer.concat([
    packetId(codec, state, "toServer", "custom_click_action"),
    varIntBuffer(name.length),
    name,
    varIntBuffer(body.length),
    body,
  ]);
};

/**
 * Reads a play `show_dialog` by hand: the holder (a registry id + 1, or 0 then the inline dialog as NBT).
 * For tests and logs; the gateway relays the backend's own dialogs without reading them.
 */
export const readShowDialog = (
  frame: Buffer,
): { readonly registryId: number } | { readonly dialog: nbt.Compound } | undefined => {
  try {
    let offset = readVarInt(frame, 0).size;
    const holder = readVarInt(frame, offset);
    offset += holder.size;
    if (holder.value > 0) return offset === frame.length ? { registryId: holder.value - 1 } : undefined;
    const parsed = nbt.protos.big.parsePacketBuffer("anonymousNbt", frame.subarray(offset)) as {
      data: nbt.Compound;
      metadata: { size: number };
    };
    return offset + parsed.metadata.size === frame.length ? { dialog: parsed.data } : undefined;
  } catch {
    return undefined;
  }
};
