import type { DeclareCommandsPacket } from "../shared/declare-commands.js";
import { readVarInt, varIntBuffer } from "./protocol/minecraft-protocol.js";
import type { PacketCodec } from "./protocol/packet-codec.js";

/** Node flags: the low two bits are the node type (0 root), 0x08 marks a redirect. */
const NODE_TYPE_MASK = 0x03;
const HAS_REDIRECT = 0x08;
/** A root node's flags (type 0, nothing else). */
const ROOT_FLAGS = 0x00;

/**
 * The bytes of System's own nodes (every node of `extra` but its root) as this version writes them, renumbered
 * to follow `offset` existing nodes; and the new indices of its root's children.
 */
const systemNodes = (
  codec: PacketCodec,
  extra: DeclareCommandsPacket,
  offset: number,
): { bytes: Buffer; rootChildren: number[] } => {
  const renumber = (index: number): number => offset + index - 1;
  const [root, ...rest] = extra.nodes;
  const nodes = rest.map((node) => ({
    ...node,
    children: node.children.map(renumber),
    ...(node.redirectNode === undefined ? {} : { redirectNode: renumber(node.redirectNode) }),
  }));
  // encode a tree of an empty root plus System's nodes, then keep only the nodes' bytes
  const emptyRoot = { flags: { ...root!.flags, has_command: 0 }, children: [] };
  const frame = codec.encode("play", "toClient", "declare_commands", {
    nodes: [emptyRoot, ...nodes],
    rootIndex: 0,
  });
  const id = readVarInt(frame, 0);
  const count = readVarInt(frame, id.size);
  const start = id.size + count.size + 2; // the empty root: flags byte and a zero child count
  return {
    bytes: frame.subarray(start, frame.length - 1),
    rootChildren: (root?.children ?? []).map(renumber),
  };
};

/**
 * Puts System's commands into the backend's `declare_commands` frame without decoding the backend's nodes
 * (modded argument types included): node 0, the root, is rewritten with System's top-level nodes among its
 * children, every other node is copied as bytes, and System's nodes are appended after them. Undefined when
 * the frame is not laid out as vanilla writes it (root at 0, the root index as the last byte): the caller
 * relays it unchanged.
 */
export const patchCommandTree = (
  codec: PacketCodec,
  frame: Buffer,
  extra: DeclareCommandsPacket,
): Buffer | undefined => {
  try {
    if (frame[frame.length - 1] !== 0x00) return undefined;
    const id = readVarInt(frame, 0);
    const count = readVarInt(frame, id.size);
    let offset = id.size + count.size;
    const flags = frame[offset];
    if (flags === undefined || (flags & NODE_TYPE_MASK) !== ROOT_FLAGS) return undefined;
    offset += 1;
    const childCount = readVarInt(frame, offset);
    offset += childCount.size;
    const children: number[] = [];
    for (let index = 0; index < childCount.value; index++) {
      const child = readVarInt(frame, offset);
      children.push(child.value);
      offset += child.size;
    }
    const redirect =
      (flags & HAS_REDIRECT) === 0
        ? Buffer.alloc(0)
        : frame.subarray(offset, offset + readVarInt(frame, offset).size);
    offset += redirect.length;
    if (offset > frame.length - 1) return undefined;
    const others = frame.subarray(offset, frame.length - 1);
    const system = systemNodes(codec, extra, count.value);
    const rootChildren = [...children, ...system.rootChildren];
    return Buffer.concat([
      frame.subarray(0, id.size),
      varIntBuffer(count.value + extra.nodes.length - 1),
      Buffer.from([flags]),
      varIntBuffer(rootChildren.length),
      ...rootChildren.map(varIntBuffer),
      redirect,
      others,
      system.bytes,
      Buffer.from([0x00]),
    ]);
  } catch {
    return undefined;
  }
};

/** A whole `declare_commands` frame of System's nodes alone, for a backend that sends no tree. */
export const commandTreeFrame = (codec: PacketCodec, tree: DeclareCommandsPacket): Buffer =>
  codec.encode("play", "toClient", "declare_commands", { nodes: tree.nodes, rootIndex: tree.rootIndex });
