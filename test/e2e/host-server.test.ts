import type { EventEmitter } from "node:events";
import { argument, CommandDispatcher, greedyString, literal } from "@jsprismarine/brigadier";
import { type ClientOptions, createClient } from "minecraft-protocol";
import type { Bot } from "mineflayer";
import nbt from "prismarine-nbt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningHost, start } from "../../src/host/flying-squid/server.js";
import { INVENTORY_SNAPSHOT, PLAYER_STATS_SNAPSHOT } from "../../src/host/flying-squid/snapshots.js";
import { cardComponent } from "../../src/host/shared/card-component.js";
import { brigadierTree, type DeclareCommandsPacket } from "../../src/host/shared/declare-commands.js";
import type { HostHandler, HostPlayer } from "../../src/host/shared/host-handler.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { joinBot, tempFolder, waitFor } from "./host-support.js";

interface Call {
  readonly uuid: string;
  readonly line: string;
}

/** A handler that records what reaches it; `boom` throws, `card` answers with a card with one button. */
const recordingHandler = (calls: Call[], joined: string[]): HostHandler => {
  const dispatcher = new CommandDispatcher<HostPlayer>();
  dispatcher.register(
    literal<HostPlayer>("system").then(
      argument<HostPlayer, string>("instruction", greedyString()).executes(async () => 1),
    ),
  );
  dispatcher.register(literal<HostPlayer>("secret").requires((player) => player.opLevel() >= 4));
  return {
    async onCommand(player, line) {
      calls.push({ uuid: player.uuid, line });
      if (line === "system boom") throw new Error("module exploded");
      if (line === "system card") {
        player.sendCard(
          cardComponent({
            title: "Diamond",
            lines: ["Sources: diamond_ore"],
            buttons: [{ label: "Recipes", ref: "c1", action: "open", hover: "Show recipes" }],
          }),
        );
      }
    },
    async completions(_player, line) {
      if (line.includes("crash")) throw new Error("completion exploded");
      return line.startsWith("system ") ? ["hello", "help"] : [];
    },
    commandTree: (player) => brigadierTree(dispatcher.getRoot(), player),
    onJoin: (player) => {
      joined.push(player.uuid);
    },
    onLeave: () => {},
  };
};

type Node = Record<string, unknown> & { extra?: Node[] };
const clickValues = (node: Node): string[] => [
  ...(node.clickEvent ? [(node.clickEvent as { value: string }).value] : []),
  ...(node.extra ?? []).flatMap(clickValues),
];
const plainText = (node: Node): string =>
  `${String(node.text ?? "")}${(node.extra ?? []).map(plainText).join("")}`;

