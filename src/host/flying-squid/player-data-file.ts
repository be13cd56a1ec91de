import { copyFile, mkdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../../util/atomic-file.js";

/** flying-squid's own player-file module (CommonJS, untyped): the serialiser we reuse. */
interface PlayerDat {
  save(player: unknown, worldFolder: string, snakeCase: boolean, theFlattening: boolean): Promise<void>;
}

let playerDat: PlayerDat | undefined;
const loadPlayerDat = (): PlayerDat => {
  playerDat ??= createRequire(import.meta.url)("flying-squid/src/lib/playerDat.js") as PlayerDat;
  return playerDat;
};

/** `<world>/playerdata/<uuid>.dat`: where flying-squid (and vanilla) keep a player's gzip NBT file. */
export const playerDataPath = (worldFolder: string, uuid: string): string =>
  join(worldFolder, "playerdata", `${uuid}.dat`);

/** What a save needs: the live flying-squid player, its world folder and the version's NBT flavour. */
export interface PlayerDataSave {
  /** flying-squid's player entity (uuid, health, food, xp, position, inventory, …). */
  readonly player: { readonly uuid: string };
  readonly worldFolder: string;
  /** `serv.supportFeature('attributeSnakeCase')`. */
  readonly snakeCase: boolean;
  /** `serv.supportFeature('theFlattening')`. */
  readonly theFlattening: boolean;
}

/**
 * Writes a player's data file exactly as flying-squid 1.12 does (its `playerDat.save`: the stored file with
 * health, food, xp, position and inventory replaced, every other tag kept), but atomically. flying-squid writes
 * over the file in place, so a crash mid-write can leave it truncated and the player starts empty; here its
 * serialiser writes into a scratch world (`<world>/system/player-save/<uuid>`, removed after), and the bytes then
 * replace the real file by temp file + fsync + rename + folder fsync. Resolves once the new file is durable.
 * Saves of one player must not overlap (SquidHostPlayer runs them one at a time).
 */
export const savePlayerData = async (options: PlayerDataSave): Promise<void> => {
  const { uuid } = options.player;
  const target = playerDataPath(options.worldFolder, uuid);
  const scratchWorld = join(options.worldFolder, "system", "player-save", uuid);
  const scratch = playerDataPath(scratchWorld, uuid);
  await mkdir(dirname(scratch), { recursive: true });
  try {
    await copyFile(target, scratch);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await rm(scratch, { force: true });
  }
  await loadPlayerDat().save(options.player, scratchWorld, options.snakeCase, options.theFlattening);
  const bytes = await readFile(scratch);
  await rm(scratchWorld, { recursive: true, force: true });
  await mkdir(dirname(target), { recursive: true });
  await writeFileAtomic(target, bytes);
};
