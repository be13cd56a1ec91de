import { ArchiveError, type ArchiveLimits, type ArchiveReader, openZip } from "./archive.js";
import type { ContentLayer } from "./content-model.js";
import { readLootTable, readTagFile } from "./loot-tag-reading.js";
import { readFabricModJson, readModsToml } from "./mod-metadata.js";
import { readRecipe } from "./recipe-reading.js";

const LANG = /^assets\/([a-z0-9_.-]+)\/lang\/([a-z]{2,3}_[a-z0-9]{2,4})\.json$/i;
const RECIPE = /^data\/([a-z0-9_.-]+)\/recipes?\/(.+)\.json$/;
const TAG = /^data\/([a-z0-9_.-]+)\/tags\/items?\/(.+)\.json$/;
const LOOT = /^data\/([a-z0-9_.-]+)\/loot_tables?\/(.+)\.json$/;
/** Lang keys System uses: item, block and entity names, and the names mods give their machines' recipe types. */
const KEPT_KEY = /^(item|block|entity)\.|(^|\.)(recipe|category)\./;
/** Entries read at once from one archive. */
const PARALLEL = 16;

/** Reading one archive into a layer: the names of the file (and nested jar) for messages, the limits. */
interface ReadOptions {
  readonly limits: ArchiveLimits;
  /** Lang keys of every kind (KubeJS assets hold quest texts too). */
  readonly allLangKeys?: boolean;
  /**
   * Recipes and item tags alone (the game's own jar: vanilla's names and loot are minecraft-data's and System's,
   * with more detail than a loot table's drop list).
   */
  readonly recipesAndTags?: boolean;
}

const parseJson = (bytes: Buffer): unknown => JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, ""));

/**
 * Reads the content of one archive (a jar, a datapack, a resource pack, a KubeJS folder) into `layer`: mod
 * metadata, lang, recipes, item tags, loot tables; jars nested in it (`META-INF/jarjar`, Fabric `jars`) too.
 * Malformed files become issues naming the archive and entry; a nested jar that cannot be read is one issue.
 */
export const readArchive = async (
  archive: ArchiveReader,
  name: string,
  layer: ContentLayer,
  options: ReadOptions,
  depth = 0,
): Promise<void> => {
  const issue = (entry: string, error: unknown): void => {
    layer.issues.push({ file: name, entry, message: error instanceof Error ? error.message : String(error) });
  };
  const read = async (entry: string): Promise<Buffer | undefined> => {
    try {
      return await archive.read(entry);
    } catch (error) {
      if (error instanceof ArchiveError && error.problem === "zip_bomb") throw error;
      issue(entry, error);
      return undefined;
    }
  };
  // the game's own jar: recipes and tags alone, no mod metadata, no nested jars
  const names = new Set(options.recipesAndTags === true ? [] : archive.names);
  const manifest = names.has("META-INF/MANIFEST.MF")
    ? (await read("META-INF/MANIFEST.MF"))?.toString()
    : undefined;
  const nested: string[] = [...names].filter((entry) => /^META-INF\/jarjar\/[^/]+\.jar$/.test(entry));
  for (const [entry, loader] of [
    ["META-INF/neoforge.mods.toml", "neoforge"],
    ["META-INF/mods.toml", "forge"],
  ] as const) {
    if (!names.has(entry)) continue;
    const bytes = await read(entry);
    if (bytes === undefined) continue;
    try {
      layer.mods.push(...readModsToml(bytes.toString("utf8"), loader, name, manifest));
    } catch (error) {
      issue(entry, error);
    }
    break;
  }
  if (names.has("fabric.mod.json")) {
    const bytes = await read("fabric.mod.json");
    if (bytes !== undefined)
      try {
        const fabric = readFabricModJson(bytes.toString("utf8"), name);
        layer.mods.push(...fabric.mods);
        nested.push(...fabric.jars.filter((jar) => names.has(jar) && !nested.includes(jar)));
      } catch (error) {
        issue("fabric.mod.json", error);
      }
  }
  const wanted = archive.names.filter((entry) =>
    options.recipesAndTags === true
      ? RECIPE.test(entry) || TAG.test(entry)
      : LANG.test(entry) || RECIPE.test(entry) || TAG.test(entry) || LOOT.test(entry),
  );
  for (let start = 0; start < wanted.length; start += PARALLEL) {
    const batch = wanted.slice(start, start + PARALLEL);
    const contents = await Promise.all(batch.map((entry) => read(entry)));
    batch.forEach((entry, index) => {
      const bytes = contents[index];
      if (bytes === undefined) return;
      layer.entries++;
      let json: unknown;
      try {
        json = parseJson(bytes);
      } catch (error) {
        issue(entry, `malformed JSON: ${(error as Error).message}`);
        return;
      }
      addEntry(layer, entry, json, options);
    });
  }
  if (depth >= options.limits.maxDepth) return;
  for (const entry of nested) {
    const bytes = await read(entry);
    if (bytes === undefined) continue;
    const inner = `${name}!/${entry}`;
    let jar: ArchiveReader | undefined;
    try {
      jar = await openZip(bytes, options.limits);
      await readArchive(jar, inner, layer, options, depth + 1);
    } catch (error) {
      layer.issues.push({ file: inner, message: error instanceof Error ? error.message : String(error) });
    } finally {
      jar?.close();
    }
  }
};

const addEntry = (layer: ContentLayer, entry: string, json: unknown, options: ReadOptions): void => {
  let match = LANG.exec(entry);
  if (match !== null) {
    if (typeof json !== "object" || json === null) return;
    const locale = match[2]!.toLowerCase();
    const table = layer.lang[locale] ?? {};
    layer.lang[locale] = table;
    for (const [key, value] of Object.entries(json as Record<string, unknown>))
      if (typeof value === "string" && (options.allLangKeys === true || KEPT_KEY.test(key)))
        table[key] = value;
    return;
  }
  match = RECIPE.exec(entry);
  if (match !== null) {
    const id = `${match[1]}:${match[2]}`;
    const recipe = readRecipe(id, json);
    if (recipe !== undefined) layer.recipes[id] = recipe;
    else {
      const type =
        typeof (json as { type?: unknown })?.type === "string" ? (json as { type: string }).type : "?";
      layer.skippedRecipes[type] = (layer.skippedRecipes[type] ?? 0) + 1;
    }
    return;
  }
  match = TAG.exec(entry);
  if (match !== null) {
    const tag = readTagFile(json);
    if (tag !== undefined) layer.tags[`${match[1]}:${match[2]}`] = tag;
    return;
  }
  match = LOOT.exec(entry);
  if (match !== null) {
    const id = `${match[1]}:${match[2]}`;
    const drops = readLootTable(id, json);
    if (drops.length > 0) layer.loot[id] = drops;
  }
};
