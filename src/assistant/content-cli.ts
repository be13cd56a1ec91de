import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { buildContentCatalog } from "../data/content/content-build.js";
import type { ContentCatalog } from "../data/content/content-catalog.js";
import { BUILTIN_PACK_ROOT } from "../data/prompts/prompt-store.js";
import { gameData, ItemCatalog } from "../game/data/item-catalog.js";
import { ItemSources } from "../game/data/item-sources.js";
import { answerLine, itemAnswer } from "../module/builtin/item-query/item-answer.js";
import { Languages } from "../util/language.js";
import { MemoryLogger } from "../util/logger.js";
import { GAME_DATA_VERSION } from "./assistant-services.js";

/** Streams of `npx system content`. */
export interface ContentCliIo {
  readonly out: { write(text: string): unknown };
  readonly err: { write(text: string): unknown };
  readonly input?: NodeJS.ReadableStream;
}

export const CONTENT_USAGE = [
  "usage: system content inspect <serverDir> [--json]",
  "       system content item <id or name> --server-dir DIR [--locale L] [--json] | --stdin",
].join("\n");

interface Flags {
  readonly words: string[];
  readonly json: boolean;
  readonly stdin: boolean;
  readonly serverDir?: string;
  readonly locale: string;
}

const parseFlags = (args: readonly string[]): Flags | string => {
  const words: string[] = [];
  let json = false;
  let stdin = false;
  let serverDir: string | undefined;
  let locale = "en_us";
  for (let index = 0; index < args.length; index++) {
    const argument = args[index]!;
    if (argument === "--json") json = true;
    else if (argument === "--stdin") stdin = true;
    else if (argument === "--server-dir" || argument === "--locale") {
      const value = args[++index];
      if (value === undefined || value === "") return `${argument} needs a value`;
      if (argument === "--server-dir") serverDir = value;
      else locale = value.toLowerCase().replace("-", "_");
    } else if (argument.startsWith("--")) return `unknown option ${argument}`;
    else words.push(argument);
  }
  return { words, json, stdin, locale, ...(serverDir === undefined ? {} : { serverDir }) };
};

/** `content inspect`: what was read, counted, and every problem with its file and entry. */
const inspect = (catalog: ContentCatalog, serverDir: string, sources: number) => {
  const items = [...catalog.items()];
  const locales = [...new Set(["en_us", "zh_cn", ...catalog.locales()])];
  const named = Object.fromEntries(
    locales.map((locale) => {
      const count = items.filter((item) => item.names[locale] !== undefined).length;
      return [locale, { named: count, missing: items.length - count }];
    }),
  );
  const kubejs = catalog.sources.filter((source) => source.kind === "kubejs");
  const sum = (count: (source: (typeof kubejs)[number]) => number): number =>
    kubejs.reduce((total, source) => total + count(source), 0);
  return {
    serverDir,
    sources,
    mods: catalog.mods().map(({ id, name, version, loader, file }) => ({ id, name, version, loader, file })),
    items: items.length,
    names: named,
    recipes: {
      total: catalog.counts.recipes,
      byType: Object.fromEntries([...catalog.recipeTypes].sort((a, b) => b[1] - a[1])),
    },
    recipesLeftOutByCondition: catalog.counts.skippedByCondition,
    recipesWithoutItemOutput: Object.fromEntries(catalog.skippedRecipes),
    tags: catalog.counts.tags,
    lootTables: catalog.counts.loot,
    game: catalog.gameJar ?? null,
    datapacks: catalog.sources.filter((source) => source.kind === "datapack").map((source) => source.source),
    resourcepacks: catalog.sources
      .filter((source) => source.kind === "resourcepack")
      .map((source) => source.source),
    kubejs: {
      present: kubejs.length > 0,
      recipes: sum((source) => source.recipes),
      removals: sum((source) => source.removals),
      items: sum((source) => source.registered),
      unread: catalog.counts.unread,
    },
    errors: catalog.issues,
  };
};

