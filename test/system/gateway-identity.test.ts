import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SquidServer } from "../../src/host/flying-squid/flying-squid-types.js";
import { type RunningGateway, startGateway } from "../../src/host/gateway/start-gateway.js";
import type { DeclareCommandsPacket } from "../../src/host/shared/declare-commands.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import {
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
  tempFolder,
  waitFor,
} from "./gateway-support.js";
import { receivedDispatcher } from "./received-tree.js";

/** A bot through the gateway with its chat and every command tree it received. */
interface Joined {
  readonly bot: Bot;
  readonly chat: ChatMessage[];
  readonly trees: DeclareCommandsPacket[];
  say(line: string, match: (text: string) => boolean): Promise<string>;
}

const join_ = async (port: number, name: string): Promise<Joined> => {
  let chat: ChatMessage[] = [];
  const trees: DeclareCommandsPacket[] = [];
  const bot = await joinBot(port, name, (joining) => {
    chat = recordChat(joining);
    joining._client.on("declare_commands", (packet: unknown) => {
      trees.push(packet as DeclareCommandsPacket);
    });
  });
  return {
    bot,
    chat,
    trees,
    say: async (line, match) => (await command(bot, chat, line, (message) => match(message.text))).text,
  };
};

/** Whether the last tree a player received holds `/system usage` (an admin command). */
const treeHasUsage = (player: Joined): boolean | undefined => {
  const tree = player.trees.at(-1);
  if (tree === undefined) return undefined;
  return receivedDispatcher(tree).getRoot().getChild("system")?.getChild("usage") !== undefined;
};

/** The backend's console making a player an operator or not (flying-squid's flag; the stand-in tells the client). */
const setOp = (server: SquidServer, name: string, op: boolean): void => {
  (server as unknown as { getPlayer(name: string): { op: boolean } }).getPlayer(name).op = op;
};

const USAGE = (text: string): boolean => /usage|Unknown command/i.test(text);

/**
 * System's admins behind the gateway: the players the backend made operators (the level it sends their client,
 * `entity_status` 24–28, observed in the relay; a plain flying-squid backend with the test support's vanilla
 * STAND-IN sends it when its operator flag changes) plus `ops` in System's server.json. A change of level sends the
 * player's command tree again. Off loopback in offline mode an operator must still prove themselves with
 * `/system verify <code>`, as in the embedded world.
 */
describe("gateway: admins are the backend's operators and server.json's ops", () => {
  let backend: PlainBackend;
  let gateway: GatewayUnderTest;
  let alice: Joined;
  let bob: Joined;
  let listed: Joined;

  beforeAll(async () => {
    backend = await startPlainBackend({ vanilla: true });
    const dataDir = tempFolder("gateway-identity-");
    mkdirSync(join(dataDir, "config/system"), { recursive: true });
    writeFileSync(join(dataDir, "config/system/server.json"), JSON.stringify({ ops: ["Listed"] }));
    gateway = await startGatewayFor(backend.port, { assistant: true, dataDir });
    alice = await join_(gateway.port, "Alice");
    bob = await join_(gateway.port, "Bob");
    listed = await join_(gateway.port, "Listed");
  }, 120_000);

  afterAll(async () => {
    for (const player of [alice, bob, listed]) player?.bot.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("refuses an admin command to a player the backend did not make an operator", async () => {
    expect(await bob.say("/system usage", USAGE)).toBe("⚠ Unknown command: usage");
    expect(treeHasUsage(bob)).toBe(false);
  });

  it("allows it to a player named in server.json's ops", async () => {
    expect(await listed.say("/system usage", USAGE)).toContain("No model usage recorded.");
    expect(treeHasUsage(listed)).toBe(true);
  });

  it("makes a player the backend makes an operator an admin at once, with the tree sent again, and not after /deop", async () => {
    expect(await alice.say("/system usage", USAGE)).toBe("⚠ Unknown command: usage");
    const before = alice.trees.length;
    setOp(backend.server, "Alice", true);
    await waitFor(() => (alice.trees.length > before && treeHasUsage(alice) === true ? true : undefined));
    expect(await alice.say("/system usage", USAGE)).toContain("No model usage recorded.");
    const opped = alice.trees.length;
    setOp(backend.server, "Alice", false);
    await waitFor(() => (alice.trees.length > opped && treeHasUsage(alice) === false ? true : undefined));
    expect(await alice.say("/system usage", USAGE)).toBe("⚠ Unknown command: usage");
  });
});

describe("gateway: offline mode off loopback keeps /system verify", () => {
  let backend: PlainBackend;
  let gateway: RunningGateway;
  const logger = new MemoryLogger();
  let carol: Joined;

  beforeAll(async () => {
    backend = await startPlainBackend({ vanilla: true });
    const dataDir = tempFolder("gateway-verify-");
    mkdirSync(join(dataDir, "config/system"), { recursive: true });
    writeFileSync(join(dataDir, "config/system/gateway.json"), JSON.stringify({ listen: "0.0.0.0:0" }));
    gateway = await startGateway({
      argv: ["--backend", `127.0.0.1:${backend.port}`, "--panel-port", "0", "--data-dir", dataDir],
      logger,
      announce: () => {},
      environment: {},
    });
    carol = await join_(gateway.port, "Carol");
  }, 120_000);

  afterAll(async () => {
    carol?.bot.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("gives a backend operator admin commands only after the console's code", async () => {
    const code = /\/system verify (\S+)/.exec(logger.lines.join("\n"))?.[1] ?? "";
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    setOp(backend.server, "Carol", true);
    await waitFor(() => carol.chat.find((message) => message.text.includes("/system verify <code>")));
    expect(await carol.say("/system usage", USAGE)).toBe("⚠ Unknown command: usage");
    expect(await carol.say(`/system verify ${code}`, (text) => /Verified/.test(text))).toContain(
      "admin commands are on",
    );
    await waitFor(() => (treeHasUsage(carol) === true ? true : undefined));
    expect(await carol.say("/system usage", USAGE)).toContain("No model usage recorded.");
  });
});
