import type { EventEmitter } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { ChatRequest } from "../../src/agent/request/chat-request.js";
import { PreferencesRequest } from "../../src/agent/request/preferences-request.js";
import type { AgentResponse } from "../../src/agent/response/agent-response.js";
import { ProtocolClient } from "../../src/agent/response/protocol-client.js";
import type { ReplyResponse } from "../../src/agent/response/reply-response.js";
import { StateResponse } from "../../src/agent/response/state-response.js";
import type { GameClock } from "../../src/game/context-types.js";
import type { DeclareCommandsPacket } from "../../src/host/shared/declare-commands.js";
import { WebSocketFrameChannel } from "../../src/util/frame-transport.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  command,
  joinBot,
  joinPlayer,
  modelEnvironment,
  type Player,
  recordChat,
  type ShippedServer,
  startShipped,
  waitFor,
} from "./system-support.js";

const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

const DAY_MILLIS = 24 * 60 * 60 * 1000;

/** A bot whose `declare_commands` trees are recorded, newest last. */
interface TreePlayer extends Player {
  readonly trees: DeclareCommandsPacket[];
}

const joinWithTrees = async (port: number, name: string): Promise<TreePlayer> => {
  const trees: DeclareCommandsPacket[] = [];
  const bot = await joinBot(port, name, (created) => {
    (created._client as unknown as EventEmitter).on("declare_commands", (packet: DeclareCommandsPacket) =>
      trees.push(packet),
    );
  });
  const chat = recordChat(bot);
  return {
    bot,
    chat,
    trees,
    say: (line, match, timeoutMillis) => command(bot, chat, line, match, timeoutMillis),
    next: () => Promise.reject(new Error("unused")),
    quit: () => bot.quit(),
  };
};

const names = (tree: DeclareCommandsPacket | undefined): (string | undefined)[] =>
  tree?.nodes.map((node) => node.extraNodeData?.name) ?? [];

/** The first tree sent after `from` that has (or lacks) `name`. */
const treeAfter = (player: TreePlayer, from: number, name: string, present: boolean) =>
  waitFor(() => player.trees.slice(from).find((tree) => names(tree).includes(name) === present));

/** What the game offers when the player presses Tab after `text`. */
const complete = (player: Player, text: string, transactionId: number): Promise<string[]> => {
  const answer = new Promise<{ matches: { match: string }[] }>((resolve) =>
    player.bot._client.once("tab_complete", resolve),
  );
  player.bot._client.write("tab_complete", { transactionId, text });
  return answer.then((packet) => packet.matches.map((entry) => entry.match));
};