const inspectText = (report: ReturnType<typeof inspect>): string =>
  [
    `server folder ${report.serverDir}: ${report.sources} files read`,
    `mods (${report.mods.length}):`,
    ...report.mods.map((mod) => `  ${mod.id} — ${mod.name} ${mod.version} (${mod.loader}) ${mod.file}`),
    `items: ${report.items}`,
    ...Object.entries(report.names).map(
      ([locale, count]) => `  ${locale}: ${count.named} named, ${count.missing} without a name`,
    ),
    `recipes: ${report.recipes.total} (${report.recipesLeftOutByCondition} left out by their conditions)`,
    ...Object.entries(report.recipes.byType).map(([type, count]) => `  ${type}: ${count}`),
    ...Object.entries(report.recipesWithoutItemOutput).map(
      ([type, count]) => `  ${type}: ${count} without an item output (not shown)`,
    ),
    `tags: ${report.tags}, loot tables: ${report.lootTables}`,
    `game jar (vanilla's recipes and tags): ${report.game ?? "none found (minecraft-data's crafting grids)"}`,
    `datapacks: ${report.datapacks.length === 0 ? "none" : report.datapacks.join(", ")}`,
    `resource packs: ${report.resourcepacks.length === 0 ? "none" : report.resourcepacks.join(", ")}`,
    report.kubejs.present
      ? `kubejs: ${report.kubejs.recipes} recipes, ${report.kubejs.removals} removals, ${report.kubejs.items} items read; ${report.kubejs.unread} script statements not readable statically`
      : "kubejs: none",
    `errors: ${report.errors.length}`,
    ...report.errors.map(
      (issue) => `  ${issue.file}${issue.entry === undefined ? "" : ` ${issue.entry}`}: ${issue.message}`,
    ),
  ].join("\n");

/** `npx system content …`: resolves to the exit code (2: usage, 1: an item not found). */
export const contentCommand = async (args: readonly string[], io: ContentCliIo): Promise<number> => {
  const [sub, ...rest] = args;
  const flags = parseFlags(rest);
  if (typeof flags === "string" || (sub !== "inspect" && sub !== "item")) {
    io.err.write(`${typeof flags === "string" ? `${flags}\n` : ""}${CONTENT_USAGE}\n`);
    return 2;
  }
  const serverDir = sub === "inspect" ? flags.words[0] : flags.serverDir;
  if (serverDir === undefined || (sub === "item" && !flags.stdin && flags.words.length === 0)) {
    io.err.write(`${CONTENT_USAGE}\n`);
    return 2;
  }
  const logger = new MemoryLogger();
  const { catalog: content, stats } = await buildContentCatalog({ serverDir: resolve(serverDir), logger });
  if (sub === "inspect") {
    const report = inspect(content, resolve(serverDir), stats.sources);
    io.out.write(`${flags.json ? JSON.stringify(report, null, 2) : inspectText(report)}\n`);
    return 0;
  }
  const catalog = ItemCatalog.forVersion(GAME_DATA_VERSION);
  catalog.useContent(content);
  const sources = new ItemSources(gameData(GAME_DATA_VERSION), catalog);
  const languages = Languages.load(BUILTIN_PACK_ROOT);
  const station = (where: { key?: string; name?: string } | null): string =>
    where?.key !== undefined ? languages.format(flags.locale, where.key, []) : (where?.name ?? "?");
  const answer = (query: string): boolean => {
    const found = itemAnswer(query, { catalog, sources, locale: flags.locale });
    if (found === undefined) {
      io.out.write(`${flags.json ? JSON.stringify({ query, error: "not found" }) : `not found: ${query}`}\n`);
      return false;
    }
    // in JSON a recipe's station is its name in the asked locale
    const json = {
      ...found,
      recipes: found.recipes.map((recipe) => ({ ...recipe, station: station(recipe.station) })),
    };
    io.out.write(`${flags.json ? JSON.stringify(json) : answerLine(found, flags.locale, station)}\n`);
    return true;
  };
  if (!flags.stdin) return answer(flags.words.join(" ")) ? 0 : 1;
  let missing = 0;
  for await (const line of createInterface({ input: io.input ?? process.stdin })) {
    if (line.trim() === "") continue;
    if (!answer(line.trim())) missing++;
  }
  return missing === 0 ? 0 : 1;
};
