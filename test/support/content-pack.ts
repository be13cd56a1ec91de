import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import yazl from "yazl";

/** The fixture folders (real mods' data subsets with their licences; test/fixtures/content/NOTICE.md). */
export const CONTENT_FIXTURES = fileURLToPath(new URL("../fixtures/content", import.meta.url));

const filesOf = (root: string): string[] => {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(root, path).split(sep).join("/"));
    }
  };
  walk(root);
  return found.sort();
};

/** Zip bytes of named entries (built with yazl, as a jar is). */
export const zipBytes = (entries: ReadonlyMap<string, Buffer>, compress = true): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const [name, bytes] of entries) zip.addBuffer(bytes, name, { compress });
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });

/** The entries of a fixture folder, plus jars nested in it (entry name → folder to zip). */
export const folderEntries = async (
  folder: string,
  nested: Readonly<Record<string, string>> = {},
): Promise<Map<string, Buffer>> => {
  const entries = new Map<string, Buffer>();
  for (const name of filesOf(folder)) entries.set(name, readFileSync(join(folder, name)));
  for (const [name, inner] of Object.entries(nested))
    entries.set(name, await zipBytes(await folderEntries(inner)));
  return entries;
};

/** Writes a jar made from a fixture folder (and nested jars) to `path`. */
export const writeJar = async (
  folder: string,
  path: string,
  nested: Readonly<Record<string, string>> = {},
): Promise<void> => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, await zipBytes(await folderEntries(folder, nested)));
};

const fixture = (name: string): string => join(CONTENT_FIXTURES, name);

/**
 * A server folder holding the fixture pack: five mod jars (Farmer's Delight of `farmersDelight`'s version,
 * Create with a nested Flywheel, Mekanism, AE2, a Fabric mod with a nested jar), a datapack in the world and a
 * KubeJS folder.
 */
export const writeContentServer = async (
  serverDir: string,
  options: {
    readonly farmersDelight?: "1.20.1" | "1.21.1";
    readonly kubejs?: boolean;
    readonly datapack?: boolean;
  } = {},
): Promise<void> => {
  const mods = join(serverDir, "mods");
  mkdirSync(mods, { recursive: true });
  await writeJar(
    fixture(`farmersdelight-${options.farmersDelight ?? "1.20.1"}`),
    join(mods, "FarmersDelight.jar"),
  );
  await writeJar(fixture("create-1.20.1"), join(mods, "create-1.20.1-0.5.1.f.jar"), {
    "META-INF/jarjar/flywheel-0.6.10.jar": fixture("create-1.20.1.jarjar/flywheel"),
  });
  await writeJar(fixture("mekanism-1.21.1"), join(mods, "Mekanism-1.21.1-10.7.7.jar"));
  await writeJar(fixture("ae2-1.21.1"), join(mods, "appliedenergistics2-19.2.17.jar"));
  await writeJar(fixture("fabric-sample"), join(mods, "copperworks-1.0.0.jar"), {
    "META-INF/jars/copperworks-api.jar": fixture("fabric-sample.jars/copperworks-api"),
  });
  if (options.datapack !== false)
    cpSync(fixture("datapack-steel"), join(serverDir, "world", "datapacks", "steel"), { recursive: true });
  if (options.kubejs !== false) cpSync(fixture("kubejs"), join(serverDir, "kubejs"), { recursive: true });
};

/** A zip whose one lang entry inflates to `megabytes` of zeros (a few KB on disk). */
export const zipBomb = async (path: string, megabytes = 64): Promise<void> => {
  mkdirSync(dirname(path), { recursive: true });
  const entries = new Map<string, Buffer>([
    ["META-INF/mods.toml", Buffer.from('[[mods]]\nmodId="bomb"\nversion="1"\n')],
    ["assets/bomb/lang/en_us.json", Buffer.alloc(megabytes * 1024 * 1024, 0x20)],
  ]);
  writeFileSync(path, await zipBytes(entries));
};

/** A jar cut short: its first half only (the central directory is lost). */
export const truncatedJar = async (folder: string, path: string): Promise<void> => {
  const bytes = await zipBytes(await folderEntries(folder));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
};

/** Size of a file, for tests that show a zip bomb is small on disk. */
export const fileSize = (path: string): number => statSync(path).size;

/** Where a server keeps the game's own jar: vanilla's unpacked bundle, Forge's installer, or the bundle itself. */
export type GameJarLayout = "versions" | "forge" | "bundle";

/**
 * Writes the game jar fixture (a few of vanilla's recipes, the `minecraft:coals` tag) where a server of `layout`
 * keeps it: `versions/1.21.1/server-1.21.1.jar` (vanilla and Paper after their first start),
 * `libraries/net/minecraft/server/<v>/server-<v>-extra.jar` (Forge, NeoForge), or `server.jar` as a bundle whose
 * `META-INF/versions.list` names the jar it carries (vanilla before its first start, Fabric's launcher).
 */
export const writeGameJar = async (serverDir: string, layout: GameJarLayout): Promise<void> => {
  const game = fixture("game-1.21.1");
  if (layout === "versions")
    return writeJar(game, join(serverDir, "versions", "1.21.1", "server-1.21.1.jar"));
  if (layout === "forge") {
    const version = "1.20.1-20230612.114412";
    return writeJar(
      game,
      join(serverDir, "libraries", "net", "minecraft", "server", version, `server-${version}-extra.jar`),
    );
  }
  const carried = await zipBytes(await folderEntries(game));
  const entries = new Map<string, Buffer>([
    [
      "META-INF/MANIFEST.MF",
      Buffer.from("Manifest-Version: 1.0\r\nMain-Class: net.minecraft.bundler.Main\r\n"),
    ],
    ["META-INF/versions.list", Buffer.from("0f3e1c\t1.21.1\t1.21.1/server-1.21.1.jar\n")],
    ["META-INF/versions/1.21.1/server-1.21.1.jar", carried],
  ]);
  mkdirSync(serverDir, { recursive: true });
  writeFileSync(join(serverDir, "server.jar"), await zipBytes(entries));
};