/** Binds a panel to `player` as a browser would (code from `/system bind`, CSRF, origin) and opens its socket. */
const openPanel = async (url: string, player: Player): Promise<ProtocolClient> => {
  const offer = await player.say("/system bind", (m) => m.text.startsWith("Your web panel code"));
  const code = /code: ([A-Z0-9]{8})/.exec(offer.text)?.[1] ?? "";
  const visit = await fetch(`${url}/api/session`);
  const csrf = /system_csrf=([^;]+)/.exec(visit.headers.get("set-cookie") ?? "")?.[1] ?? "";
  const bound = await fetch(`${url}/api/bind`, {
    method: "POST",
    body: JSON.stringify({ code }),
    headers: {
      "Content-Type": "application/json",
      Cookie: `system_csrf=${csrf}`,
      Origin: url,
      "X-System-CSRF": csrf,
    },
  });
  const token = /system_session=([^;]+)/.exec(bound.headers.get("set-cookie") ?? "")?.[1] ?? "";
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/u, "ws")}/ws`, {
      headers: { Origin: url, Cookie: `system_session=${token}` },
    });
    socket.once("error", reject);
    socket.once("open", () => {
      ProtocolClient.connect(new WebSocketFrameChannel(socket), { client: "test" }).then(resolve, reject);
    });
  });
};

/** The card a panel reply shows, as the page receives it (translation keys with their arguments). */
const shown = (answer: ReplyResponse): string => JSON.stringify(answer.card ?? {});

/** A scripted reply held until the test releases it. */
const held = (): { readonly until: Promise<void>; release(): void } => {
  let release = (): void => {};
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { until, release };
};

/**
 * The seed's rules for commands and model standing, through the shipped assembly with real bots, the panel's
 * WebSocket and a scripted model: a slash line in the panel is a command as in game chat; command trees,
 * completions and the panel's list leave out workflows that need a model while the player may not call one (AI off,
 * `simple` mode, quota used up) and come back when that changes; turning external services off stops a running
 * reasoning or free-chat request before its next model call.
 */
describe("commands and model standing (shipped server)", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let admin: Player;
  let url: string;
  let offset = 0;
  const clock: GameClock = { now: () => Date.now() + offset, timeZone: "UTC" };

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({
      environment: modelEnvironment(model),
      ops: ["Admin"],
      clock,
      // two model calls per player and day: one /reason with a lookup spends it
      files: { "config/system/model.json": JSON.stringify({ dailyCalls: 2 }) },
    });
    url = server.system.panelUrl ?? "";
    admin = await joinPlayer(server.port, "Admin");
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    await server?.close();
    await model?.close();
  });

  it("reads a slash line in the panel as game chat does: unknown or mistyped commands are never routed", async () => {
    const pia = await joinPlayer(server.port, "Pia");
    const panel = await openPanel(url, pia);
    try {
      const before = model.requests.length;
      const ask = (text: string) => panel.request(new ChatRequest(crypto.randomUUID(), text));
      const unknown = await ask("/itme minecraft:diamond");
      expect(unknown.result.failure).toMatchObject({ code: "UNKNOWN_COMMAND", args: ["itme"] });
      expect(shown(unknown)).toContain('"key":"system.error.unknown_command","args":["itme"]');
      const mistyped = await ask("/reasn why is the sky blue");
      expect(mistyped.result.failure).toMatchObject({ code: "UNKNOWN_COMMAND", args: ["reasn"] });
      const usage = await ask("/system item");
      expect(usage.result.failure).toMatchObject({ code: "INPUT_INVALID", args: ["/system item <query>"] });
      expect(shown(usage)).toContain('"key":"system.command.usage","args":["/system item <query>"]');
      const helpArgs = await ask("/help me find diamonds");
      expect(helpArgs.result.failure?.code).toBe("INPUT_INVALID");
      // full-width slash and case, as the game reads them
      const wide = await ask("／ＳＹＳＴＥＭ ITEM minecraft:diamond");
      expect(wide.result.isSuccess()).toBe(true);
      expect(shown(wide)).toContain("minecraft:diamond");
      const item = await ask("/item minecraft:emerald");
      expect(item.result.isSuccess()).toBe(true);
      expect(shown(item)).toContain("minecraft:emerald");
      // none of them reached the model (a routed line would have asked the router)
      expect(model.requests.length).toBe(before);
    } finally {
      panel.close();
      pia.quit();
    }
  }, 60_000);

  it("leaves /reason out of the tree, completions, help and the panel while AI is off or the mode is simple", async () => {
    const bea = await joinWithTrees(server.port, "Bea");
    const panel = await openPanel(url, bea);
    const states: StateResponse[] = [];
    panel.onResponse((response: AgentResponse) => {
      if (response instanceof StateResponse) states.push(response);
    });
    try {
      expect(names(await treeAfter(bea, 0, "reason", true))).toContain("reason");
      expect(await complete(bea, "/system rea", 1)).toContain("reason");

      let from = bea.trees.length;
      await admin.say("/system revoke Bea confirm", (m) => /revoked for Bea/.test(m.text));
      expect(names(await treeAfter(bea, from, "reason", false))).toContain("item");
      expect(await complete(bea, "/system rea", 2)).not.toContain("reason");
      expect(await complete(bea, "/rea", 3)).not.toContain("reason");
      const help = await bea.say("/system help", (m) => m.text.includes("/system item"));
      expect(help.text).not.toContain("/system reason");
      // the open panel gets its list again, without reason
      const state = await waitFor(() =>
        states.find((sent) => !sent.commands.some((entry) => entry.literal === "reason")),
      );
      expect(state.commands.some((entry) => entry.literal === "item")).toBe(true);
      // typed anyway, the command says why
      const refused = await bea.say("/reason why", (m) => /AI features/.test(m.text));
      expect(refused.text).toBe("⚠ AI features are turned off for you.");

      from = bea.trees.length;
      await admin.say("/system grant Bea", (m) => /Bea/.test(m.text));
      await treeAfter(bea, from, "reason", true);
      expect(await complete(bea, "/system rea", 4)).toContain("reason");

      from = bea.trees.length;
      await bea.say("/system mode simple", (m) => /Your mode is now simple/.test(m.text));
      await treeAfter(bea, from, "reason", false);
      from = bea.trees.length;
      await bea.say("/system mode routing", (m) => /Your mode is now routing/.test(m.text));
      await treeAfter(bea, from, "reason", true);
    } finally {
      panel.close();
      bea.quit();
    }
  }, 90_000);

  it("leaves /reason out once the player's daily quota is used up, and brings it back the next day", async () => {
    const quinn = await joinWithTrees(server.port, "Quinn");
    try {
      await treeAfter(quinn, 0, "reason", true);
      const from = quinn.trees.length;
      model.script(
        reply({ type: "system:player.info", input: {} }),
        reply({ type: "answer", text: "You are standing in a flat world." }),
      );
      await quinn.say("/reason where am I", (m) => /flat world/.test(m.text));
      // the second call used the quota up: the tree is sent again without reason
      expect(names(await treeAfter(quinn, from, "reason", false))).toContain("item");
      expect(await complete(quinn, "/system rea", 5)).not.toContain("reason");
      const help = await quinn.say("/system help", (m) => m.text.includes("/system item"));
      expect(help.text).not.toContain("/system reason");
      const refused = await quinn.say("/reason again", (m) => /quota/.test(m.text));
      expect(refused.text).toContain("You have used up today's AI quota");

      // midnight: the quota is back, and so is the command (the host's periodic tick sends the tree again)
      const next = quinn.trees.length;
      offset += DAY_MILLIS;
      await server.system.assistant.tickPlaytime();
      await treeAfter(quinn, next, "reason", true);
      expect(await complete(quinn, "/system rea", 6)).toContain("reason");
    } finally {
      quinn.quit();
    }
  }, 90_000);

  /** Runs `line` with its first model reply held, switches external services off in the panel meanwhile. */
  const stopWhenExternalOff = async (name: string, line: string, first: unknown): Promise<Player> => {
    const player = await joinPlayer(server.port, name);
    const panel = await openPanel(url, player);
    const uuid = server.system.host.players().find((online) => online.name === name)?.uuid ?? "";
    const preferences = () => server.system.assistant.infrastructure.conversation.preferences(uuid);
    try {
      const before = model.requests.length;
      const gate = held();
      // only the first decision is scripted: a second model call would get the empty script's error
      model.script({ ...reply(first), until: gate.until });
      const answer = player.say(line, (m) => /External services/.test(m.text));
      // the first model call waits; the player switches external services off in the panel meanwhile
      await model.waitForRequests(before + 1);
      panel.send(new PreferencesRequest(true, false));
      await waitFor(async () => ((await preferences()).external ? undefined : true));
      gate.release();
      const stopped = await answer;
      expect(stopped.text).toBe(
        "⚠ External services are turned off in your settings, so System makes no AI model call for you. Turn them on in the web panel or with /system settings external on.",
      );
      // the decision's action ran, then no further model call was made
      expect(model.requests.length).toBe(before + 1);
      expect(model.pending).toBe(0);
      return player;
    } finally {
      panel.close();
    }
  };

  it("stops a running /reason before its next model call when the player turns external services off", async () => {
    const eve = await stopWhenExternalOff("Eve", "/reason where am I and what do I hold", {
      type: "system:player.info",
      input: {},
    });
    eve.quit();
  }, 60_000);

  it("stops a running free chat before its next model call when the player turns external services off", async () => {
    const fay = await stopWhenExternalOff("Fay", "/system free what is a diamond", {
      type: "system:item_query",
      input: { query: "diamond" },
    });
    try {
      // the workflow the first decision chose ran and showed its card
      expect(fay.chat.some((m) => m.text.includes("ID: minecraft:diamond"))).toBe(true);
    } finally {
      fay.quit();
    }
  }, 60_000);
});
