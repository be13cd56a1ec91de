import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import { writeContentServer, writeGameJar, zipBytes } from "../support/content-pack.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
  tempFolder,
} from "./gateway-support.js";
import { modelEnvironment } from "./system-support.js";

const BOOK = join(import.meta.dirname, "../fixtures/ftbquests/modded");
const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

const write = (folder: string, files: Record<string, string>): void => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
};

/**
 * A modpack's server behind the shipped gateway: the server folder (`serverDir` in gateway.json) holds the
 * fixture mods (Farmer's Delight, Create, Mekanism, AE2, a Fabric mod), a datapack, KubeJS and a quest book of
 * modded items. Players look items up by id and by name in both languages, read quests whose requirements are
 * modded, and the reasoning workflow goes from a quest to where its item comes from.
 */
describe("gateway: the server's own content (mods, datapacks, KubeJS)", () => {
  let backend: PlainBackend;
  let model: ScriptedModelServer;
  let gateway: GatewayUnderTest;
  let steve: Bot;
  let li: Bot;
  let steveChat: ChatMessage[];
  let liChat: ChatMessage[];
  let serverDir: string;

  beforeAll(async () => {
    serverDir = tempFolder("gateway-modpack-");
    await writeContentServer(serverDir);
    // the game's own jar where vanilla unpacks it: vanilla's furnace recipes and item tags
    await writeGameJar(serverDir, "versions");
    write(serverDir, { "server.properties": "level-name=world\n" });
    cpSync(BOOK, join(serverDir, "config/ftbquests/quests"), { recursive: true });
    const dataDir = tempFolder("gateway-modpack-data-");
    write(dataDir, {
      "config/system/gateway.json": JSON.stringify({ serverDir }),
      // Steve is one of System's operators, as an admin of the gateway lists themself
      "config/system/server.json": JSON.stringify({ ops: ["Steve"] }),
    });
    backend = await startPlainBackend();
    model = await ScriptedModelServer.start();
    gateway = await startGatewayFor(backend.port, {
      assistant: true,
      dataDir,
      environment: modelEnvironment(model),
    });
    steve = await joinBot(gateway.port, "Steve", (bot) => {
      steveChat = recordChat(bot);
    });
    li = await joinBot(gateway.port, "Li", (bot) => {
      liChat = recordChat(bot);
    });
    li._client.write("settings", {
      locale: "zh_cn",
      viewDistance: 2,
      chatFlags: 0,
      chatColors: true,
      skinParts: 127,
      mainHand: 1,
      enableTextFiltering: false,
      enableServerListing: true,
      particles: 0,
    });
  }, 120_000);

  afterAll(async () => {
    steve?.quit();
    li?.quit();
    await gateway?.close();
    await backend?.close();
    await model?.close();
  });

  /** Li's reply once the gateway holds Li's Chinese settings (the first replies may still be English). */
  const inChinese = async (line: string, match: (message: ChatMessage) => boolean): Promise<ChatMessage> => {
    for (let attempt = 0; ; attempt++) {
      const answer = await command(li, liChat, line, (message) => message.text.length > 0);
      if (match(answer)) return answer;
      if (attempt > 20) throw new Error(`no Chinese reply to ${line}: ${answer.text}`);
    }
  };

  it("says at start what it read from the server folder", () => {
    expect(gateway.logger.has("content: 7 mods,")).toBe(true);
  });

  it("looks a modded item up by id and by name: mod, names, recipes with their station and tag items, drops", async () => {
    const card = await command(steve, steveChat, "/system item create:andesite_alloy", (m) =>
      m.text.startsWith("Andesite Alloy"),
    );
    expect(card.text).toContain("Andesite Alloy (安山合金)");
    expect(card.text).toContain("from Create");
    // the mixer, by Create's own word for it, and the crafting grid with the tag shown as its item
    expect(card.text).toMatch(/1× Andesite, 1× Iron Nugget → makes 1 \(Mixing\)/);
    expect(card.text).toMatch(/2× Iron Nugget, 2× Andesite → makes 1 \(crafting table\)/);
    // KubeJS removed the zinc recipe
    expect(card.text).not.toContain("Zinc Nugget");
    const byName = await command(steve, steveChat, "/system item steel ingot", (m) =>
      m.text.startsWith("Steel Ingot"),
    );
    expect(byName.text).toContain("mekanism:ingot_steel");
    expect(byName.text).toContain("from Mekanism");
    expect(byName.text).toMatch(/1× Steel Dust → makes 1 \(furnace\)/);
    const ore = await command(steve, steveChat, "/system item raw osmium", (m) =>
      m.text.startsWith("Raw Osmium"),
    );
    expect(ore.text).toContain("Osmium Ore");
  });

  it("lists the server's mods, asked by command or in plain words, and one mod with its items", async () => {
    const list = await command(steve, steveChat, "/system mods", (m) => m.text.startsWith("Mods on this"));
    // every mod of the folder, those that add the most items first, with its version; library mods last
    expect(list.text).toBe(
      [
        "Mods on this server (8):",
        "Farmer's Delight 1.20.1-1.2.4 — items: 7",
        "Mekanism 10.7.7 — items: 7",
        "Applied Energistics 2 19.2.17 — items: 4",
        "Create 0.5.1.f — items: 4",
        "Copperworks 1.0.0 — items: 1",
        "KubeJS — items: 1",
        "Copperworks API 1.0.0",
        "Flywheel 0.6.10",
        "[Items of Farmer's Delight] [Items of Mekanism] [Items of Applied Energistics 2] [Items of Create]",
      ].join("\n"),
    );
    const asked = await command(steve, steveChat, "/system what mods are installed", (m) => m !== list);
    expect(asked.text).toBe(list.text);
    const create = await command(steve, steveChat, "/system mods create", (m) => m.text.startsWith("Create"));
    expect(create.text).toBe(
      "Create 0.5.1.f (create · Forge)\nItems (4): Andesite Alloy, Andesite Casing, Mechanical Mixer, Zinc Nugget\n" +
        "[Look up: Andesite Alloy] [Look up: Andesite Casing] [Look up: Mechanical Mixer] [Look up: Zinc Nugget]",
    );
    // asked whether one mod is there: that mod, directly or as the choice card's first button
    const installed = await command(steve, steveChat, "/system is create installed", (m) => m !== create);
    expect(installed.text).toBe(create.text);
    const have = await command(
      steve,
      steveChat,
      "/system does the server have mekanism",
      (m) => m !== installed,
    );
    // (this gateway's scripted model has no reply scripted here, so the card says the model is unreachable)
    expect(have.text).toMatch(/pick one:\n.*\[Mod: Mekanism\]/is);
    const unknown = await command(steve, steveChat, "/system mods thaumcraft", (m) => m !== have);
    expect(unknown.text).toBe("No mod on this server matches “thaumcraft”.");
    // Tab completes the mods' ids
    const matches = (await steve.tabComplete("/system mods c", true, false, 20_000)) as unknown[];
    expect(
      matches.map((match) => (typeof match === "string" ? match : (match as { match: string }).match)),
    ).toEqual(["copperworks", "copperworks_api", "create"]);
    const zh = await inChinese("/system 服务器有哪些模组", (m) => m.text.startsWith("本服务器的模组"));
    expect(zh.text).toContain("Create 0.5.1.f — 物品 4 种");
    expect(zh.text).toContain("[Create 的物品]");
  });

  it("shows vanilla's own furnace recipes and tags from the server's game jar, not minecraft-data's grids twice", async () => {
    expect(gateway.logger.has(", vanilla's recipes and tags from versions/1.21.1/server-1.21.1.jar (")).toBe(
      true,
    );
    const iron = await command(steve, steveChat, "/system item minecraft:iron_ingot", (m) =>
      m.text.startsWith("Iron Ingot"),
    );
    expect(iron.text).toMatch(/1× Raw Iron → makes 1 \(furnace\)/);
    expect(iron.text.match(/9× Iron Nugget → makes 1/g)).toHaveLength(1);
    // the datapack's steel recipe takes any coal: vanilla's tag, now known
    const steel = await command(steve, steveChat, "/system item mekanism:ingot_steel", (m) =>
      m.text.startsWith("Steel Ingot"),
    );
    expect(steel.text).not.toContain("#minecraft:coals");
    expect(steel.text).toMatch(/Coal|Charcoal/);
    // what an item is used in: the pack's recipes (the datapack's steel takes coal through vanilla's tag)
    const dust = await command(steve, steveChat, "/system what can I make with steel dust", (m) =>
      m.text.startsWith("Steel Dust"),
    );
    expect(dust.text).toMatch(/\nUsed in: Steel Ingot\n/);
    const coal = await command(steve, steveChat, "/system item minecraft:coal", (m) =>
      m.text.startsWith("Coal"),
    );
    expect(coal.text).toContain("Used in: Steel Ingot");
  });

  it("answers in Chinese with the pack's Chinese names", async () => {
    const card = await inChinese("/system item 安山合金", (m) =>
      m.text.startsWith("安山合金（Andesite Alloy）"),
    );
    expect(card.text).toContain("来自 Create");
    expect(card.text).toContain("混合搅拌");
    expect(card.text).toContain("工作台");
    const steel = await command(li, liChat, "/system item 钢锭", (m) => m.text.startsWith("钢锭"));
    expect(steel.text).toContain("熔炉");
  });

  it("routes modded names in plain language to the item look-up without a model", async () => {
    const before = model.requests.length;
    const zh = await command(li, liChat, "/system 安山合金怎么做", (m) => m.text.startsWith("安山合金（"));
    expect(zh.text).toContain("create:andesite_alloy");
    const en = await command(steve, steveChat, "/system how do I make a steel ingot", (m) =>
      m.text.startsWith("Steel Ingot"),
    );
    expect(en.text).toContain("mekanism:ingot_steel");
    expect(model.requests.length).toBe(before);
  });

  it("names a quest's modded requirements and expands filter items to what they accept", async () => {
    const first = await command(steve, steveChat, "/system quest the first alloy", (m) =>
      m.text.startsWith("The first alloy"),
    );
    expect(first.text).toContain("Andesite Alloy (0/16)");
    const steel = await command(steve, steveChat, "/system quest steel works", (m) =>
      m.text.startsWith("Steel works"),
    );
    expect(steel.text).toContain("Steel Ingot (0/8)");
    expect(steel.text).toContain("Any of: Iron Nugget");
    expect(steel.text).toContain("Any of: Steel Ingot, Logic Processor");
    const zh = await inChinese("/system quest 第一块合金", (m) => m.text.startsWith("第一块合金"));
    expect(zh.text).toContain("☐ 安山合金（0/16）");
  });

  it("reasons from a modded quest to where its item comes from, with a scripted model", async () => {
    const before = model.requests.length;
    model.script(
      reply({ type: "system:ftb.detail", input: { quest: "6000000000000001" } }),
      reply({ type: "system:item.sources", input: { item: "create:andesite_alloy" } }),
      reply({ type: "answer", text: "Mix andesite with an iron nugget in a mechanical mixer." }),
    );
    const answer = await command(
      steve,
      steveChat,
      "/reason what does my first alloy quest need and where does it come from",
      (m) => m.text.includes("mechanical mixer"),
      40_000,
    );
    expect(answer.text).toContain("Mix andesite with an iron nugget");
    const calls = model.requests.slice(before);
    expect(calls).toHaveLength(3);
    const observations = JSON.stringify(
      (calls[2]?.user as { observations?: unknown[] } | undefined)?.observations,
    );
    // the quest's task named the modded item; its sources came from Create's recipes
    expect(observations).toContain("Andesite Alloy");
    expect(observations).toContain("create:mixing");
    expect(observations).toContain("minecraft:iron_nugget");
  });

  it("reasons over the server's mods with the read tool system:mods.list, with a scripted model", async () => {
    const before = model.requests.length;
    model.script(
      reply({ type: "system:mods.list", input: {} }),
      reply({ type: "answer", text: "Farmer's Delight and Mekanism add the most items: 7 each." }),
    );
    const answer = await command(
      steve,
      steveChat,
      "/reason which mod adds the most items",
      (m) => m.text.includes("the most items"),
      40_000,
    );
    expect(answer.text).toContain("7 each");
    const calls = model.requests.slice(before);
    expect(calls).toHaveLength(2);
    const observations = JSON.stringify(
      (calls[1]?.user as { observations?: unknown[] } | undefined)?.observations,
    );
    expect(observations).toContain("Farmer's Delight");
    expect(observations).toContain(
      '"name":"Farmer\'s Delight","version":"1.20.1-1.2.4","loader":"forge","items":7',
    );
  });

  it("reads a mod added to the folder at /system reload", async () => {
    const jar = new Map([
      ["META-INF/mods.toml", Buffer.from('[[mods]]\nmodId="oddmod"\ndisplayName="Odd Mod"\nversion="1.0"\n')],
      ["assets/oddmod/lang/en_us.json", Buffer.from(JSON.stringify({ "item.oddmod.odd_dust": "Odd Dust" }))],
    ]);
    const before = await command(steve, steveChat, "/system item oddmod:odd_dust", (m) =>
      m.text.includes("odd"),
    );
    expect(before.text).toContain("No item matches");
    writeFileSync(join(serverDir, "mods", "oddmod.jar"), await zipBytes(jar));
    const reloaded = await command(steve, steveChat, "/system reload", (m) => m.text.startsWith("Reloaded"));
    expect(reloaded.text).toContain("server content");
    const after = await command(steve, steveChat, "/system item odd dust", (m) =>
      m.text.startsWith("Odd Dust"),
    );
    expect(after.text).toContain("from Odd Mod");
  });
});
