import { existsSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { type ArchiveLimits, type ArchiveReader, openZip } from "./archive.js";
import { listed } from "./folder-listing.js";

/** Where a bundle lists the jar it carries: lines of `<sha256>\t<version>\t<path under META-INF/versions/>`. */
const VERSIONS_LIST = "META-INF/versions.list";
/** Bytes of `versions.list` looked at: its first line names the jar (a real list has one line of ~100 bytes). */
const VERSIONS_LIST_HEAD = 4096;
/** The game's jar inside a bundle is read whole into memory: about 50 MB for 1.21. */
const BUNDLED_JAR_BYTES = 160 * 1024 * 1024;

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

/** The newest folder of `folder` by version, with the jar it holds; undefined when none holds one. */
const newestJar = (
  folder: string,
  jarOf: (version: string) => string | undefined,
): { version: string; path: string } | undefined => {
  for (const version of listed(folder, (_, isFolder) => isFolder)
    .map((path) => basename(path))
    .sort(byVersion)
    .reverse()) {
    const jar = jarOf(version);
    if (jar !== undefined) return { version, path: jar };
  }
  return undefined;
};

/**
 * The game's own jar of a server folder, whose `data/minecraft` holds vanilla's recipes and item tags (minecraft-data
 * has crafting grids only: no furnace, stonecutter or smithing, and no tags). The newest version of:
 * - `versions/<version>/*.jar`: what vanilla's and Paper's bundles unpack at their first start;
 * - `libraries/net/minecraft/server/<version>/server-<version>-extra.jar`: what Forge's and NeoForge's installers
 *   write (the game's data and assets beside the loader's patched classes);
 * (a folder left from an older install loses to the newer), else every `*.jar` of the folder itself, oldest version
 * in its name first: one that is a bundle (`META-INF/versions.list`: vanilla's server jar, what Fabric's launcher
 * runs) is read through the jar it carries, so the newest bundle's recipes win; any other is passed over. Paths are
 * relative to `serverDir`.
 */
export const gameJars = (serverDir: string): string[] => {
  const versions = join(serverDir, "versions");
  const libraries = join("libraries", "net", "minecraft", "server");
  const found = [
    newestJar(versions, (version) => {
      const [jar] = listed(join(versions, version), (name, isFolder) => !isFolder && name.endsWith(".jar"));
      return jar === undefined ? undefined : relative(serverDir, jar);
    }),
    newestJar(join(serverDir, libraries), (version) => {
      const extra = join(libraries, version, `server-${version}-extra.jar`);
      return existsSync(join(serverDir, extra)) ? extra : undefined;
    }),
  ].filter((jar) => jar !== undefined);
  const newest = found.sort((left, right) => byVersion(left.version, right.version)).pop();
  if (newest !== undefined) return [newest.path];
  return listed(serverDir, (name, isFolder) => !isFolder && name.endsWith(".jar"))
    .map((path) => basename(path))
    .sort(byVersion);
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
  let carried: string | undefined;
  try {
    // the list's first line names the jar; a list of any size is never split whole
    const head = (await jar.read(VERSIONS_LIST)).subarray(0, VERSIONS_LIST_HEAD).toString("utf8");
    carried = head.split(/\r?\n/u).find(Boolean)?.split("\t")[2];
    if (carried === undefined || !jar.names.includes(`META-INF/versions/${carried}`))
      throw new Error(`${VERSIONS_LIST} names no jar the bundle carries`);
  } finally {
    jar.close();
  }
  // the bundle's one big entry is the whole game jar: read with room for it
  const bundle = await openZip(path, {
    ...limits,
    maxEntryBytes: Math.max(limits.maxEntryBytes, BUNDLED_JAR_BYTES),
    maxTotalBytes: Math.max(limits.maxTotalBytes, BUNDLED_JAR_BYTES),
  });
  try {
    const bytes = await bundle.read(`META-INF/versions/${carried}`);
    return {
      archive: await openZip(bytes, limits),
      name: `${relativePath}!/META-INF/versions/${carried}`,
    };
  } finally {
    bundle.close();
  }
};
