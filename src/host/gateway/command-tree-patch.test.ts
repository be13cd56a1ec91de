import { describe, expect, it } from "vitest";
import type { CommandPacketNode, DeclareCommandsPacket } from "../shared/declare-commands.js";
import { patchCommandTree } from "./command-tree-patch.js";
import { varIntBuffer } from "./protocol/minecraft-protocol.js";
import { PacketCodec } from "./protocol/packet-codec.js";

const codec = PacketCodec.forVersion("1.21.4")!;

const flags = (type: 0 | 1 | 2, command: 0 | 1 = 0, suggestions: 0 | 1 = 0): CommandPacketNode["flags"] => ({
  unused: 0,
  has_custom_suggestions: suggestions,
  has_redirect_node: 0,
  has_command: command,
  command_node_type: type,
});

/** A backend's tree: `/tp <target>` and `/say <message>` (a signed argument type the relay never touches). */
const BACKEND: DeclareCommandsPacket = {
  nodes: [
    { flags: flags(0), children: [1, 2] },
    { flags: flags(1), children: [3], extraNodeData: { name: "tp" } },
    { flags: flags(1), children: [4], extraNodeData: { name: "say" } },
    {
      flags: flags(2, 1),
      children: [],
      extraNodeData: { name: "target", parser: "brigadier:string", properties: "SINGLE_WORD" },
    },
    { flags: flags(2, 1), children: [], extraNodeData: { name: "message", parser: "minecraft:message" } },
  ],
  rootIndex: 0,
};

/** System's own tree: `/system [text…]`. */
const SYSTEM: DeclareCommandsPacket = {
  nodes: [
    { flags: flags(0), children: [1] },
    { flags: flags(1, 1), children: [2], extraNodeData: { name: "system" } },
    {
      flags: flags(2, 1, 1),
      children: [],
      extraNodeData: {
        name: "text",
        parser: "brigadier:string",
        properties: "GREEDY_PHRASE",
        suggestionType: "minecraft:ask_server",
      },
    },
  ],
  rootIndex: 0,
};

const frameOf = (tree: DeclareCommandsPacket): Buffer =>
  codec.encode("play", "toClient", "declare_commands", { nodes: tree.nodes, rootIndex: tree.rootIndex });

describe("patchCommandTree", () => {
  it("adds System's literal to the root and appends its nodes, leaving every backend node as it was", () => {
    const patched = patchCommandTree(codec, frameOf(BACKEND), SYSTEM)!;
    const tree = codec.decode("play", "toClient", patched)?.params as unknown as DeclareCommandsPacket;
    expect(tree.rootIndex).toBe(0);
    expect(tree.nodes).toHaveLength(7);
    expect(tree.nodes[0]?.children).toEqual([1, 2, 5]);
    const original = codec.decode("play", "toClient", frameOf(BACKEND))
      ?.params as unknown as DeclareCommandsPacket;
    expect(tree.nodes.slice(1, 5)).toEqual(original.nodes.slice(1, 5));
    expect(tree.nodes[5]).toMatchObject({ children: [6], extraNodeData: { name: "system" } });
    expect(tree.nodes[6]).toMatchObject({ extraNodeData: { name: "text", parser: "brigadier:string" } });
  });

  it("never decodes the backend's nodes: a modded argument type it cannot read passes as the same bytes", () => {
    // node 3's parser is an id this version does not have, followed by property bytes only its mod can read
    const clean = frameOf(BACKEND);
    const target = Buffer.concat([varIntBuffer(6), Buffer.from("target")]);
    expect(clean.indexOf(target)).toBeGreaterThan(0);
    const at = clean.indexOf(target) + target.length;
    // brigadier:string (5) SINGLE_WORD (0) becomes id 400 with two bytes of properties
    expect(clean.subarray(at, at + 2)).toEqual(Buffer.from([5, 0]));
    const modded = Buffer.concat([
      clean.subarray(0, at),
      varIntBuffer(400),
      Buffer.from([0xde, 0xad]),
      clean.subarray(at + 2),
    ]);
    expect(codec.decode("play", "toClient", modded)).toBeUndefined();

    const patched = patchCommandTree(codec, modded, SYSTEM)!;
    const backendNodes = modded.subarray(1 + 1 + 4, modded.length - 1); // id, count, root (flags, 2 children)
    expect(patched.includes(backendNodes)).toBe(true);
    const cleanPatched = patchCommandTree(codec, clean, SYSTEM)!;
    const systemBytes = cleanPatched.subarray(
      cleanPatched.length - 1 - (cleanPatched.length - clean.length - 1),
    );
    expect(patched.subarray(patched.length - systemBytes.length)).toEqual(systemBytes);
    expect(patched.subarray(0, 7)).toEqual(Buffer.from([patched[0]!, 7, 0x00, 3, 1, 2, 5]));
  });

  it("leaves a tree alone that is not laid out as vanilla writes it", () => {
    const frame = frameOf({ ...BACKEND, rootIndex: 0 });
    const rootLast = Buffer.concat([frame.subarray(0, frame.length - 1), Buffer.from([0x04])]);
    expect(patchCommandTree(codec, rootLast, SYSTEM)).toBeUndefined();
  });
});
