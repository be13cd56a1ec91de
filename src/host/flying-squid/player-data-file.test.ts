import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import nbt from "prismarine-nbt";
import { afterEach, describe, expect, it } from "vitest";
import { playerDataPath, savePlayerData } from "./player-data-file.js";

interface StoredItem {
  readonly Slot: { readonly value: number };
  readonly id: { readonly value: string };
  readonly Count: { readonly value: number };
}
/** flying-squid's own reader: what the next login loads. */
const playerDat = createRequire(import.meta.url)("flying-squid/src/lib/playerDat.js") as {
  read(
    uuid: string,
    spawnPoint: unknown,
    worldFolder: string,
  ): Promise<{ player: { xp: number; health: number }; inventory: StoredItem[] }>;
};

const UUID = "5d6f6b1c-0c8a-3d6e-8a2b-2f1c7e9b4a11";
const player = (slots: { slot: number; name: string; count: number }[], xp = 0) => ({
  uuid: UUID,
  health: 18,
  food: 20,
  gameMode: 0,
  xp,
  heldItemSlot: 0,
  position: { x: 1, y: 5, z: 2 },
  yaw: 0,
  pitch: 0,
  onGround: true,
  inventory: { slots },
});
const inventoryOf = async (world: string) =>
  (await playerDat.read(UUID, { clone: () => ({ x: 0, y: 0, z: 0 }) }, world)).inventory.map((item) => ({
    slot: item.Slot.value,
    id: item.id.value,
    count: item.Count.value,
  }));

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("savePlayerData", () => {
  it("writes flying-squid's gzip NBT player file, which its login reader loads back", async () => {
    const world = await mkdtemp(join(tmpdir(), "player-data-"));
    folders.push(world);
    const save = (slots: { slot: number; name: string; count: number }[], xp = 0) =>
      savePlayerData({ player: player(slots, xp), worldFolder: world, snakeCase: true, theFlattening: true });
    await save([{ slot: 36, name: "bread", count: 3 }]);
    expect(await inventoryOf(world)).toEqual([{ slot: 0, id: "minecraft:bread", count: 3 }]);
    await save(
      [
        { slot: 36, name: "bread", count: 3 },
        { slot: 9, name: "experience_bottle", count: 2 },
      ],
      7,
    );
    expect(await inventoryOf(world)).toEqual([
      { slot: 0, id: "minecraft:bread", count: 3 },
      { slot: 9, id: "minecraft:experience_bottle", count: 2 },
    ]);
    expect((await playerDat.read(UUID, undefined, world)).player).toMatchObject({ xp: 7, health: 18 });
    // Only the player file is in playerdata: no temp file is left beside it.
    expect(await readdir(join(world, "playerdata"))).toEqual([`${UUID}.dat`]);
  });

  it("keeps the tags flying-squid does not model (a vanilla file), replacing only what it writes", async () => {
    const world = await mkdtemp(join(tmpdir(), "player-data-"));
    folders.push(world);
    await savePlayerData({ player: player([]), worldFolder: world, snakeCase: true, theFlattening: true });
    const path = playerDataPath(world, UUID);
    const parsed = (await nbt.parse(await readFile(path))).parsed;
    parsed.value.XpLevel = { type: "int", value: 30 };
    await writeFile(path, gzipSync(nbt.writeUncompressed(parsed)));
    await savePlayerData({
      player: player([{ slot: 36, name: "diamond", count: 1 }]),
      worldFolder: world,
      snakeCase: true,
      theFlattening: true,
    });
    const after = (await nbt.parse(await readFile(path))).parsed;
    expect(after.value.XpLevel).toEqual({ type: "int", value: 30 });
    expect(await inventoryOf(world)).toEqual([{ slot: 0, id: "minecraft:diamond", count: 1 }]);
  });
});
