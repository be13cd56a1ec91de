import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import {
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
  tempFolder,
} from "./gateway-support.js";

const BOOK = join(import.meta.dirname, "../fixtures/ftbquests/system-basics");

/** Writes files (folder-relative path → text). */
const write = (folder: string, files: Record<string, string>): void => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
};

/** An admin's server folder: server.properties and the FTB quest book in config/ftbquests/quests/. */
const serverFolder = (levelName: string): string => {
  const folder = tempFolder("gateway-server-dir-");
  write(folder, { "server.properties": `#Minecraft server properties\nlevel-name=${levelName}\n` });
  cpSync(BOOK, join(folder, "config/ftbquests/quests"), { recursive: true });
  return folder;
};

/** A gateway data directory whose gateway.json names the server folder. */
const dataDirFor = (serverDir: string): string => {
  const dataDir = tempFolder("gateway-data-");
  write(dataDir, { "config/system/gateway.json": JSON.stringify({ serverDir }) });
  return dataDir;
};

/** FTB Teams' file of a player's own team (its id is the player's UUID), as the mod writes it. */
const playerTeam = (id: string, name: string): string =>
  `{\n\textra: { }\n\tid: "${id}"\n\tplayer_name: "${name}"\n\tproperties: {\n\t\t"ftbteams:display_name": "${name}"\n\t}\n\tranks: {\n\t\t${id}: "owner"\n\t}\n\ttype: "player"\n}\n`;

/** FTB Quests' TeamData of that team: task progress, completions and claims with their times. */
const teamProgress = (id: string, logs: number, completed: readonly string[], claimed: readonly string[]) =>
  [
    "{",
    "\tclaimed_rewards: {",
    ...claimed.map((reward) => `\t\t"${id.replaceAll("-", "")}:${reward}": 1745000100000L`),
    "\t}",
    "\tcompleted: {",
    ...completed.map((object) => `\t\t${object}: 1745000000000L`),
    "\t}",
    "\tlock: false",
    '\tname: "Miner"',
    "\trewards_blocked: false",
    "\tstarted: {",
    "\t\t2000000000000001: 1744999000000L",
    "\t}",
    "\ttask_progress: {",
    `\t\t3000000000000001: ${logs}L`,
    "\t}",
    `\tuuid: "${id.replaceAll("-", "")}"`,
    "\tversion: 1",
    "}",
    "",
  ].join("\n");

/**
 * Quests through the gateway from the admin's server folder (`serverDir` in gateway.json): without the FTB Quests
 * mod System keeps progress as in the embedded world; with the mod's progress in the world, System shows it
 * (read again after each save) and leaves rewards to the quest book.
 */
describe("gateway: quests from the backend's folder", () => {
  let backend: PlainBackend;
  let plain: GatewayUnderTest;
  let modded: GatewayUnderTest;
  let steve: Bot;
  let miner: Bot;
  let steveChat: ChatMessage[];
  let minerChat: ChatMessage[];
  let moddedDir: string;
  const MINER = offlineUuid("Miner");

  beforeAll(async () => {
    backend = await startPlainBackend();
    plain = await startGatewayFor(backend.port, {
      assistant: true,
      dataDir: dataDirFor(serverFolder("world")),
    });
    moddedDir = serverFolder("pack world");
    write(moddedDir, {
      [`pack world/ftbteams/player/${MINER}.snbt`]: playerTeam(MINER, "Miner"),
      [`pack world/ftbquests/${MINER}.snbt`]: teamProgress(MINER, 2, [], []),
    });
    modded = await startGatewayFor(backend.port, { assistant: true, dataDir: dataDirFor(moddedDir) });
    steve = await joinBot(plain.port, "Steve", (bot) => {
      steveChat = recordChat(bot);
    });
    miner = await joinBot(modded.port, "Miner", (bot) => {
      minerChat = recordChat(bot);
    });
  }, 120_000);

  afterAll(async () => {
    steve?.quit();
    miner?.quit();
    await plain?.close();
    await modded?.close();
    await backend?.close();
  });

  it("says at start who keeps quest progress", () => {
    expect(plain.logger.lines.some((line) => line.includes("quests: 1 chapters, 4 quests from"))).toBe(true);
    expect(plain.logger.lines.some((line) => line.includes("quests: System keeps quest progress"))).toBe(
      true,
    );
    expect(
      modded.logger.lines.some((line) => line.includes("quests: the FTB Quests mod keeps quest progress")),
    ).toBe(true);
  });

  it("lists and shows quests from the server folder's quest book, progress kept by System", async () => {
    const list = await command(steve, steveChat, "/system quests", (m) => m.text.startsWith("Quests you"));
    expect(list.text).toContain("1. Timber! — Getting Started (open)");
    const detail = await command(steve, steveChat, "/system quest 1", (m) => m.text.startsWith("Timber!"));
    // the gateway observes no inventory yet: System's own progress, 0 of 4
    expect(detail.text).toContain("☐ Oak Log (0/4)");
    const rules = await command(steve, steveChat, "/system quest read the rules", (m) =>
      m.text.startsWith("Read the rules"),
    );
    expect(rules.clicks.some((click) => click.startsWith("/system card "))).toBe(true);
  });

  it("shows the mod's progress of the player's team, with no claim or tick button", async () => {
    const detail = await command(miner, minerChat, "/system quest timber", (m) =>
      m.text.startsWith("Timber!"),
    );
    expect(detail.text).toContain("☐ Oak Log (2/4)");
    const rules = await command(miner, minerChat, "/system quest read the rules", (m) =>
      m.text.startsWith("Read the rules"),
    );
    expect(rules.clicks).toEqual([]);
  });

  it("reads the progress again after the mod saved it; rewards are left to the quest book", async () => {
    write(moddedDir, {
      [`pack world/ftbquests/${MINER}.snbt`]: teamProgress(
        MINER,
        4,
        ["3000000000000001", "2000000000000001"],
        [],
      ),
    });
    const complete = await command(miner, minerChat, "/system quest timber", (m) =>
      m.text.startsWith("Timber!"),
    );
    expect(complete.text).toContain("(complete)");
    expect(complete.text).toContain("✔ Oak Log");
    expect(complete.text).toContain("Rewards to claim in the quest book.");
    expect(complete.clicks).toEqual([]);
    const list = await command(miner, minerChat, "/system quests", (m) => m.text.startsWith("Quests you"));
    expect(list.text).toContain("Timber! — Getting Started (complete, rewards to claim)");
    // Stone Age depends on Timber!: unlocked by the mod's completion
    expect(list.text).toContain("Stone Age");
    write(moddedDir, {
      [`pack world/ftbquests/${MINER}.snbt`]: teamProgress(
        MINER,
        4,
        ["3000000000000001", "2000000000000001"],
        ["4000000000000001"],
      ),
    });
    const claimed = await command(miner, minerChat, "/system quest timber", (m) =>
      m.text.startsWith("Timber!"),
    );
    expect(claimed.text).toContain("Rewards claimed.");
  });
});
