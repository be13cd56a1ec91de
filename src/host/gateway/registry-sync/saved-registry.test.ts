import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import nbt from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../../util/logger.js";
import { readSavedItemIds } from "./saved-registry.js";

const write = (file: string, root: unknown): void => {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, gzipSync(nbt.writeUncompressed(root as nbt.NBT, "big")));
};

const serverDir = (): string => mkdtempSync(join(tmpdir(), "saved-registry-"));

describe("readSavedItemIds", () => {
  it("reads Forge's level.dat fml.Registries of the world server.properties names", async () => {
    const dir = serverDir();
    writeFileSync(join(dir, "server.properties"), "motd=x\nlevel-name=pack\n");
    const ids = [
      { K: nbt.string("minecraft:air"), V: nbt.int(0) },
      { K: nbt.string("create:cogwheel"), V: nbt.int(7) },
    ];
    write(
      join(dir, "pack", "level.dat"),
      nbt.comp({
        fml: nbt.comp({
          Registries: nbt.comp({ "minecraft:item": nbt.comp({ ids: nbt.list(nbt.comp(ids as never)) }) }),
        }),
      }),
    );
    const saved = await readSavedItemIds(dir, new MemoryLogger());
    expect(saved?.file).toBe(join(dir, "pack", "level.dat"));
    expect(saved?.ids.get(7)).toBe("create:cogwheel");
  });

  it("reads Fabric's data/fabricRegistry.dat when level.dat has none", async () => {
    const dir = serverDir();
    write(join(dir, "world", "level.dat"), nbt.comp({ Data: nbt.comp({}) }));
    write(
      join(dir, "world", "data", "fabricRegistry.dat"),
      nbt.comp({
        version: nbt.int(1),
        registries: nbt.comp({
          "minecraft:item": nbt.comp({
            "minecraft:air": nbt.int(0),
            "copperworks:copper_gear": nbt.int(1400),
          }),
        }),
      }),
    );
    const saved = await readSavedItemIds(dir, new MemoryLogger());
    expect(saved?.ids.get(1400)).toBe("copperworks:copper_gear");
  });

  it("gives nothing for a vanilla world, and one warning for a file that is not NBT", async () => {
    const dir = serverDir();
    write(join(dir, "world", "level.dat"), nbt.comp({ Data: nbt.comp({}) }));
    expect(await readSavedItemIds(dir, new MemoryLogger())).toBeUndefined();
    writeFileSync(join(dir, "world", "level.dat"), gzipSync(Buffer.from("not nbt at all")));
    const logger = new MemoryLogger();
    expect(await readSavedItemIds(dir, logger)).toBeUndefined();
    expect(logger.has("could not be read")).toBe(true);
  });
});
