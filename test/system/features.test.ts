import type { EventEmitter } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeclareCommandsPacket } from "../../src/host/shared/declare-commands.js";
import { gate, ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  command,
  joinBot,
  joinPlayer,
  modelEnvironment,
  type Player,
  recordChat,
  type ShippedServer,
  startShipped,
  uuidOf,
  waitFor,
} from "./system-support.js";

const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

const count = (player: Player, name: string): number =>
  player.bot.inventory
    .items()
    .filter((item) => item.name === name)
    .reduce((sum, item) => sum + item.count, 0);

const checkInReply = (text: string): boolean => /Checked in|already checked in/.test(text);

/** The second check-in configuration, for players an admin grants it to (a tag names it). */
const VIP_CHECK_IN = JSON.stringify({
  type: "system:check_in",
  enabled_by_default: false,
  server: { rewards: [{ item: "minecraft:diamond", count: 2 }] },
  client: { icon: "minecraft:diamond", label: "VIP check-in" },
});

/**
 * Features an admin switches at runtime, and one feature type configured twice, through the shipped assembly
 * (startSystem) with real bots: commands leave and come back in the bot's command tree, a running request ends,
 * grants pick which check-in a player has.
 */
describe("features switched at runtime (shipped server)", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let admin: Player;
  let steve: Player;
  let alex: Player;
  const trees: DeclareCommandsPacket[] = [];

  const names = (tree: DeclareCommandsPacket | undefined): (string | undefined)[] =>
    tree?.nodes.map((node) => node.extraNodeData?.name) ?? [];

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({
      environment: modelEnvironment(model),
      ops: ["Admin"],
      files: {
        "datapacks/data/vip/system_module/check_in.json": VIP_CHECK_IN,
        "datapacks/data/vip/tags/system_module/members.json": JSON.stringify({ values: ["vip:check_in"] }),
      },
    });
    admin = await joinPlayer(server.port, "Admin");
    const bot = await joinBot(server.port, "Steve", (created) => {
      (created._client as unknown as EventEmitter).on("declare_commands", (packet: DeclareCommandsPacket) =>
        trees.push(packet),
      );
    });
    const chat = recordChat(bot);
    steve = {
      bot,
      chat,
      say: (line, match, timeoutMillis) => command(bot, chat, line, match, timeoutMillis),
      next: () => Promise.reject(new Error("unused")),
      quit: () => bot.quit(),
    };
    alex = await joinPlayer(server.port, "Alex");
  }, 120_000);

  afterAll(async () => {
    for (const player of [admin, steve, alex]) player?.quit();
    await server?.close();
    await model?.close();
  });

  it("lists every feature with its state, who has it and its type", async () => {
    const list = await admin.say("/system feature list", (m) => m.text.startsWith("Features"));
    expect(list.text).toContain("system:item_query · on · everyone · system:item_query");
    expect(list.text).toContain("vip:check_in · on · granted only · system:check_in");
    expect(list.text).toContain("system:core · always on");
    // no quest files on this server: the quests feature is not installed and appears nowhere
    expect(list.text).not.toContain("system:ftb_quests");
    expect(server.logger.has("feature system:ftb_quests is not installed: no FTB Quests files")).toBe(true);
    const refused = await admin.say("/system feature disable system:core", (m) =>
      /cannot be switched/.test(m.text),
    );
    expect(refused.text).toContain("belongs to the server itself");
    const unknown = await admin.say("/system feature disable system:nothing", (m) =>
      /not found|Nothing/i.test(m.text),
    );
    expect(unknown.text).toContain("system:nothing");
  });

  it("switching a feature off removes it from the bot's command tree, completions and help; on restores it", async () => {
    await waitFor(() => (names(trees.at(-1)).includes("item") ? true : undefined));
    const before = trees.length;
    const off = await admin.say("/system feature disable system:item_query", (m) =>
      /Switched off/.test(m.text),
    );
    expect(off.text).toContain("system:item_query");
    // the first tree sent after the switch without `item` (a tree queued before it may still arrive first)
    const tree = await waitFor(() => trees.slice(before).find((sent) => !names(sent).includes("item")));
    expect(names(tree)).not.toContain("item");
    expect(names(tree)).toContain("checkin");
    const completion = new Promise<{ matches: { match: string }[] }>((resolve) =>
      steve.bot._client.once("tab_complete", resolve),
    );
    steve.bot._client.write("tab_complete", { transactionId: 41, text: "/system ite" });
    expect((await completion).matches.map((entry) => entry.match)).not.toContain("item");
    const help = await steve.say("/system help", (m) => /checkin/.test(m.text));
    expect(help.text).not.toMatch(/\/system item\b/);
    const refused = await steve.say("/system item minecraft:diamond", (m) =>
      /Unknown command|minecraft:diamond/.test(m.text),
    );
    expect(refused.text).toBe("⚠ Unknown command: item");
    const saved = JSON.parse(readFileSync(join(server.folder, "config/system/features.json"), "utf8"));
    expect(saved.enabled["system:item_query"]).toBe(false);

    const again = trees.length;
    await admin.say("/system feature enable system:item_query", (m) => /Switched on/.test(m.text));
    expect(
      names(await waitFor(() => trees.slice(again).find((sent) => names(sent).includes("item")))),
    ).toContain("item");
    const card = await steve.say("/system item minecraft:diamond", (m) => m.text.includes("Diamond"));
    expect(card.text).toContain("Diamond");
  });

  it("ends a request in flight when its feature is switched off", async () => {
    const before = model.requests.length;
    // the model's first reply is held until the feature is off: the request is in flight meanwhile
    const hold = gate();
    model.script(
      { ...reply({ type: "system:database.query", input: { query: "Diamonds" } }), until: hold.until },
      reply({ type: "answer", text: "Never shown." }),
    );
    const answer = alex.say("/reason where are diamonds", (m) => /not enabled|Never shown/.test(m.text));
    await model.waitForRequests(before + 1);
    const off = await admin.say("/system feature disable system:reasoning", (m) =>
      /Switched off/.test(m.text),
    );
    hold.release();
    expect(off.text).toContain("1 running request(s) ended");
    expect((await answer).text).toContain("This feature is not enabled for you");
    expect(model.requests.length - before).toBe(1);
    await admin.say("/system feature enable system:reasoning", (m) => /Switched on/.test(m.text));
  });

  it("gives two players the check-in configuration each one has: the default, or the one a grant (by tag) picks", async () => {
    const granted = await admin.say("/system grant Alex #vip:members", (m) => /granted/.test(m.text));
    expect(granted.text).toContain("#vip:members");
    const steveIn = await steve.say("/system checkin", (m) => checkInReply(m.text));
    expect(steveIn.text).toMatch(/^Checked in!/);
    const alexIn = await alex.say("/system checkin", (m) => checkInReply(m.text));
    expect(alexIn.text).toMatch(/^Checked in!/);
    expect(alexIn.text).toContain("Diamond");
    await waitFor(() => (count(steve, "bread") === 3 ? true : undefined));
    await waitFor(() => (count(alex, "diamond") === 2 ? true : undefined));
    expect(count(steve, "diamond")).toBe(0);
    expect(count(alex, "bread")).toBe(0);
    // one owner per action: Alex has the VIP check-in only, so the default one's record is untouched
    const records = server.system.assistant.modules.statuses().map((status) => status.id);
    expect(records).toContain("vip:check_in");
    expect(server.system.assistant.modules.get("vip:check_in")?.entry.client).toMatchObject({
      label: "VIP check-in",
    });
    // switched off and on again, a feature keeps what players stored with it
    await admin.say("/system feature disable system:check_in", (m) => /Switched off/.test(m.text));
    await admin.say("/system feature enable system:check_in", (m) => /Switched on/.test(m.text));
    const record = await server.system.assistant.infrastructure.store.record(uuidOf(server.system, "Steve"));
    expect(JSON.stringify(record)).toContain("system:check_in");
  });

  it("applies data-pack changes on reload: on/off, a changed config, a new entry; a new type waits for a restart", async () => {
    const vip = join(server.folder, "datapacks/data/vip/system_module/check_in.json");
    writeFileSync(vip, JSON.stringify({ ...JSON.parse(VIP_CHECK_IN), enabled: false }));
    const reloaded = await admin.say("/system reload", (m) => m.text.startsWith("Reloaded"));
    expect(reloaded.text).not.toContain("after a restart");
    const off = await admin.say("/system feature list", (m) => m.text.startsWith("Features"));
    expect(off.text).toContain("vip:check_in · off");

    // a changed reward and a third configuration, both live after the reload
    writeFileSync(
      vip,
      JSON.stringify({
        type: "system:check_in",
        enabled_by_default: false,
        server: { rewards: [{ item: "minecraft:emerald", count: 1 }] },
      }),
    );
    writeFileSync(
      join(server.folder, "datapacks/data/vip/system_module/gold.json"),
      JSON.stringify({
        type: "system:check_in",
        enabled_by_default: false,
        server: { rewards: [{ item: "minecraft:gold_ingot", count: 4 }] },
      }),
    );
    writeFileSync(
      join(server.folder, "datapacks/data/vip/system_module/odd.json"),
      JSON.stringify({ type: "vip:not_installed_type" }),
    );
    const changed = await admin.say("/system reload", (m) => m.text.startsWith("Reloaded"));
    expect(changed.text).toContain("take effect after a restart: vip:odd");
    expect(changed.text).not.toContain("vip:check_in");
    const list = await admin.say("/system feature list", (m) => m.text.startsWith("Features"));
    expect(list.text).toContain("vip:check_in · on · granted only");
    expect(list.text).toContain("vip:gold · on · granted only · system:check_in");
    await admin.say("/system grant Admin vip:check_in", (m) => /granted/.test(m.text));
    const paid = await admin.say("/system checkin", (m) => checkInReply(m.text));
    expect(paid.text).toContain("Emerald");
    await waitFor(() => (count(admin, "emerald") === 1 ? true : undefined));
  });
});
