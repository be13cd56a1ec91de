import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Bot } from "mineflayer";
import nbt from "prismarine-nbt";
import type { AssistantServer } from "../../src/assistant/assistant-server.js";
import { systemClock } from "../../src/game/context-types.js";
import type { RunningHost } from "../../src/host/flying-squid/server.js";
import { type SystemOptions, startSystem } from "../../src/host/flying-squid/start-system.js";
import { silentLogger } from "../../src/util/logger.js";

/** A real flying-squid server with the assembled assistant, on a free port in a temp folder. */
export interface GameUnderTest {
  readonly host: RunningHost;
  readonly assistant: AssistantServer;
  close(): Promise<void>;
}

/**
 * Starts the server exactly as `npm start` does (startSystem) in `folder`, on a free port, with a superflat world
 * and the given operators written to `config/system/server.json`.
 */
export const startGame = async (
  folder: string,
  options: {
    ops?: string[];
    extraTypes?: SystemOptions["extraTypes"];
    environment?: SystemOptions["environment"];
  } = {},
): Promise<GameUnderTest> => {
  mkdirSync(join(folder, "config", "system"), { recursive: true });
  const configPath = join(folder, "config", "system", "server.json");
  if (!existsSync(configPath))
    writeFileSync(configPath, JSON.stringify({ generation: "superflat", ops: options.ops ?? [] }));
  const system = await startSystem({
    clock: systemClock(),
    argv: ["--port", "0", "--panel-port", "0", "--data-dir", folder],
    environment: options.environment ?? {},
    logger: silentLogger,
    announce: () => {},
    ...(options.extraTypes === undefined ? {} : { extraTypes: options.extraTypes }),
  });
  return { host: system.host, assistant: system.assistant, close: () => system.close() };
};

/** Plain text and click commands of one chat component (NBT on 1.21.4, or JSON). */
export interface ChatMessage {
  readonly text: string;
  readonly clicks: string[];
  /** The hover texts of the message's parts (buttons, links, title), in order. */
  readonly hovers: string[];
}

const walk = (node: unknown, message: { text: string; clicks: string[]; hovers: string[] }): void => {
  if (typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, message);
    return;
  }
  const record = node as Record<string, unknown>;
  if (typeof record.text === "string") message.text += record.text;
  for (const key of ["clickEvent", "click_event"]) {
    const click = record[key] as Record<string, unknown> | undefined;
    const value = click?.value ?? click?.command;
    if (typeof value === "string") message.clicks.push(value);
  }
  for (const key of ["hoverEvent", "hover_event"]) {
    const hover = record[key] as Record<string, unknown> | undefined;
    const shown = hover?.contents ?? hover?.value ?? hover?.text;
    if (shown === undefined) continue;
    const inner = { text: "", clicks: [] as string[], hovers: [] as string[] };
    walk(typeof shown === "string" ? { text: shown } : shown, inner);
    message.hovers.push(inner.text);
  }
  if (record.extra !== undefined) walk(record.extra, message);
};

/** Collects every system chat message a bot receives, decoded to text and click commands. */
export const recordChat = (bot: Bot): ChatMessage[] => {
  const messages: ChatMessage[] = [];
  bot._client.on("system_chat", (packet: { content: unknown }) => {
    let content: unknown = packet.content;
    if (typeof content === "string") {
      try {
        content = JSON.parse(content);
      } catch {
        content = { text: content };
      }
    } else if (typeof content === "object" && content !== null && "type" in content) {
      content = nbt.simplify(content as nbt.Tags[nbt.TagType]);
    }
    const message = { text: "", clicks: [] as string[], hovers: [] as string[] };
    walk(content, message);
    messages.push(message);
  });
  return messages;
};

const PRESENCE = /^\S+ (joined|left) the game\.?$/;

/**
 * Sends a command and waits for the next chat message that matches (join/leave broadcasts aside). `match` names
 * the reply: the first message to arrive may be a notice or another request's answer.
 */
export const command = async (
  bot: Bot,
  messages: ChatMessage[],
  line: string,
  match: (message: ChatMessage) => boolean,
  timeoutMillis = 20_000,
): Promise<ChatMessage> => {
  const from = messages.length;
  bot.chat(line);
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    // another player joining or leaving is a broadcast, never the reply
    const found = messages.slice(from).find((message) => !PRESENCE.test(message.text) && match(message));
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(`no reply to ${line}; got ${JSON.stringify(messages.slice(from).map((m) => m.text))}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
