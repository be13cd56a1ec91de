import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type PlayerQuestProgress, readTeamProgress, type TeamProgressRead } from "./team-progress.js";

/** Where a game server keeps what FTB Quests reads and writes, and who keeps quest progress there. */
export interface FtbServerFolder {
  /** The server's folder (where server.properties is). */
  readonly serverDir: string;
  /** `<serverDir>/<level-name>`: the world save folder. */
  readonly world: string;
  /**
   * `mod`: the FTB Quests mod is installed (its progress folder `<world>/ftbquests/` exists, or its jar is in
   * `mods/`), so the mod owns progress and rewards; `system`: only the quest book is there, System keeps progress.
   */
  readonly progress: "mod" | "system";
}

/** `level-name` of server.properties (`world` when the file or the key is missing). */
export const levelName = (serverDir: string): string => {
  let text: string;
  try {
    text = readFileSync(join(serverDir, "server.properties"), "latin1");
  } catch {
    return "world";
  }
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*level-name\s*[=:]\s*(.*?)\s*$/.exec(line);
    // java.util.Properties escapes: `\:` `\=` `\\`; a level name with other escapes is rare enough to read as is
    if (match?.[1] !== undefined && match[1].length > 0) return match[1].replace(/\\(.)/g, "$1");
  }
  return "world";
};

/** A jar of the FTB Quests mod in `mods/` (`ftb-quests-neoforge-2101.1.6.jar`, `FTBQuests-1.16.5-1602.jar`). */
const FTB_QUESTS_JAR = /^ftb-?quests.*\.jar$/i;

/** What a server folder holds: its world and whether the FTB Quests mod keeps progress there. */
export const inspectServerFolder = (serverDir: string): FtbServerFolder => {
  const world = join(serverDir, levelName(serverDir));
  let jar = false;
  try {
    jar = readdirSync(join(serverDir, "mods")).some((name) => FTB_QUESTS_JAR.test(name));
  } catch {
    jar = false;
  }
  const progress = jar || existsSync(join(world, "ftbquests")) ? "mod" : "system";
  return { serverDir, world, progress };
};

/**
 * FTB team progress of a world, read again whenever the mod has written its files since (it writes them on a
 * world save and at stop): each read compares the names, sizes and modification times of the `.snbt` files in
 * `ftbquests/` and `ftbteams/{player,party,server}/`. Read-only: nothing here ever writes to the world.
 */
export class FtbProgressFiles {
  #signature: string | undefined;
  #read: TeamProgressRead = { players: new Map(), errors: [] };
  readonly #byName = new Map<string, PlayerQuestProgress>();

  constructor(
    readonly world: string,
    private readonly onRead: (read: TeamProgressRead) => void = () => {},
  ) {}

  /** Every player's progress as the files hold it now. */
  current(): TeamProgressRead {
    const signature = this.#signatureNow();
    if (signature !== this.#signature) {
      this.#signature = signature;
      this.#read = readTeamProgress(this.world);
      this.#byName.clear();
      for (const player of this.#read.players.values())
        if (player.name !== undefined) this.#byName.set(player.name.toLowerCase(), player);
      this.onRead(this.#read);
    }
    return this.#read;
  }

  /**
   * A player's progress, by UUID, else by name (`player_name` of their FTB Teams file); undefined when the files
   * name neither (a player who never joined the modded server: no progress yet).
   */
  of(playerId: string, name: string | undefined): PlayerQuestProgress | undefined {
    const read = this.current();
    return (
      read.players.get(playerId.toLowerCase()) ??
      (name === undefined ? undefined : this.#byName.get(name.toLowerCase()))
    );
  }

  #signatureNow(): string {
    const parts: string[] = [];
    for (const folder of ["ftbquests", "ftbteams/player", "ftbteams/party", "ftbteams/server"]) {
      let names: string[];
      try {
        names = readdirSync(join(this.world, folder)).filter((name) => name.endsWith(".snbt"));
      } catch {
        continue;
      }
      for (const name of names.sort()) {
        try {
          const stat = statSync(join(this.world, folder, name));
          parts.push(`${folder}/${name}:${stat.size}:${stat.mtimeMs}`);
        } catch {
          parts.push(`${folder}/${name}:gone`);
        }
      }
    }
    return parts.join("|");
  }
}
