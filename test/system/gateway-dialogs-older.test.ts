import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import {
  type CapturedPacket,
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  recordReceived,
  startGatewayFor,
  startPlainBackend,
} from "./gateway-support.js";

/**
 * A 1.21.4 client draws no server dialogs: through the same gateway build (the assistant as `system gateway`
 * builds it, with its window) it keeps chat cards as before — `/system` alone answers with the help card, cards
 * carry no `[System]` button, its configuration is relayed unpatched and no dialog packet ever reaches it.
 */
describe("gateway: a 1.21.4 client keeps chat cards", () => {
  let backend: PlainBackend;
  let gateway: GatewayUnderTest;
  let bot: Bot;
  let messages: ChatMessage[];
  const received: CapturedPacket[] = [];

  beforeAll(async () => {
    backend = await startPlainBackend();
    gateway = await startGatewayFor(backend.port, { assistant: true });
    bot = await joinBot(gateway.port, "Older", (joining) => {
      messages = recordChat(joining);
      recordReceived(joining, received);
    });
  }, 90_000);

  afterAll(async () => {
    bot?.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("answers /system alone with the help card in chat, buttons running /system card, and no window", async () => {
    const help = await command(bot, messages, "/system", (message) =>
      message.text.startsWith("What you can do now"),
    );
    expect(help.text).not.toContain("[System]");
    const item = await command(
      bot,
      messages,
      "/system item minecraft:iron_ingot",
      (message) => message.clicks.length > 0,
    );
    expect(item.clicks.every((click) => click.startsWith("/system card "))).toBe(true);
    expect(item.text).not.toContain("[System]");
    expect(received.some((packet) => packet.name.includes("dialog"))).toBe(false);
    const hex = (packets: CapturedPacket[]) =>
      packets
        .filter((packet) => packet.state === "configuration")
        .map((packet) => packet.bytes.toString("hex"));
    expect(hex(received)).toEqual(hex(backend.sent("Older")));
  });
});
