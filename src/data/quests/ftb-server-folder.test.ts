import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolders } from "../../../test/support/temp-folders.js";
import { FtbProgressFiles, inspectServerFolder, levelName } from "./ftb-server-folder.js";

const newFolder = tempFolders("system-ftb-server-");

/** A server folder holding the given files (server-relative path → text). */
const serverFolder = (files: Record<string, string>): string => {
  const folder = newFolder();
  write(folder, files);
  return folder;
};
const write = (folder: string, files: Record<string, string>): void => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
};

const STEVE = "5627dd98-e6be-3c21-b8a8-e92344183641";
const ALEX = "b0bc1e5f-43a1-3f6b-94b5-6a8cfdb0f4d1";
const PARTY = "6c9a41e2-0d7b-4f58-a1b3-2e4f5a6b7c8d";

/** `ftbteams/player/<uuid>.snbt` as FTB Teams 2101 writes it: one entry per line, tab indents, no commas. */
const playerTeam = (id: string, name: string): string =>
  [
    "{",
    "\textra: { }",
    `\tid: "${id}"`,
    "\tmessage_history: [ ]",
    `\tplayer_name: "${name}"`,
    "\tproperties: {",
    '\t\t"ftbteams:color": "#E3A33B"',
    `\t\t"ftbteams:display_name": "${name}"`,
    "\t}",
    "\tranks: { }",
    '\ttype: "player"',
    "}",
    "",
  ].join("\n");

const party = [
  "{",
  "\textra: { }",
  `\tid: "${PARTY}"`,
  "\tmessage_history: [ ]",
  "\tproperties: {",
  '\t\t"ftbteams:display_name": "Builders"',
  "\t}",
  "\tranks: {",
  `\t\t${STEVE}: "owner"`,
  `\t\t${ALEX}: "member"`,
  "\t}",
  '\ttype: "party"',
  "}",
  "",
].join("\n");

/** `ftbquests/<team>.snbt` (TeamData version 1): ids are %016X, times epoch milliseconds as longs. */
const partyProgress = (taskCount: number, completed: string[]): string =>
  [
    "{",
    "\tclaimed_rewards: {",
    `\t\t"${STEVE.replaceAll("-", "")}:4000000000000001": 1745000100000L`,
    "\t}",
    "\tcompleted: {",
    ...completed.map((id) => `\t\t${id}: 1745000000000L`),
    "\t}",
    "\tlock: false",
    '\tname: "Builders"',
    "\tplayer_data: {",
    `\t\t"${STEVE.replaceAll("-", "")}": {`,
    "\t\t\tauto_pin: false",
    "\t\t\tcan_edit: false",
    "\t\t\tpinned_quests: [ ]",
    "\t\t}",
    "\t}",
    "\trewards_blocked: false",
    "\tstarted: {",
    "\t\t2000000000000001: 1744999000000L",
    "\t}",
    "\ttask_progress: {",
    `\t\t3000000000000001: ${taskCount}L`,
    "\t}",
    `\tuuid: "${PARTY.replaceAll("-", "")}"`,
    "\tversion: 1",
    "}",
    "",
  ].join("\n");

describe("levelName", () => {
  it("reads level-name from server.properties, with Java properties escapes", () => {
    const folder = serverFolder({
      "server.properties": "#Minecraft server properties\nenable-rcon=true\nlevel-name=my\\:world\nmotd=A\n",
    });
    expect(levelName(folder)).toBe("my:world");
  });

  it("is world without server.properties or without the key", () => {
    expect(levelName(serverFolder({}))).toBe("world");
    expect(levelName(serverFolder({ "server.properties": "motd=A\n" }))).toBe("world");
  });
});

describe("inspectServerFolder", () => {
  it("says the mod keeps progress when the world holds ftbquests/", () => {
    const folder = serverFolder({
      "server.properties": "level-name=modpack\n",
      [`modpack/ftbquests/${PARTY}.snbt`]: partyProgress(1, []),
    });
    expect(inspectServerFolder(folder)).toEqual({
      serverDir: folder,
      world: join(folder, "modpack"),
      progress: "mod",
    });
  });

  it("says the mod keeps progress when its jar is in mods/, before any save", () => {
    const folder = serverFolder({ "mods/ftb-quests-neoforge-2101.1.6.jar": "PK" });
    expect(inspectServerFolder(folder).progress).toBe("mod");
  });

  it("says System keeps progress when only the quest book is there", () => {
    const folder = serverFolder({
      "config/ftbquests/quests/data.snbt": "{\n\tversion: 13\n}\n",
      "mods/jei-1.21.1.jar": "PK",
    });
    expect(inspectServerFolder(folder)).toMatchObject({ world: join(folder, "world"), progress: "system" });
  });
});

describe("FtbProgressFiles", () => {
  it("gives both party members the party's progress, by UUID or by name", () => {
    const folder = serverFolder({
      [`world/ftbteams/player/${STEVE}.snbt`]: playerTeam(STEVE, "Steve"),
      [`world/ftbteams/player/${ALEX}.snbt`]: playerTeam(ALEX, "Alex"),
      [`world/ftbteams/party/${PARTY}.snbt`]: party,
      [`world/ftbquests/${PARTY}.snbt`]: partyProgress(2, []),
    });
    const files = new FtbProgressFiles(join(folder, "world"));
    const steve = files.of(STEVE, "Steve");
    expect(steve).toMatchObject({ team: PARTY, name: "Steve" });
    expect(steve?.tasks.get("3000000000000001")).toBe(2);
    expect(steve?.claimedRewards).toEqual(new Map([["4000000000000001", 1745000100000]]));
    // another UUID (an offline-mode gateway in front of an online-mode world): found by name
    const alex = files.of("00000000-0000-3000-8000-000000000001", "alex");
    expect(alex).toMatchObject({ team: PARTY, playerId: ALEX });
    expect(alex?.claimedRewards.size).toBe(0);
    expect(files.of("00000000-0000-3000-8000-000000000002", "Nobody")).toBeUndefined();
  });

  it("reads the files again once the mod has written them (a save), and reports a broken file", () => {
    const folder = serverFolder({
      [`world/ftbteams/player/${STEVE}.snbt`]: playerTeam(STEVE, "Steve"),
      [`world/ftbteams/party/${PARTY}.snbt`]: party,
      [`world/ftbquests/${PARTY}.snbt`]: partyProgress(1, []),
    });
    const reads: number[] = [];
    const files = new FtbProgressFiles(join(folder, "world"), (read) => reads.push(read.errors.length));
    expect(files.of(STEVE, "Steve")?.completed.size).toBe(0);
    expect(files.of(STEVE, "Steve")?.tasks.get("3000000000000001")).toBe(1);
    expect(reads).toEqual([0]);
    write(folder, {
      [`world/ftbquests/${PARTY}.snbt`]: partyProgress(4, ["3000000000000001", "2000000000000001"]),
    });
    const saved = files.of(STEVE, "Steve");
    expect(saved?.tasks.get("3000000000000001")).toBe(4);
    expect(saved?.completed.get("2000000000000001")).toBe(1745000000000);
    expect(reads).toEqual([0, 0]);
    write(folder, { [`world/ftbquests/${PARTY}.snbt`]: '{\n\tuuid: "broken\n' });
    expect(files.current().errors).toHaveLength(1);
    expect(reads).toEqual([0, 0, 1]);
  });
});
