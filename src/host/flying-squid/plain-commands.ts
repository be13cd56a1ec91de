import type { DeclareCommandsPacket } from "../shared/declare-commands.js";

/** An empty tree: only the root node. */
export const emptyCommandsPacket = (): DeclareCommandsPacket => ({
  nodes: [
    {
      flags: {
        unused: 0,
        has_custom_suggestions: 0,
        has_redirect_node: 0,
        has_command: 0,
        command_node_type: 0,
      },
      children: [],
    },
  ],
  rootIndex: 0,
});

/**
 * Adds literals that run as typed (flying-squid's own commands such as `/ping`), each with an optional
 * greedy `args` argument, unless the tree already has a root child of that name.
 */
export const withPlainCommands = (
  packet: DeclareCommandsPacket,
  names: readonly string[],
): DeclareCommandsPacket => {
  const nodes = packet.nodes.map((node) => ({ ...node, children: [...node.children] }));
  const root = nodes[packet.rootIndex]!;
  const taken = new Set(root.children.map((index) => nodes[index]?.extraNodeData?.name));
  for (const name of names) {
    if (taken.has(name)) continue;
    taken.add(name);
    const literal = nodes.length;
    nodes.push({
      flags: {
        unused: 0,
        has_custom_suggestions: 0,
        has_redirect_node: 0,
        has_command: 1,
        command_node_type: 1,
      },
      children: [literal + 1],
      extraNodeData: { name },
    });
    nodes.push({
      flags: {
        unused: 0,
        has_custom_suggestions: 0,
        has_redirect_node: 0,
        has_command: 1,
        command_node_type: 2,
      },
      children: [],
      extraNodeData: { name: "args", parser: "brigadier:string", properties: "GREEDY_PHRASE" },
    });
    root.children.push(literal);
  }
  return { nodes, rootIndex: packet.rootIndex };
};