describe("flying-squid host with a mineflayer bot", () => {
  const calls: Call[] = [];
  const joined: string[] = [];
  const chats: Node[] = [];
  const trees: DeclareCommandsPacket[] = [];
  const announced: string[] = [];
  const logger = new MemoryLogger();
  let host: RunningHost;
  let bot: Bot;

  beforeAll(async () => {
    host = await start({
      host: "127.0.0.1",
      port: 0,
      worldFolder: tempFolder("system-host-"),
      generation: "superflat",
      viewDistance: 2,
      handler: recordingHandler(calls, joined),
      ops: ["Olivia"],
      logger,
      announce: (line) => announced.push(line),
    });
    bot = await joinBot(host.port, "Alex", (created) => {
      const client = created._client as unknown as EventEmitter;
      client.on("system_chat", (packet: { content: nbt.Compound }) => {
        chats.push(nbt.simplify(packet.content) as Node);
      });
      client.on("declare_commands", (packet: DeclareCommandsPacket) => trees.push(packet));
    });
  });

  afterAll(async () => {
    bot?.quit();
    await host?.close();
  });

  const uuid = (): string => (bot._client as unknown as { uuid: string }).uuid;

  it("announces one listening line with the bound port", () => {
    expect(announced).toEqual([`listening on 127.0.0.1:${host.port}`]);
  });

  it("forwards /system to the handler with the player's uuid and tells it who joined", async () => {
    bot.chat("/system hello");
    const call = await waitFor(() => calls.find((entry) => entry.line === "system hello"));
    expect(call.uuid).toBe(uuid());
    expect(joined).toContain(uuid());
    expect(host.player(uuid())?.name).toBe("Alex");
  });

  it("renders a card as NBT system_chat whose button runs /system card", async () => {
    bot.chat("/system card");
    const card = await waitFor(() => chats.find((chat) => plainText(chat).includes("Diamond")));
    expect(clickValues(card)).toEqual(["/system card c1 open"]);
    bot.chat(clickValues(card)[0]!);
    await waitFor(() => calls.find((entry) => entry.line === "system card c1 open"));
  });

  it("accepts commands sent as chat_command_signed (clients with a chat session)", async () => {
    bot._client.write("chat_command_signed", {
      command: "system signed",
      timestamp: BigInt(Date.now()),
      salt: 0n,
      argumentSignatures: [],
      messageCount: 0,
      acknowledged: Buffer.alloc(3),
    });
    await waitFor(() => calls.find((entry) => entry.line === "system signed"));
  });

  it("sends our command tree filtered for the player, which the client accepts", async () => {
    const tree = await waitFor(() => trees[0]);
    const names = tree.nodes.map((node) => node.extraNodeData?.name);
    expect(names).toContain("system");
    expect(names).toContain("ping");
    expect(names).not.toContain("secret");
    const instruction = tree.nodes.find((node) => node.extraNodeData?.name === "instruction");
    expect(instruction?.extraNodeData).toMatchObject({
      suggestionType: "minecraft:ask_server",
      properties: "GREEDY_PHRASE",
    });
    expect(bot.entity).toBeDefined();
  });

  it("answers tab completion with the handler's words", async () => {
    const answer = new Promise<Record<string, unknown>>((resolve) =>
      bot._client.once("tab_complete", (packet: Record<string, unknown>) => resolve(packet)),
    );
    bot._client.write("tab_complete", { transactionId: 7, text: "/system he" });
    expect(await answer).toMatchObject({
      transactionId: 7,
      start: 8,
      length: 2,
      matches: [{ match: "hello" }, { match: "help" }],
    });
  });

  it("keeps serving after a handler throws, and tells the player", async () => {
    bot.chat("/system boom");
    await waitFor(() => chats.find((chat) => plainText(chat).includes("Something went wrong")));
    bot._client.write("tab_complete", { transactionId: 8, text: "/system crash" });
    bot.chat("/system still there");
    await waitFor(() => calls.find((entry) => entry.line === "system still there"));
    expect(logger.has("module exploded")).toBe(true);
    await waitFor(() => (logger.has("completion exploded") ? true : undefined));
  });

  it("filters the tree per player, resends it on demand, and sends cards only to their player", async () => {
    const opTrees: DeclareCommandsPacket[] = [];
    const opChats: Node[] = [];
    const op = await joinBot(host.port, "Olivia", (created) => {
      const client = created._client as unknown as EventEmitter;
      client.on("declare_commands", (packet: DeclareCommandsPacket) => opTrees.push(packet));
      client.on("system_chat", (packet: { content: nbt.Compound }) =>
        opChats.push(nbt.simplify(packet.content) as Node),
      );
    });
    try {
      const opTree = await waitFor(() => opTrees[0]);
      const opNames = opTree.nodes.map((node) => node.extraNodeData?.name);
      expect(opNames).toContain("secret");
      expect(opNames).toContain("op");
      expect(trees[0]!.nodes.map((node) => node.extraNodeData?.name)).not.toContain("op");
      const before = trees.length;
      host.refreshCommands(uuid());
      await waitFor(() => (trees.length > before ? true : undefined));
      expect(opTrees.length).toBe(1);
      const opUuid = (op._client as unknown as { uuid: string }).uuid;
      expect(host.player(opUuid)?.opLevel()).toBe(4);
      expect(host.player(uuid())?.opLevel()).toBe(0);
      host.player(opUuid)!.sendText("only for Olivia");
      host.player(uuid())!.sendText("only for Alex");
      await waitFor(() => opChats.find((chat) => plainText(chat) === "only for Olivia"));
      await waitFor(() => chats.find((chat) => plainText(chat) === "only for Alex"));
      expect(chats.some((chat) => plainText(chat) === "only for Olivia")).toBe(false);
      expect(opChats.some((chat) => plainText(chat) === "only for Alex")).toBe(false);
    } finally {
      op.quit();
    }
  });

  it("answers in the language the client chose during configuration", async () => {
    const client = createClient({
      host: "127.0.0.1",
      port: host.port,
      username: "Mei",
      version: "1.21.4",
      auth: "offline",
      clientSettings: { locale: "zh_cn" },
    } as ClientOptions);
    const messages: string[] = [];
    client.on("system_chat", (packet: { content: nbt.Compound }) => {
      messages.push(plainText(nbt.simplify(packet.content) as Node));
    });
    try {
      const mei = await waitFor(() => host.players().find((player) => player.name === "Mei"));
      expect(mei.locale()).toBe("zh_cn");
      await waitFor(() => (joined.includes(mei.uuid) ? true : undefined));
      client.chat("/system boom");
      await waitFor(() => messages.find((message) => message === "处理请求时出错了。"));
    } finally {
      client.end("done");
    }
  });

  it("gives items the bot really holds, and snapshots are detached copies", async () => {
    const player = host.player(uuid())!;
    expect(await player.giveItem("minecraft:diamond", 3)).toBe(true);
    expect(await player.giveItem("minecraft:no_such_item", 1)).toBe(false);
    const diamonds = await waitFor(() => bot.inventory.items().find((item) => item.name === "diamond"));
    expect(diamonds.count).toBe(3);
    const inventory = player.inventory()!;
    expect(INVENTORY_SNAPSHOT.decode(inventory).success).toBe(true);
    expect(inventory.stacks).toContainEqual(expect.objectContaining({ item: "minecraft:diamond", count: 3 }));
    inventory.stacks.length = 0;
    expect(player.inventory()!.stacks.length).toBeGreaterThan(0);
    const stats = player.stats();
    expect(PLAYER_STATS_SNAPSHOT.decode(stats).success).toBe(true);
    expect(stats).toMatchObject({
      health: 20,
      food: 20,
      dimension: "minecraft:overworld",
      gameMode: "survival",
    });
    expect(stats.inventory?.totals).toContainEqual({ item: "minecraft:diamond", count: 3 });
  });
});
