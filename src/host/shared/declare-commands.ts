import { ArgumentCommandNode, LiteralCommandNode } from "@jsprismarine/brigadier";
import BoolArgumentType from "@jsprismarine/brigadier/arguments/BoolArgumentType";
import FloatArgumentType from "@jsprismarine/brigadier/arguments/FloatArgumentType";
import IntegerArgumentType from "@jsprismarine/brigadier/arguments/IntegerArgumentType";
import StringArgumentType, { StringType } from "@jsprismarine/brigadier/arguments/StringArgumentType";
import type CommandNode from "@jsprismarine/brigadier/tree/CommandNode";

/** One node of the `declare_commands` packet, in the shape minecraft-protocol serializes for 1.19+. */
export interface CommandPacketNode {
  readonly flags: {
    readonly unused: 0;
    readonly has_custom_suggestions: 0 | 1;
    readonly has_redirect_node: 0 | 1;
    readonly has_command: 0 | 1;
    readonly command_node_type: 0 | 1 | 2;
  };
  readonly children: number[];
  readonly redirectNode?: number;
  readonly extraNodeData?: LiteralData | ArgumentData;
}

interface LiteralData {
  readonly name: string;
}

interface ArgumentData {
  readonly name: string;
  readonly parser: string;
  readonly properties?: unknown;
  readonly suggestionType?: string;
}

/** The whole `declare_commands` payload. */
export interface DeclareCommandsPacket {
  readonly nodes: CommandPacketNode[];
  readonly rootIndex: number;
}

/** Asks the client to request completions from the server (answered by the `tab_complete` listener). */
export const ASK_SERVER = "minecraft:ask_server";

const STRING_MODES: Record<string, string> = {
  [StringType.SINGLE_WORD]: "SINGLE_WORD",
  [StringType.QUOTABLE_PHRASE]: "QUOTABLE_PHRASE",
  [StringType.GREEDY_PHRASE]: "GREEDY_PHRASE",
};

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const FLOAT_MAX = 3.4028234663852886e38;

const rangeProperties = (min: number, max: number, low: number, high: number): unknown => ({
  flags: { unused: 0, max_present: max < high ? 1 : 0, min_present: min > low ? 1 : 0 },
  ...(min > low ? { min } : {}),
  ...(max < high ? { max } : {}),
});

/** Maps a Brigadier argument type to its wire parser; unknown custom types travel as a greedy string. */
const argumentParser = (
  node: ArgumentCommandNode<unknown, unknown>,
): Pick<ArgumentData, "parser" | "properties"> => {
  const type = node.getType();
  if (type instanceof StringArgumentType) {
    return { parser: "brigadier:string", properties: STRING_MODES[type.getType()] ?? "GREEDY_PHRASE" };
  }
  if (type instanceof IntegerArgumentType) {
    return {
      parser: "brigadier:integer",
      properties: rangeProperties(type.getMinimum(), type.getMaximum(), INT_MIN, INT_MAX),
    };
  }
  if (type instanceof FloatArgumentType) {
    return {
      parser: "brigadier:float",
      properties: rangeProperties(type.getMinimum(), type.getMaximum(), -FLOAT_MAX, FLOAT_MAX),
    };
  }
  if (type instanceof BoolArgumentType) return { parser: "brigadier:bool" };
  return { parser: "brigadier:string", properties: "GREEDY_PHRASE" };
};

/**
 * Flattens a Brigadier tree into `declare_commands` for one player. A node is sent only when
 * `node.canUse(source)` and `visible(node)` hold, so hidden admin commands never reach the client.
 * Every argument asks the server for suggestions; a redirect whose target is hidden is dropped.
 */
export const declareCommands = <S>(
  root: CommandNode<S>,
  source: S,
  visible: (node: CommandNode<S>) => boolean = () => true,
): DeclareCommandsPacket => {
  const order: CommandNode<S>[] = [];
  const index = new Map<CommandNode<S>, number>();
  const admit = (node: CommandNode<S>): boolean => node === root || (node.canUse(source) && visible(node));
  const enqueue = (node: CommandNode<S>): void => {
    if (index.has(node) || !admit(node)) return;
    index.set(node, order.length);
    order.push(node);
  };
  enqueue(root);
  for (let cursor = 0; cursor < order.length; cursor++) {
    const node = order[cursor]!;
    for (const child of node.getChildren()) enqueue(child);
    const redirect = node.getRedirect();
    if (redirect !== null) enqueue(redirect);
  }
  const nodes = order.map((node): CommandPacketNode => {
    const children = [...node.getChildren()].flatMap((child) => {
      const position = index.get(child);
      return position === undefined ? [] : [position];
    });
    const redirect = node.getRedirect();
    const redirectIndex = redirect === null ? undefined : index.get(redirect);
    const flags = {
      unused: 0 as const,
      has_custom_suggestions: (node instanceof ArgumentCommandNode ? 1 : 0) as 0 | 1,
      has_redirect_node: (redirectIndex === undefined ? 0 : 1) as 0 | 1,
      has_command: (node.getCommand() ? 1 : 0) as 0 | 1,
      command_node_type: (node instanceof LiteralCommandNode
        ? 1
        : node instanceof ArgumentCommandNode
          ? 2
          : 0) as 0 | 1 | 2,
    };
    const base = { flags, children, ...(redirectIndex === undefined ? {} : { redirectNode: redirectIndex }) };
    if (node instanceof LiteralCommandNode) return { ...base, extraNodeData: { name: node.getLiteral() } };
    if (node instanceof ArgumentCommandNode) {
      const argument = node as ArgumentCommandNode<S, unknown>;
      return {
        ...base,
        extraNodeData: {
          name: argument.getName(),
          ...argumentParser(argument as ArgumentCommandNode<unknown, unknown>),
          suggestionType: ASK_SERVER,
        },
      };
    }
    return base;
  });
  return { nodes, rootIndex: 0 };
};

/** Wraps a Brigadier root and the player's command source as the tree the host sends on join. */
export const brigadierTree = <S>(
  root: CommandNode<S>,
  source: S,
  visible?: (node: CommandNode<S>) => boolean,
): { toPacket(): DeclareCommandsPacket } => ({ toPacket: () => declareCommands(root, source, visible) });
