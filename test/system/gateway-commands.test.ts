import { argument, CommandDispatcher, greedyString, literal } from "@jsprismarine/brigadier";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayCommands } from "../../src/host/gateway/gateway-commands.js";
import { declareCommands } from "../../src/host/shared/declare-commands.js";
import { recordChat } from "../e2e/assistant-support.js";
import {
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
  waitFor,
} from "./gateway-support.js";

/** `/system [text…]` built with Brigadier as System builds its tree; lines are answered with one card. */
const echoCommands = (): GatewayCommands => {
  const dispatcher = new CommandDispatcher<unknown>();
  dispatcher.register(
    literal<unknown>("system")
      .executes(async () => 1)
      .then(argument<unknown, string>("text", greedyString()).executes(async () => 1)),
  );
  return {
    tree: () => declareCommands(dispatcher.getRoot(), {}),
    owns: (line) => /^system(\s|$)/u.test(line),
    run: (player, line) => player.sendChat({ text: `System heard: ${line}`, color: "aqua" }),
  };
};

interface BackendClient {
  on(event: string, listener: (packet: Record<string, unknown>, meta?: unknown) => void): void;
  on(event: "raw", listener: (bytes: Buffer, meta: { name: string }) => void): void;
}

describe("gateway: /system at the gateway", () => {
  let backend: PlainBackend;
  let gateway: GatewayUnderTest;
  let bot: Bot;
  /** The names of the trees' root children the bot received, one list per declare_commands. */
  const trees: string[][] = [];

  beforeAll(async () => {
    backend = await startPlainBackend();
    gateway = await startGatewayFor(backend.port, { commands: echoCommands() });
    bot = await joinBot(gateway.port, "Asker", (joining) =>
      joining._client.on("declare_commands", (packet: unknown) => {
        const { nodes } = packet as { nodes: { extraNodeData?: { name?: string } }[] };
        trees.push(
          nodes.flatMap((node) => (node.extraNodeData?.name === undefined ? [] : [node.extraNodeData.name])),
        );
      }),
    );
  }, 60_000);

  afterAll(async () => {
    bot?.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("gives the player a tree with /system when the backend sends none", async () => {
    await waitFor(() => (trees.length > 0 ? true : undefined));
    expect(trees[0]).toEqual(["system", "text"]);
  });

  it("consumes /system lines and answers with a system_chat card; other commands and chat reach the backend unchanged", async () => {
    const squid = backend.server.players.find((player) => player.username === "Asker");
    const client = squid?._client as unknown as BackendClient;
    const commands: string[] = [];
    const chat: Buffer[] = [];
    client.on("chat_command", (packet) => commands.push(packet.command as string));
    client.on("raw", (bytes: Buffer, meta: { name: string }) => {
      if (meta.name === "chat_message") chat.push(Buffer.from(bytes));
    });
    const sentChat: Buffer[] = [];
    const serializer = (
      bot._client as unknown as { serializer: { on(event: "data", listener: (bytes: Buffer) => void): void } }
    ).serializer;
    serializer.on("data", (bytes) => {
      if (bytes[0] === 0x07) sentChat.push(Buffer.from(bytes));
    });
    const messages = recordChat(bot);

    bot.chat("/system hello there");
    await waitFor(() => messages.find((message) => message.text === "System heard: system hello there"));
    // the next command is relayed; the /system line before it never reached the backend
    bot.chat("/ping");
    await waitFor(() => (commands.includes("ping") ? true : undefined));
    expect(commands).toEqual(["ping"]);

    bot.chat("plain chat passes as it is");
    await waitFor(() => (chat.length > 0 ? true : undefined));
    expect(chat).toEqual(sentChat);
  });
});
