import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type ArchiveLimits, type ArchiveReader, openZip } from "./archive.js";

/** Where a bundle lists the jar it carries: lines of `<sha256>\t<version>\t<path under META-INF/versions/>`. */
const VERSIONS_LIST = "META-INF/versions.list";
/** The game's jar inside a bundle is read whole into memory: about 50 MB for 1.21. */
const BUNDLED_JAR_BYTES = 160 * 1024 * 1024;

const entries = (folder: string): { name: string; folder: boolean }[] =>
  existsSync(folder)
    ? readdirSync(folder, { withFileTypes: true }).map((entry) => ({
        name: entry.name,
        folder: entry.isDirectory(),
      }))
    : [];

/** Version-like names in ascending order, numbers compared as numbers (`1.9` < `1.21.1`). */
const byVersion = (left: string, right: string): number => {
  const parts = (text: string): number[] => (text.match(/\d+/g) ?? []).map(Number);
  const [a, b] = [parts(left), parts(right)];
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = (a[index] ?? -1) - (b[index] ?? -1);
    if (difference !== 0) return difference;
  }
  return left.localeCompare(right);
};

/**
 * The game's own jar of a server folder, whose `data/minecraft` holds vanilla's recipes and item tags (minecraft-data
 * has crafting grids only: no furnace, stonecutter or smithing, and no tags). The newest version found, first of:
 * - `versions/<version>/*.jar`: what vanilla's and Paper's bundles unpack at their first start;
 * - `libraries/net/minecraft/server/<version>/server-<version>-extra.jar`: what Forge's and NeoForge's installers
 *   write (the game's data and assets beside the loader's patched classes);
 * - else every `*.jar` of the folder itself: one that is a bundle (`META-INF/versions.list`: vanilla's server jar,
 *   what Fabric's launcher runs) is read through the jar it carries, any other is passed over.
 * Paths are relative to `serverDir`.
 */
export const gameJars = (serverDir: string): string[] => {
  const versions = join(serverDir, "versions");
  for (const version of entries(versions)
    .filter((entry) => entry.folder)
    .map((entry) => entry.name)
    .sort(byVersion)
    .reverse()) {
    const jar = entries(join(versions, version)).find(
      (entry) => !entry.folder && entry.name.endsWith(".jar"),
    );
    if (jar !== undefined) return [join("versions", version, jar.name)];
  }
  const libraries = join("libraries", "net", "minecraft", "server");
  for (const version of entries(join(serverDir, libraries))
    .filter((entry) => entry.folder)
    .map((entry) => entry.name)
    .sort(byVersion)
    .reverse()) {
    const extra = `server-${version}-extra.jar`;
    if (existsSync(join(serverDir, libraries, version, extra))) return [join(libraries, version, extra)];
  }
  return entries(serverDir)
    .filter((entry) => !entry.folder && entry.name.endsWith(".jar"))
    .map((entry) => entry.name)
    .sort();
};

/**
 * Opens a game jar for reading: the jar itself, or the jar a bundle carries. Undefined for a jar in the server
 * folder's root that is no bundle (a launcher, an installer), which holds no game data of its own.
 */
export const openGameJar = async (
  path: string,
  relativePath: string,
  limits: ArchiveLimits,
): Promise<{ archive: ArchiveReader; name: string } | undefined> => {
  const jar = await openZip(path, limits);
  if (!jar.names.includes(VERSIONS_LIST)) {
    if (relativePath.includes("/") || relativePath.includes("\\"))
      return { archive: jar, name: relativePath };
    jar.close();
    return undefined;
  }
  jar.close();
  // a bundle's one entry is the whole game jar: opened again with room for it
  const bundle = await openZip(path, {
    ...limits,
    maxEntryBytes: Math.max(limits.maxEntryBytes, BUNDLED_JAR_BYTES),
    maxTotalBytes: Math.max(limits.maxTotalBytes, BUNDLED_JAR_BYTES),
  });
  try {
    const listed = (await bundle.read(VERSIONS_LIST)).toString("utf8").split(/\r?\n/u).find(Boolean);
    const carried = listed?.split("\t")[2];
    if (carried === undefined || !bundle.names.includes(`META-INF/versions/${carried}`))
      throw new Error(`${VERSIONS_LIST} names no jar the bundle carries`);
    const bytes = await bundle.read(`META-INF/versions/${carried}`);
    return {
      archive: await openZip(bytes, limits),
      name: `${relativePath}!/META-INF/versions/${carried}`,
    };
  } finally {
    bundle.close();
  }
};
