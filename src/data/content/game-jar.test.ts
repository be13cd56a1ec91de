import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type GameJarLayout, writeGameJar, zipBytes } from "../../../test/support/content-pack.js";
import { tempFolders } from "../../../test/support/temp-folders.js";
import { MemoryLogger } from "../../util/logger.js";
import { buildContentCatalog } from "./content-build.js";
import { gameJars } from "./game-jar.js";

const serverFolder = tempFolders("system-game-jar-");

describe("the server's own game jar", () => {
  it.each<[GameJarLayout, string]>([
    ["versions", "versions/1.21.1/server-1.21.1.jar"],
    [
      "forge",
      "libraries/net/minecraft/server/1.20.1-20230612.114412/server-1.20.1-20230612.114412-extra.jar",
    ],
    ["bundle", "server.jar!/META-INF/versions/1.21.1/server-1.21.1.jar"],
  ])(
    "gives vanilla's recipes of every type and its item tags, found where a %s server keeps it",
    async (layout, source) => {
      const serverDir = serverFolder();
      await writeGameJar(serverDir, layout);
      const { catalog } = await buildContentCatalog({ serverDir, logger: new MemoryLogger() });
      expect(catalog.hasGameRecipes()).toBe(true);
      expect(catalog.sources).toEqual([expect.objectContaining({ kind: "game", recipes: 2 })]);
      const iron = catalog.recipesFor("minecraft:iron_ingot");
      expect(iron.map((recipe) => recipe.type).sort()).toEqual([
        "minecraft:crafting_shaped",
        "minecraft:smelting",
      ]);
      expect(iron.find((recipe) => recipe.type === "minecraft:smelting")?.inputs).toEqual([
        { options: ["minecraft:raw_iron"], count: 1 },
      ]);
      expect(catalog.tagItems("#minecraft:coals")).toEqual(["minecraft:coal", "minecraft:charcoal"]);
      // names and loot stay minecraft-data's and System's: none of the jar's are read
      expect([...catalog.items()]).toEqual([]);
      expect(catalog.dropsOf("minecraft:raw_iron")).toEqual([]);
      expect(catalog.issues).toEqual([]);
      expect(layout === "bundle" ? "server.jar" : source).toBe(gameJars(serverDir)[0]);
    },
  );

  it("takes the newest version, passes over a jar in the folder that is no bundle, and has none without a jar", async () => {
    const serverDir = serverFolder();
    expect(gameJars(serverDir)).toEqual([]);
    // a launcher beside the game jar holds no game data: read, it gives nothing and no problem
    writeFileSync(
      join(serverDir, "fabric-server-launch.jar"),
      await zipBytes(new Map([["a.txt", Buffer.from("x")]])),
    );
    const launcherOnly = await buildContentCatalog({ serverDir, logger: new MemoryLogger() });
    expect(launcherOnly.catalog.hasGameRecipes()).toBe(false);
    expect(launcherOnly.catalog.issues).toEqual([]);
    await writeGameJar(serverDir, "versions");
    mkdirSync(join(serverDir, "versions", "1.9"), { recursive: true });
    writeFileSync(join(serverDir, "versions", "1.9", "server-1.9.jar"), "");
    expect(gameJars(serverDir)).toEqual(["versions/1.21.1/server-1.21.1.jar"]);
  });

  it("takes the newest of an unpacked jar and a loader's extra jar, so a folder left from an old install loses", async () => {
    const serverDir = serverFolder();
    await writeGameJar(serverDir, "forge");
    mkdirSync(join(serverDir, "versions", "1.19.2"), { recursive: true });
    writeFileSync(join(serverDir, "versions", "1.19.2", "server-1.19.2.jar"), "");
    expect(gameJars(serverDir)).toEqual([
      "libraries/net/minecraft/server/1.20.1-20230612.114412/server-1.20.1-20230612.114412-extra.jar",
    ]);
  });

  it("reads only the first line of a bundle's versions.list, however long the list", async () => {
    const serverDir = serverFolder();
    const list = Buffer.concat([Buffer.from("x\t1.21.1\tmissing.jar\n"), Buffer.alloc(8 * 1024 * 1024, 10)]);
    writeFileSync(join(serverDir, "server.jar"), await zipBytes(new Map([["META-INF/versions.list", list]])));
    const { catalog } = await buildContentCatalog({ serverDir, logger: new MemoryLogger() });
    expect(catalog.hasGameRecipes()).toBe(false);
    expect(catalog.issues).toEqual([
      expect.objectContaining({
        file: "server.jar",
        message: expect.stringContaining("names no jar the bundle carries"),
      }),
    ]);
  });
});
