import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentResult } from "../../src/agent/agent-result.js";
import { AgentCommand } from "../../src/agent/command/agent-command.js";
import { AbstractAgentModule } from "../../src/agent/module/abstract-agent-module.js";
import { ActionType } from "../../src/agent/module/action-type.js";
import { ModuleRouting } from "../../src/agent/module/module-routing.js";
import type { AnyServerModuleType, ServerModule } from "../../src/module/server-module.js";
import { codec } from "../../src/util/codec.js";
import { Identifier } from "../../src/util/identifier.js";
import { type ChatMessage, command, type GameUnderTest, recordChat, startGame } from "./assistant-support.js";
import { joinBot, tempFolder, waitFor } from "./host-support.js";

/** An extension feature whose only workflow throws: the player must get an error card, the server must live. */
const BOOM = ActionType.of("test:boom", codec(z.object({})));
class BoomModule extends AbstractAgentModule<Record<string, never>> {
  constructor() {
    super({
      action: BOOM,
      description: "Always fails.",
      routing: ModuleRouting.structuredOnly<Record<string, never>>().command(
        AgentCommand.literal({}, "boom"),
      ),
    });
  }
  run(): Promise<AgentResult> {
    throw new Error("boom: a bug in an extension");
  }
}
const BOOM_TYPE: AnyServerModuleType = {
  id: Identifier.parse("test:boom"),
  config: codec(z.unknown()),
  create: (id): ServerModule => ({
    id,
    type: Identifier.parse("test:boom"),
    enabledByDefault: true,
    toolModule: false,
    install: (context) => context.engine.registerModule(new BoomModule()),
    storages: () => [],
  }),
};

