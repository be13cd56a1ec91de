import type nbt from "prismarine-nbt";
import { readVarInt, varIntBuffer } from "../protocol/minecraft-protocol.js";
import type { PacketCodec } from "../protocol/packet-codec.js";
import { anonymousNbt } from "./dialog-packets.js";

/** The registry the client's dialogs are synchronised in (`RegistryDataLoader.SYNCHRONIZED_REGISTRIES`). */
export const DIALOG_REGISTRY = "minecraft:dialog";
/** System's launcher entry in that registry. */
export const LAUNCHER_KEY = "system:assistant";
/** The tags the quick-actions key (G) and the pause menu open (`DialogTags`). */
export const DIALOG_TAGS = ["minecraft:quick_actions", "minecraft:pause_screen_additions"] as const;

/** Reads a protocol string (VarInt byte length, UTF-8) at `offset`. */
const readString = (frame: Buffer, offset: number): { value: string; end: number } => {
  const length = readVarInt(frame, offset);
  const start = offset + length.size;
  if (start + length.value > frame.length) throw new RangeError("string past the frame");
  return { value: frame.toString("utf8", start, start + length.value), end: start + length.value };
};

const stringBuffer = (value: string): Buffer => {
  const bytes = Buffer.from(value, "utf8");
  return Buffer.concat([varIntBuffer(bytes.length), bytes]);
};

/**
 * Appends System's launcher to the backend's `registry_data` of `minecraft:dialog`, without decoding the backend's
 * entries: packet id and registry id as they came, the entry count plus one, the backend's entries byte for byte,
 * then `system:assistant` with its dialog as NBT. Entries keep their indices; ours is the last (`index`).
 * Undefined for any other registry, or a frame that does not read as a registry_data.
 */
export const appendLauncherEntry = (
  frame: Buffer,
  launcher: nbt.Compound,
): { readonly frame: Buffer; readonly index: number } | undefined => {
  try {
    const idEnd = readVarInt(frame, 0).size;
    const registry = readString(frame, idEnd);
    if (registry.value !== DIALOG_REGISTRY) return undefined;
    const count = readVarInt(frame, registry.end);
    const entries = frame.subarray(registry.end + count.size);
    return {
      frame: Buffer.concat([
        frame.subarray(0, registry.end),
        varIntBuffer(count.value + 1),
        entries,
        stringBuffer(LAUNCHER_KEY),
        Buffer.of(1),
        anonymousNbt(launcher),
      ]),
      index: count.value,
    };
  } catch {
    return undefined;
  }
};

interface TagGroup {
  tagType: string;
  tags: { tagName: string; entries: number[] }[];
}

/**
 * Points the quick-actions and pause-menu tags at the launcher (`index` in the dialog registry) in a `tags`
 * packet (configuration, or play after a backend's reload): added to the backend's own entries of those tags,
 * which keep their order, or as new tags. Every other registry's tags are re-encoded as they were (identifiers
 * and indices only, nothing modded can hide there). Undefined when the frame does not decode whole.
 */
export const pointDialogTags = (
  codec: PacketCodec,
  state: "configuration" | "play",
  frame: Buffer,
  index: number,
): Buffer | undefined => {
  const packet = codec.decode(state, "toClient", frame);
  if (packet === undefined) return undefined;
  const groups = packet.params.tags as TagGroup[];
  let dialogs = groups.find((group) => group.tagType === DIALOG_REGISTRY);
  if (dialogs === undefined) {
    dialogs = { tagType: DIALOG_REGISTRY, tags: [] };
    groups.push(dialogs);
  }
  for (const name of DIALOG_TAGS) {
    const tag = dialogs.tags.find((found) => found.tagName === name);
    if (tag === undefined) dialogs.tags.push({ tagName: name, entries: [index] });
    else if (!tag.entries.includes(index)) tag.entries.push(index);
  }
  return codec.encode(state, "toClient", "tags", { tags: groups });
};
