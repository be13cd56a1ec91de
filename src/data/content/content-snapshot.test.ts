import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CONTENT_FIXTURES,
  truncatedJar,
  writeContentServer,
  writeJar,
} from "../../../test/support/content-pack.js";
import { MemoryLogger } from "../../util/logger.js";
import { buildContentCatalog } from "./content-build.js";
import type { ContentCatalog } from "./content-catalog.js";
import { snapshotPath } from "./content-snapshot.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A server folder with the fixture mods, a datapack, KubeJS and a truncated jar (one problem to log). */
const server = async (): Promise<{ serverDir: string; cacheFile: string }> => {
  const serverDir = mkdtempSync(join(tmpdir(), "system-snapshot-"));
  folders.push(serverDir);
  await writeContentServer(serverDir);
  await truncatedJar(join(CONTENT_FIXTURES, "create-1.20.1"), join(serverDir, "mods", "broken.jar"));
  return { serverDir, cacheFile: join(serverDir, "world", "system", "content-cache.json") };
};

/** Everything a catalog answers, for every item, tag and recipe type it knows. */
const answers = (catalog: ContentCatalog) => {
  const items = [...catalog.items()];
  const recipes = items.flatMap((item) => catalog.recipesFor(item.id));
  const tags = [
    ...new Set([
      ...recipes.flatMap((recipe) => recipe.inputs.flatMap((input) => input.options)),
      "#forge:nuggets/iron",
      "c:ingots/steel",
      "#oddmod:none",
    ]),
  ].filter((option) => option.startsWith("#") || option.includes("/"));
  const types = [...catalog.recipeTypes.keys()];
  return {
    items: items.map((item) => ({
      item,
      lookup: catalog.item(item.id),
      names: catalog.locales().map((locale) => catalog.name(item.id, locale)),
      recipes: catalog.recipesFor(item.id),
      drops: catalog.dropsOf(item.id),
      uses: catalog.uses(item.id),
      usedIn: catalog.usedIn(item.id),
      modName: catalog.modName(item.mod),
    })),
    unknown: [catalog.item("nomod:thing"), catalog.recipesFor("nomod:thing"), catalog.dropsOf("nomod:thing")],
    blockName: catalog.name("mekanism:osmium_ore", "zh_cn"),
    tags: tags.map((tag) => ({ tag, items: catalog.tagItems(tag) })),
    types: types.flatMap((type) => [type, catalog.typeName(type, "en_us"), catalog.typeName(type, "zh_cn")]),
    text: catalog.text("pack.quest.alloys.title", "zh_cn"),
    mods: catalog.mods(),
    locales: catalog.locales(),
    counts: catalog.counts,
    recipeTypes: [...catalog.recipeTypes],
    skipped: [...catalog.skippedRecipes],
    issues: catalog.issues,
    sources: catalog.sources,
  };
};

const warnings = (logger: MemoryLogger): string[] => logger.lines.filter((line) => line.startsWith("WARN"));

describe("the content catalog's snapshot", () => {
  it("starts from the snapshot when no file changed, answering exactly as the build it was written from", async () => {
    const { serverDir, cacheFile } = await server();
    const builtLog = new MemoryLogger();
    const built = await buildContentCatalog({ serverDir, logger: builtLog, cacheFile });
    expect(built.stats.fromSnapshot).toBe(false);
    const startLog = new MemoryLogger();
    const started = await buildContentCatalog({ serverDir, logger: startLog, cacheFile });
    expect(started.stats).toMatchObject({ fromSnapshot: true, fromCache: started.stats.sources });
    const before = answers(built.catalog);
    expect(before.items.length).toBeGreaterThan(20);
    expect(before.tags.some((tag) => tag.items.length > 0)).toBe(true);
    expect(before.issues.length).toBeGreaterThan(0);
    expect(answers(started.catalog)).toEqual(before);
    // names and mod names in both locales, item by item, in the same key order (the CLI's JSON prints them)
    expect(JSON.stringify(before.items.map((entry) => entry.item))).toBe(
      JSON.stringify(answers(started.catalog).items.map((entry) => entry.item)),
    );
    // the problems of the pack are logged on every start, from the snapshot too
    expect(warnings(startLog)).toEqual(warnings(builtLog));
  });

  it("falls back to the per-file cache when a file changed, added or went away, and rewrites the snapshot", async () => {
    const { serverDir, cacheFile } = await server();
    await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    const jar = join(serverDir, "mods", "appliedenergistics2-19.2.17.jar");
    await writeJar(join(CONTENT_FIXTURES, "mekanism-1.21.1"), jar);
    utimesSync(jar, new Date(), new Date(Date.now() + 5_000));
    const changed = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(changed.stats).toMatchObject({ fromSnapshot: false, fromCache: changed.stats.sources - 1 });
    expect(changed.catalog.item("ae2:logic_processor")).toBeUndefined();
    const again = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(again.stats.fromSnapshot).toBe(true);
    expect(again.catalog.item("ae2:logic_processor")).toBeUndefined();
    expect(answers(again.catalog)).toEqual(answers(changed.catalog));

    rmSync(jar);
    const removed = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(removed.stats).toMatchObject({ fromSnapshot: false, fromCache: removed.stats.sources });
    await writeJar(join(CONTENT_FIXTURES, "ae2-1.21.1"), jar);
    const added = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(added.stats.fromSnapshot).toBe(false);
    expect(added.catalog.item("ae2:logic_processor")?.names.en_us).toBe("Logic Processor");
  });

  it("is not used when the per-file cache was deleted to force a full read", async () => {
    const { serverDir, cacheFile } = await server();
    await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    rmSync(cacheFile);
    const full = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(full.stats).toMatchObject({ fromSnapshot: false, fromCache: 0 });
    const next = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    expect(next.stats.fromSnapshot).toBe(true);
  });

  it.each([
    ["truncated", (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2))],
    ["cut inside its header", (bytes: Buffer) => bytes.subarray(0, 20)],
    [
      "damaged",
      (bytes: Buffer) => {
        const copy = Buffer.from(bytes);
        copy[copy.length - 100] = (copy[copy.length - 100]! + 1) % 256;
        return copy;
      },
    ],
    ["not a snapshot", () => Buffer.from('{"version": 1}')],
  ])("ignores a snapshot file that is %s with one line, and rebuilds it", async (_, spoil) => {
    const { serverDir, cacheFile } = await server();
    const built = await buildContentCatalog({ serverDir, logger: new MemoryLogger(), cacheFile });
    const file = snapshotPath(cacheFile);
    writeFileSync(file, spoil(readFileSync(file)));
    const logger = new MemoryLogger();
    const rebuilt = await buildContentCatalog({ serverDir, logger, cacheFile });
    expect(rebuilt.stats).toMatchObject({ fromSnapshot: false, fromCache: rebuilt.stats.sources });
    const lines = logger.lines.filter((line) => line.includes("snapshot"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^WARN content: snapshot .*content-cache\.snapshot unreadable \(.+\); rebuilding it$/,
    );
    expect(answers(rebuilt.catalog)).toEqual(answers(built.catalog));
    const next = new MemoryLogger();
    const restarted = await buildContentCatalog({ serverDir, logger: next, cacheFile });
    expect(restarted.stats.fromSnapshot).toBe(true);
    expect(next.has("snapshot")).toBe(false);
  });
});
