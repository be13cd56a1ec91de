import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeclareCommandsPacket } from "../../src/host/shared/declare-commands.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
  waitFor,
} from "./gateway-support.js";
import { executable, receivedDispatcher } from "./received-tree.js";
import { modelEnvironment } from "./system-support.js";

const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

/**
 * The assistant behind the gateway: a plain flying-squid backend with nothing of System's inside, the gateway
 * in front started by the function `system gateway` calls (so it builds the assistant itself, with a scripted
 * model), and a mineflayer bot that joins through it.
 */
describe("gateway: the assistant through the relay", () => {
  let backend: PlainBackend;
  let model: ScriptedModelServer;
  let gateway: GatewayUnderTest;
  let bot: Bot;
  let messages: ChatMessage[];
  /** Every declare_commands the client received, in order. */
  const trees: DeclareCommandsPacket[] = [];
  const actionBar: string[] = [];

  beforeAll(async () => {
    backend = await startPlainBackend();
    model = await ScriptedModelServer.start();
    gateway = await startGatewayFor(backend.port, {
      assistant: true,
      environment: modelEnvironment(model),
    });
    bot = await joinBot(gateway.port, "Steve", (joining) => {
      messages = recordChat(joining);
      joining._client.on("declare_commands", (packet: unknown) => {
        trees.push(packet as DeclareCommandsPacket);
      });
      joining._client.on("system_chat", (packet: { isActionBar?: boolean; content: unknown }) => {
        if (packet.isActionBar === true) actionBar.push(JSON.stringify(packet.content));
      });
    });
  }, 90_000);

  afterAll(async () => {
    bot?.quit();
    await gateway?.close();
    await backend?.close();
    await model?.close();
  });

  const say = (line: string, match: (message: ChatMessage) => boolean): Promise<ChatMessage> =>
    command(bot, messages, line, match);

  it("builds the assistant as npm start does: the ready and model lines", () => {
    expect(gateway.logger.lines.some((line) => line.includes("assistant ready:"))).toBe(true);
    expect(gateway.logger.lines.some((line) => line.includes("model configured: 127.0.0.1:"))).toBe(true);
  });

  it("welcomes a first join without pretending to give the starter kit", async () => {
    const welcome = await waitFor(() => messages.find((message) => message.text.startsWith("Welcome")));
    expect(welcome.text).toContain("This server gives no items yet");
  });

  it("answers /system help with the help card", async () => {
    const help = await say("/system help", (message) => message.text.startsWith("What you can do now"));
    expect(help.text).toContain("/system item <query>");
  });

  it("answers /system item with a real card whose buttons parse as executable in the tree the client received", async () => {
    const diamond = await say("/system item minecraft:diamond", (message) =>
      message.text.includes("Diamond"),
    );
    expect(diamond.text).toContain("minecraft:diamond");
    const iron = await say("/system item minecraft:iron_ingot", (message) => message.clicks.length > 0);
    const tree = trees.at(-1);
    expect(tree).toBeDefined();
    const dispatcher = receivedDispatcher(tree as DeclareCommandsPacket);
    const buttons = iron.clicks.filter((click) => click.startsWith("/system card "));
    expect(buttons.length).toBeGreaterThan(0);
    for (const click of buttons) expect(executable(dispatcher, click), click).toBe(true);
    // the tree is System's: a command it does not hold does not parse
    expect(executable(dispatcher, "/nosuchcommand at all")).toBe(false);
    // a click runs through the gateway too: the button's own card comes back
    const clicked = await say(buttons[0] as string, (message) => message.text.length > 0);
    expect(clicked.text).toMatch(/Iron Ingot/);
  });

  it("shows /system me with what the relay showed, and what it did not (this backend never sends the whole inventory) as unknown", async () => {
    const me = await say("/system me", (message) => message.text.startsWith("Status of Steve"));
    expect(me.text).toContain("Health 20/20");
    expect(me.text).toContain("Inventory: unknown");
  });

  it("refuses /system checkin: this server gives no items yet, and no points are credited", async () => {
    const before = await say("/system balance", (message) => message.text.startsWith("Your points"));
    const refused = await say("/system checkin", (message) => message.text.includes("gives no items"));
    expect(refused.text).toContain("This server gives no items yet");
    const after = await say("/system balance", (message) => message.text.startsWith("Your points"));
    expect(after.text).toBe(before.text);
  });

  it("refuses a purchase before quoting or charging", async () => {
    const refused = await say("/system buy bread 2", (message) => message.text.includes("gives no items"));
    expect(refused.clicks).toEqual([]);
  });

  it("answers tab completion of System's commands at the gateway", async () => {
    const matches = (await bot.tabComplete("/system it", true, false, 10_000)) as unknown[];
    const words = matches.map((match) =>
      typeof match === "string" ? match : (match as { match: string }).match,
    );
    expect(words).toContain("item");
  });

  it("answers /reason with the model, its thinking shown in the action bar while the model is slow", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    model.script({ ...reply({ type: "answer", text: "Dig deep, near lava." }), until: held });
    const shown = actionBar.length;
    const answer = say("/reason where do I find diamonds", (message) => message.text.includes("Dig deep"));
    // the model answers only once the player saw that System is thinking
    const thinking = await waitFor(() => actionBar.slice(shown).find((line) => line.includes("is thinking")));
    expect(thinking).toContain("/system cancel");
    release();
    expect((await answer).text).toContain("Dig deep, near lava.");
  });
});
