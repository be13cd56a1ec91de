import {
  argument,
  bool,
  CommandDispatcher,
  float,
  greedyString,
  integer,
  literal,
  string,
  word,
} from "@jsprismarine/brigadier";
import type ArgumentType from "@jsprismarine/brigadier/arguments/ArgumentType";
import type ArgumentBuilder from "@jsprismarine/brigadier/builder/ArgumentBuilder";
import type { DeclareCommandsPacket } from "../../src/host/shared/declare-commands.js";

type Node = DeclareCommandsPacket["nodes"][number];

/** The Brigadier type a wire parser names, as the vanilla client reads it (only the types System sends). */
const argumentType = (node: Node): ArgumentType<unknown> => {
  const data = node.extraNodeData as { parser?: string; properties?: unknown } | undefined;
  switch (data?.parser) {
    case "brigadier:integer":
      return integer() as ArgumentType<unknown>;
    case "brigadier:float":
      return float() as ArgumentType<unknown>;
    case "brigadier:bool":
      return bool() as ArgumentType<unknown>;
    case "brigadier:string":
      if (data.properties === "SINGLE_WORD") return word() as ArgumentType<unknown>;
      if (data.properties === "QUOTABLE_PHRASE") return string() as ArgumentType<unknown>;
      return greedyString() as ArgumentType<unknown>;
    default:
      throw new Error(`the test does not know the parser ${String(data?.parser)}`);
  }
};

/**
 * A Brigadier dispatcher over a `declare_commands` tree as a client received it: what a 1.21.6+ client checks a
 * clicked command against. Redirects are not followed (System sends none).
 */
export const receivedDispatcher = (packet: DeclareCommandsPacket): CommandDispatcher<unknown> => {
  const dispatcher = new CommandDispatcher<unknown>();
  const build = (index: number): ArgumentBuilder<unknown, never> => {
    const node = packet.nodes[index];
    if (node === undefined) throw new Error(`no node ${index}`);
    const name = (node.extraNodeData as { name: string }).name;
    const builder = (node.flags.command_node_type === 1
      ? literal(name)
      : argument(name, argumentType(node))) as unknown as ArgumentBuilder<unknown, never>;
    if (node.flags.has_command === 1) builder.executes(async () => 1);
    for (const child of node.children) builder.then(build(child) as never);
    return builder;
  };
  const root = packet.nodes[packet.rootIndex];
  for (const child of root?.children ?? []) dispatcher.getRoot().addChild(build(child).build() as never);
  return dispatcher;
};

/** Whether `command` (with its slash) parses completely and ends on an executable node of the tree. */
export const executable = (dispatcher: CommandDispatcher<unknown>, command: string): boolean => {
  const parse = dispatcher.parse(command.replace(/^\//u, ""), {});
  return (
    parse.getExceptions().size === 0 &&
    !parse.getReader().canRead() &&
    parse.getContext().getCommand() !== undefined &&
    parse.getContext().getCommand() !== null
  );
};
