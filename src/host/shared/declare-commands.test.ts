import { argument, CommandDispatcher, greedyString, integer, literal, word } from "@jsprismarine/brigadier";
import { describe, expect, it } from "vitest";
import { withPlainCommands } from "../flying-squid/plain-commands.js";
import { declareCommands } from "./declare-commands.js";
import { roundTrip } from "./wire.test-support.js";

interface Source {
  readonly op: boolean;
}

const tree = (): CommandDispatcher<Source> => {
  const dispatcher = new CommandDispatcher<Source>();
  const system = dispatcher.register(
    literal<Source>("system")
      .then(
        literal<Source>("item").then(
          argument<Source, string>("query", greedyString()).executes(async () => 1),
        ),
      )
      .then(
        literal<Source>("grant")
          .requires((source) => source.op)
          .then(argument<Source, string>("player", word()).executes(async () => 1)),
      )
      .then(
        literal<Source>("page").then(argument<Source, number>("n", integer(1, 9)).executes(async () => 1)),
      )
      .executes(async () => 1),
  );
  dispatcher.register(literal<Source>("sys").redirect(system));
  return dispatcher;
};

const names = (packet: ReturnType<typeof declareCommands>): string[] =>
  packet.nodes.flatMap((node) => (node.extraNodeData ? [node.extraNodeData.name] : []));

describe("declareCommands", () => {
  it("encodes a tree that minecraft-protocol 1.21.4 reads back node for node", () => {
    const packet = declareCommands(tree().getRoot(), { op: true });
    const decoded = roundTrip("1.21.4", "declare_commands", packet);
    expect(decoded.params).toEqual(JSON.parse(JSON.stringify(packet)));
    const query = packet.nodes.find((node) => node.extraNodeData?.name === "query")!;
    expect(query.flags).toMatchObject({ command_node_type: 2, has_command: 1, has_custom_suggestions: 1 });
    expect(query.extraNodeData).toMatchObject({
      parser: "brigadier:string",
      properties: "GREEDY_PHRASE",
      suggestionType: "minecraft:ask_server",
    });
  });

  it("writes children as indices and redirects to the target node", () => {
    const packet = declareCommands(tree().getRoot(), { op: true });
    const root = packet.nodes[packet.rootIndex]!;
    const rootNames = root.children.map((index) => packet.nodes[index]!.extraNodeData?.name);
    expect(rootNames.sort()).toEqual(["sys", "system"]);
    const sys = packet.nodes.find((node) => node.extraNodeData?.name === "sys")!;
    expect(sys.flags.has_redirect_node).toBe(1);
    expect(packet.nodes[sys.redirectNode!]!.extraNodeData?.name).toBe("system");
    const page = packet.nodes.find((node) => node.extraNodeData?.name === "n")!;
    expect(page.extraNodeData).toMatchObject({
      parser: "brigadier:integer",
      properties: { flags: { min_present: 1, max_present: 1 }, min: 1, max: 9 },
    });
  });

  it("leaves out nodes the player may not use", () => {
    expect(names(declareCommands(tree().getRoot(), { op: true }))).toContain("grant");
    const player = declareCommands(tree().getRoot(), { op: false });
    expect(names(player)).not.toContain("grant");
    expect(names(player)).not.toContain("player");
    expect(roundTrip("1.21.4", "declare_commands", player).params).toEqual(
      JSON.parse(JSON.stringify(player)),
    );
  });

  it("applies an extra visibility predicate", () => {
    const packet = declareCommands(tree().getRoot(), { op: true }, (node) => node.getName() !== "item");
    expect(names(packet)).not.toContain("item");
    expect(names(packet)).not.toContain("query");
  });

  it("adds flying-squid's own commands as plain literals without duplicating ours", () => {
    const packet = withPlainCommands(declareCommands(tree().getRoot(), { op: false }), ["ping", "system"]);
    const root = packet.nodes[packet.rootIndex]!;
    const rootNames = root.children.map((index) => packet.nodes[index]!.extraNodeData?.name);
    expect(rootNames.sort()).toEqual(["ping", "sys", "system"]);
    expect(roundTrip("1.21.4", "declare_commands", packet).params).toEqual(
      JSON.parse(JSON.stringify(packet)),
    );
  });
});
