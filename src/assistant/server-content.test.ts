import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONTENT_FIXTURES, writeContentServer, writeJar } from "../../test/support/content-pack.js";
import { gameData, ItemCatalog } from "../game/data/item-catalog.js";
import { ItemSources } from "../game/data/item-sources.js";
import { MemoryLogger } from "../util/logger.js";
import { loadServerContent } from "./server-content.js";

const folders: string[] = [];
const folder = (prefix: string): string => {
  const path = mkdtempSync(join(tmpdir(), prefix));
  folders.push(path);
  return path;
};
afterEach(() => {
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
});

const QUERIES = [
  "create:andesite_alloy",
  "Andesite Alloy",
  "安山合金",
  "andesite_alloy",
  "锇矿石",
  "mekanism:ingot_steel",
  "Magic Ingot",
  "魔法锭",
  "ae2:logic_processor",
  "farmersdelight:tomato",
];
const SEARCHES = ["alloy", "steel", "合金", "processor", "ore", "tomato", "zzz"];

/** What players see: look-ups by id and by name in both languages, with sources, and the suggestions. */
const answers = (catalog: ItemCatalog) => {
  const sources = new ItemSources(gameData("1.21.4"), catalog);
  return {
    lookups: QUERIES.map((query) => {
      const info = catalog.lookup(query);
      return { query, info, sources: info === undefined ? undefined : sources.of(info.id) };
    }),
    searches: SEARCHES.map((query) => catalog.search(query, 8).map((info) => info.id)),
    names: ["en_us", "zh_cn"].map((locale) => catalog.nameOf("block", "mekanism:osmium_ore", locale)),
    items: catalog.all().length,
  };
};

const contentLine = (logger: MemoryLogger): string | undefined =>
  logger.lines.find((line) => line.startsWith("INFO content:") && line.includes("modded items"));

describe("the server's content at start and on /system reload", () => {
  it("answers the same from the snapshot as from the build, and a reload after a change reads it", async () => {
    const serverDir = folder("system-content-server-");
    const world = folder("system-content-world-");
    await writeContentServer(serverDir);
    const first = ItemCatalog.forVersion("1.21.4");
    const startLog = new MemoryLogger();
    await loadServerContent({ serverDir, world, catalog: first, logger: startLog });
    expect(contentLine(startLog)).toMatch(/\(\d+ files, 0 from the cache, \d+ ms\)$/);
    const built = answers(first);
    expect(built.lookups.every((answer) => answer.info !== undefined)).toBe(true);
    expect(built.searches[SEARCHES.indexOf("processor")]).toContain("ae2:logic_processor");

    // a restart: a new catalog, the content whole from the snapshot
    const second = ItemCatalog.forVersion("1.21.4");
    const restartLog = new MemoryLogger();
    await loadServerContent({ serverDir, world, catalog: second, logger: restartLog });
    expect(contentLine(restartLog)).toMatch(/\(\d+ files, all from the snapshot, \d+ ms\)$/);
    expect(answers(second)).toEqual(built);

    // `/system reload` with nothing changed: the same catalog, the same answers
    const reloadLog = new MemoryLogger();
    await loadServerContent({ serverDir, world, catalog: second, logger: reloadLog });
    expect(contentLine(reloadLog)).toContain("all from the snapshot");
    expect(answers(second)).toEqual(built);

    // a reload after a mod was replaced reads that file again and answers from the new content
    const jar = join(serverDir, "mods", "appliedenergistics2-19.2.17.jar");
    await writeJar(join(CONTENT_FIXTURES, "mekanism-1.21.1"), jar);
    utimesSync(jar, new Date(), new Date(Date.now() + 5_000));
    const changedLog = new MemoryLogger();
    await loadServerContent({ serverDir, world, catalog: second, logger: changedLog });
    expect(contentLine(changedLog)).toMatch(/\((\d+) files, (\d+) from the cache/);
    expect(second.lookup("ae2:logic_processor")).toBeUndefined();
    expect(second.search("processor", 8).some((info) => info.id.startsWith("ae2:"))).toBe(false);
  });
});
