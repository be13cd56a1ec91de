import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { writeFileAtomic } from "../../util/atomic-file.js";
import type { Logger } from "../../util/logger.js";
import { levelName } from "../quests/ftb-server-folder.js";
import {
  type ArchiveLimits,
  type ArchiveReader,
  DEFAULT_ARCHIVE_LIMITS,
  openFolder,
  openZip,
} from "./archive.js";
import { ContentCatalog } from "./content-catalog.js";
import { mergeLayers } from "./content-merge.js";
import { type ContentLayer, emptyLayer, type LayerKind } from "./content-model.js";
import { readSnapshot, snapshotPath, sourcesKey, writeSnapshot } from "./content-snapshot.js";
import { listed } from "./folder-listing.js";
import { gameJars, openGameJar } from "./game-jar.js";
import { readServerScript, readStartupScript } from "./kubejs-reading.js";
import { readArchive } from "./layer-reading.js";

/** The cache format; a file of another version is ignored (rebuilt), never misread. */
const CACHE_VERSION = 1;
/** Archives read at once (the machine's cores inflate while others wait on the disk). */
const PARALLEL_SOURCES = 4;
/** Packs with more sources than this print a progress line while they are read. */
const PROGRESS_FROM = 40;

/** One file or folder of the server that feeds a layer. */
interface Source {
  readonly kind: LayerKind;
  readonly path: string;
  readonly folder: boolean;
}

interface CacheEntry {
  readonly fingerprint: string;
  readonly layer: ContentLayer;
}

/** What a build did, for the start-up line and `content inspect`. */
export interface BuildStats {
  readonly sources: number;
  readonly fromCache: number;
  /** Whether the merged catalog came whole from the snapshot (no source changed since it was written). */
  readonly fromSnapshot: boolean;
  readonly millis: number;
}

/**
 * The sources of a server folder in layer order: the game's own jar (vanilla's recipes and tags, `gameJars`),
 * `mods/*.jar` (file-name order, the loaders' own), then
 * `resourcepacks/` (zips and folders: names such as a translation pack), `<world>/datapacks/`, and `kubejs/`.
 */
export const contentSources = (serverDir: string): Source[] => {
  const packs = (folder: string, kind: LayerKind): Source[] =>
    listed(folder, (name, isFolder) => isFolder || name.endsWith(".zip")).map((path) => ({
      kind,
      path,
      folder: statSync(path).isDirectory(),
    }));
  const world = join(serverDir, levelName(serverDir));
  return [
    ...gameJars(serverDir).map((path) => ({
      kind: "game" as const,
      path: join(serverDir, path),
      folder: false,
    })),
    ...listed(join(serverDir, "mods"), (name, isFolder) => !isFolder && name.endsWith(".jar")).map(
      (path) => ({
        kind: "mod" as const,
        path,
        folder: false,
      }),
    ),
    ...packs(join(serverDir, "resourcepacks"), "resourcepack"),
    ...packs(join(world, "datapacks"), "datapack"),
    ...(existsSync(join(serverDir, "kubejs"))
      ? [{ kind: "kubejs" as const, path: join(serverDir, "kubejs"), folder: true }]
      : []),
  ];
};

/** Size and time of a file, or of every file of a folder: what the cache is keyed by. */
const fingerprint = (source: Source): string => {
  if (!source.folder) {
    const stat = statSync(source.path);
    return `${stat.size}:${stat.mtimeMs}`;
  }
  let files = 0;
  let size = 0;
  let newest = 0;
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path);
        files++;
        size += stat.size;
        newest = Math.max(newest, stat.mtimeMs);
      }
    }
  };
  walk(source.path);
  return `${files}:${size}:${newest}`;
};

/** Reads one source into a layer; a source that cannot be read at all is an issue and an empty layer. */
const readSource = async (
  source: Source,
  serverDir: string,
  limits: ArchiveLimits,
): Promise<ContentLayer> => {
  const name = relative(serverDir, source.path);
  const layer = emptyLayer(source.kind, name);
  let archive: ArchiveReader | undefined;
  try {
    if (source.kind === "game") {
      const game = await openGameJar(source.path, name, limits);
      if (game === undefined) return layer;
      archive = game.archive;
      await readArchive(archive, game.name, layer, { limits, recipesAndTags: true });
      return layer;
    }
    archive = source.folder ? openFolder(source.path, limits) : await openZip(source.path, limits);
    await readArchive(archive, name, layer, { limits, allLangKeys: source.kind === "kubejs" });
    if (source.kind === "kubejs") await readScripts(archive, layer);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const refused = (error as { problem?: string }).problem === "zip_bomb";
    return {
      ...emptyLayer(source.kind, name),
      issues: [{ file: name, message: `${refused ? "refused (zip bomb): " : "skipped: "}${message}` }],
    };
  } finally {
    archive?.close();
  }
  return layer;
};

const readScripts = async (archive: ArchiveReader, layer: ContentLayer): Promise<void> => {
  for (const entry of archive.names) {
    if (!entry.endsWith(".js")) continue;
    const source = (await archive.read(entry)).toString("utf8");
    if (entry.startsWith("startup_scripts/")) readStartupScript(source, layer);
    else if (entry.startsWith("server_scripts/")) readServerScript(source, entry, layer);
  }
};