describe("System in a real flying-squid world with mineflayer bots", () => {
  let game: GameUnderTest;
  let admin: Bot;
  let player: Bot;
  let adminChat: ChatMessage[];
  let playerChat: ChatMessage[];
  const trees: { bot: string; names: string[] }[] = [];

  beforeAll(async () => {
    const folder = tempFolder("system-game-");
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    mkdirSync(join(folder, "datapacks", "data", "test", "system_module"), { recursive: true });
    writeFileSync(
      join(folder, "datapacks", "data", "test", "system_module", "boom.json"),
      JSON.stringify({ type: "test:boom" }),
    );
    game = await startGame(folder, {
      ops: ["Admin"],
      extraTypes: [BOOM_TYPE],
    });
    const watchTree = (bot: Bot, name: string): void => {
      bot._client.on("declare_commands", (packet: { nodes: { extraNodeData?: { name?: string } }[] }) => {
        trees.push({ bot: name, names: packet.nodes.map((node) => node.extraNodeData?.name ?? "") });
      });
    };
    admin = await joinBot(game.host.port, "Admin", (bot) => watchTree(bot, "Admin"));
    player = await joinBot(game.host.port, "Steve", (bot) => watchTree(bot, "Steve"));
    adminChat = recordChat(admin);
    playerChat = recordChat(player);
  }, 90_000);

  afterAll(async () => {
    admin?.quit();
    player?.quit();
    await game?.close();
  });

  it("answers /system item minecraft:diamond with a card listing its sources", async () => {
    const card = await command(player, playerChat, "/system item minecraft:diamond", (m) =>
      m.text.includes("minecraft:diamond"),
    );
    expect(card.text).toMatch(/Diamond/);
    expect(card.text).toMatch(/Block of Diamond/);
    expect(card.text).toMatch(/Diamond Ore/);
  });

  it("runs a card button when its click command is replayed", async () => {
    const card = await command(
      player,
      playerChat,
      "/system item minecraft:iron_ingot",
      (m) => m.clicks.length > 0,
    );
    const click = card.clicks.find((value) => value.startsWith("/system card "));
    expect(click).toBeDefined();
    // the card's first button opens the card of a related item
    const next = await command(player, playerChat, click!, (m) =>
      /\nID: minecraft:|not valid|unknown card/i.test(m.text),
    );
    expect(next.text).not.toMatch(/not valid|unknown card/i);
    expect(next.text).toMatch(/\nID: minecraft:\w+ · stacks to/);
    // A forged index on the same page is refused, with a clear message and no effect.
    const forged = click!.replace(/ \d+$/, " 99");
    const refused = await command(player, playerChat, forged, (m) => /not valid/i.test(m.text));
    expect(refused.text).toMatch(/not valid/i);
  });

  it("checks in once a day and delivers the reward into the inventory", async () => {
    const breadBefore = player.inventory
      .items()
      .filter((item) => item.name === "bread")
      .reduce((sum, item) => sum + item.count, 0);
    const first = await command(player, playerChat, "/system checkin", (m) =>
      /Checked in|already/i.test(m.text),
    );
    expect(first.text).toMatch(/Checked in/);
    await waitFor(() => {
      const bread = player.inventory
        .items()
        .filter((item) => item.name === "bread")
        .reduce((sum, item) => sum + item.count, 0);
      return bread > breadBefore ? true : undefined;
    }, 15_000);
    // the same action under its other alias, within the replay window: the stored answer, read as a repeat that
    // announces no reward again; nothing runs again
    const second = await command(player, playerChat, "/system 签到", (m) =>
      /Checked in|already/i.test(m.text),
    );
    expect(second.text).toMatch(
      /^You have already checked in today .*\n↻ This repeats the answer given \d+ s ago/s,
    );
  });

  it("lets an op grant and revoke AI access and refuses a non-op", async () => {
    const granted = await command(admin, adminChat, "/system grant Steve", (m) =>
      /granted|not/i.test(m.text),
    );
    expect(granted.text).toMatch(/AI access granted to Steve/);
    const revoked = await command(admin, adminChat, "/system revoke Steve confirm", (m) =>
      /revoked|not/i.test(m.text),
    );
    expect(revoked.text).toMatch(/AI access revoked for Steve/);
    expect(
      game.assistant.permissions.snapshot(player.username === "Steve" ? uuidOf(game, "Steve") : "").ai,
    ).toBe(false);
    // a late notice (the check-in reward above) may arrive meanwhile: wait for the reply to this line
    const refused = await command(player, playerChat, "/system grant Steve", (m) =>
      /Unknown command|granted/i.test(m.text),
    );
    expect(refused.text).toMatch(/Unknown command/i);
    expect(game.assistant.permissions.snapshot(uuidOf(game, "Steve")).ai).toBe(false);
    await command(admin, adminChat, "/system grant Steve", (m) => /granted/i.test(m.text));
  });

  it("sends each client its own command tree: admin nodes only to the op", async () => {
    const adminTree = await waitFor(() =>
      trees.find((tree) => tree.bot === "Admin" && tree.names.includes("grant")),
    );
    const playerTree = await waitFor(() =>
      trees.find((tree) => tree.bot === "Steve" && tree.names.includes("item")),
    );
    expect(adminTree.names).toEqual(expect.arrayContaining(["system", "item", "checkin", "grant", "usage"]));
    expect(playerTree.names).not.toContain("grant");
    expect(playerTree.names).not.toContain("reset");
  });

  it("answers tab completion from the Brigadier tree, filtered per player", async () => {
    const complete = (bot: Bot, text: string): Promise<string[]> =>
      new Promise((resolve) => {
        bot._client.once("tab_complete", (packet: { matches: { match: string }[] }) =>
          resolve(packet.matches.map((m) => m.match)),
        );
        bot._client.write("tab_complete", { transactionId: 3, text });
      });
    expect(await complete(admin, "/system gr")).toContain("grant");
    expect(await complete(player, "/system gr")).not.toContain("grant");
    expect(await complete(player, "/system it")).toContain("item");
  });

  it("never shows one player's data to another", async () => {
    const mine = await command(player, playerChat, "/system me", (m) => /Steve|Health|health/i.test(m.text));
    expect(mine.text).not.toMatch(/Admin/);
    const adminFrom = adminChat.length;
    await command(player, playerChat, "/system item minecraft:gold_ingot", (m) =>
      m.text.includes("gold_ingot"),
    );
    expect(adminChat.slice(adminFrom).some((m) => m.text.includes("gold_ingot"))).toBe(false);
  });

  it("lets an admin add knowledge in game that players then find with /question, and remove it", async () => {
    const refused = await command(player, playerChat, "/system knowledge add Portals | secret", (m) =>
      /Unknown command|Knowledge entry/.test(m.text),
    );
    expect(refused.text).toMatch(/Unknown command/i);
    const added = await command(
      admin,
      adminChat,
      "/system knowledge add Nether portal | Build an obsidian frame four wide and five tall, then light it.",
      (m) => /Knowledge entry/.test(m.text),
    );
    const id = /#(\d+)/.exec(added.text)?.[1];
    expect(id).toBeDefined();
    const answer = await command(
      player,
      playerChat,
      "/question nether portal",
      (m) => /obsidian/i.test(m.text) || /Nothing/i.test(m.text),
    );
    expect(answer.text).toMatch(/obsidian frame/);
    const removed = await command(admin, adminChat, `/system knowledge remove ${id}`, (m) =>
      /removed|Nothing/i.test(m.text),
    );
    expect(removed.text).toMatch(/removed/);
  });

  it("answers a module that throws with an error card and keeps serving", async () => {
    const failed = await command(player, playerChat, "/system boom", (m) => /went wrong|boom/i.test(m.text));
    expect(failed.text).toMatch(/went wrong/i);
    const after = await command(player, playerChat, "/system item minecraft:stick", (m) =>
      m.text.includes("minecraft:stick"),
    );
    expect(after.text).toMatch(/Stick/);
  });
});

const uuidOf = (game: GameUnderTest, name: string): string => {
  const found = game.host.players().find((player) => player.name === name);
  if (found === undefined) throw new Error(`${name} is not online`);
  return found.uuid;
};