const readCache = (path: string | undefined): Map<string, CacheEntry> => {
  if (path === undefined || !existsSync(path)) return new Map();
  try {
    const file = JSON.parse(readFileSync(path, "utf8")) as {
      version?: number;
      entries?: Record<string, CacheEntry>;
    };
    return file.version === CACHE_VERSION && file.entries !== undefined
      ? new Map(Object.entries(file.entries))
      : new Map();
  } catch {
    return new Map();
  }
};

/** The cache file's text in chunks, one layer at a time: never the whole cache as one string in memory. */
function* cacheText(entries: ReadonlyMap<string, CacheEntry>): Generator<string> {
  yield `{"version":${CACHE_VERSION},"entries":{`;
  let first = true;
  for (const [key, entry] of entries) {
    yield `${first ? "" : ","}${JSON.stringify(key)}:${JSON.stringify(entry)}`;
    first = false;
  }
  yield "}}";
}

const writeCache = async (path: string, entries: ReadonlyMap<string, CacheEntry>): Promise<void> => {
  mkdirSync(dirname(path), { recursive: true });
  await writeFileAtomic(path, cacheText(entries));
};

const logIssues = (catalog: ContentCatalog, logger: Logger): void => {
  for (const issue of catalog.issues)
    logger.warn(
      `content: ${issue.file}${issue.entry === undefined ? "" : ` ${issue.entry}`}: ${issue.message}`,
    );
};

/**
 * Builds the content catalog of a server folder: every source read in place (or taken from the cache when its
 * size and time are unchanged), issues logged one line each with file and entry, a progress line for a big
 * pack. When no source changed since the last build the merged catalog comes whole from the snapshot beside the
 * cache. Never throws for bad content: an unreadable jar is skipped and named.
 */
export const buildContentCatalog = async (options: {
  readonly serverDir: string;
  readonly logger: Logger;
  /** Where read layers are kept between starts (and the merged snapshot beside them); no cache when absent. */
  readonly cacheFile?: string;
  readonly limits?: ArchiveLimits;
}): Promise<{ catalog: ContentCatalog; stats: BuildStats }> => {
  const started = Date.now();
  const limits = options.limits ?? DEFAULT_ARCHIVE_LIMITS;
  const sources = contentSources(options.serverDir);
  const keys = sources.map((source) => relative(options.serverDir, source.path));
  const prints = sources.map(fingerprint);
  const snapshotFile = options.cacheFile === undefined ? undefined : snapshotPath(options.cacheFile);
  // the per-file cache's version is part of the key: layers read another way make another catalog
  const snapshotKey = sourcesKey([
    ["cache version", String(CACHE_VERSION)],
    ...keys.map((key, position) => [key, prints[position]!] as const),
  ]);
  // without the per-file cache (deleted to force a full read) the snapshot is not used either
  if (snapshotFile !== undefined && existsSync(options.cacheFile!)) {
    const snapshot = readSnapshot(snapshotFile, snapshotKey);
    if ("tables" in snapshot) {
      const catalog = new ContentCatalog(snapshot.tables);
      logIssues(catalog, options.logger);
      const stats = { sources: sources.length, fromCache: sources.length, fromSnapshot: true };
      return { catalog, stats: { ...stats, millis: Date.now() - started } };
    }
    if ("corrupt" in snapshot)
      options.logger.warn(
        `content: snapshot ${snapshotFile} unreadable (${snapshot.corrupt}); rebuilding it`,
      );
  }
  const cache = readCache(options.cacheFile);
  const next = new Map<string, CacheEntry>();
  const layers: ContentLayer[] = new Array(sources.length);
  let fromCache = 0;
  let done = 0;
  let reported = 0;
  const progress = (): void => {
    done++;
    if (sources.length < PROGRESS_FROM) return;
    const tenth = Math.floor((done * 10) / sources.length);
    if (tenth > reported) {
      reported = tenth;
      options.logger.info(`content: read ${done}/${sources.length} files of ${options.serverDir}`);
    }
  };
  let index = 0;
  const worker = async (): Promise<void> => {
    while (index < sources.length) {
      const position = index++;
      const key = keys[position]!;
      const print = prints[position]!;
      const cached = cache.get(key);
      const layer =
        cached?.fingerprint === print
          ? cached.layer
          : await readSource(sources[position]!, options.serverDir, limits);
      if (cached?.fingerprint === print) fromCache++;
      layers[position] = layer;
      next.set(key, { fingerprint: print, layer });
      progress();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_SOURCES }, worker));
  const state = mergeLayers(layers);
  const catalog = new ContentCatalog(state);
  logIssues(catalog, options.logger);
  if (options.cacheFile !== undefined && fromCache < sources.length) {
    try {
      await writeCache(options.cacheFile, next);
    } catch (error) {
      options.logger.warn(`content: cache not written (${(error as Error).message})`);
    }
  }
  // the layers are merged: what the snapshot does not share with them can go before it is written
  cache.clear();
  next.clear();
  layers.length = 0;
  if (snapshotFile !== undefined) {
    try {
      await writeSnapshot(snapshotFile, snapshotKey, state);
    } catch (error) {
      options.logger.warn(`content: snapshot not written (${(error as Error).message})`);
    }
  }
  const stats = { sources: sources.length, fromCache, fromSnapshot: false };
  return { catalog, stats: { ...stats, millis: Date.now() - started } };
};
