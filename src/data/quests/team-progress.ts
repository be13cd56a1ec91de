import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseSnbt, type SnbtCompound, SnbtError, type SnbtValue } from "./snbt.js";

/**
 * One player's FTB Quests progress, read from their live team's `ftbquests/<team-uuid>.snbt` (TeamData).
 * Ids are 16 upper-case hex digits; times are epoch milliseconds (longs in the file).
 */
export interface PlayerQuestProgress {
  /** Dashed lower-case UUID, as the game server names the player. */
  readonly playerId: string;
  /** `player_name` of `ftbteams/player/<uuid>.snbt`, FTB Teams' only name lookup. */
  readonly name?: string;
  /** Dashed team UUID: the party or server team the player is a member of, else the player's own id. */
  readonly team: string;
  /** `task_progress`: task id → progress (written as int or long, by era). */
  readonly tasks: ReadonlyMap<string, number>;
  /** `completed`: object id (file, chapter, quest or task) → completion time. */
  readonly completed: ReadonlyMap<string, number>;
  /**
   * `claimed_rewards` keyed `"<claimer uuid32>:<REWARDHEX>"`: reward id → claim time, for the rewards this
   * player claimed plus team rewards (claimer is the nil UUID). Other members' personal claims are left out.
   */
  readonly claimedRewards: ReadonlyMap<string, number>;
}

/** A file that could not be read; `file` is relative to the world folder, `line` is 1-based when known. */
export interface TeamProgressError {
  readonly file: string;
  readonly line?: number;
  readonly message: string;
}

/** Every player found in a world, keyed by dashed lower-case UUID, and the files that failed. */
export interface TeamProgressRead {
  readonly players: ReadonlyMap<string, PlayerQuestProgress>;
  readonly errors: readonly TeamProgressError[];
}

/** Team ranks that make a player a member (`TeamRank.MEMBER` and above); `ally`, `invited`… do not. */
const MEMBER_RANKS = new Set(["member", "officer", "owner"]);
const NIL_UUID = "00000000000000000000000000000000";
const UUID_TEXT = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

interface TeamProgress {
  readonly tasks: Map<string, number>;
  readonly completed: Map<string, number>;
  /** Undashed claimer UUID → reward id → claim time. */
  readonly claims: Map<string, Map<string, number>>;
}

/**
 * Reads FTB Quests team progress from a world folder (`world/` or `saves/<name>/`), MC 1.16 → 1.21.x:
 * - `ftbteams/{player,party,server}/*.snbt` give teams (`id`: dashed string, or `[I; a,b,c,d]` from 1.21.5),
 *   members (`ranks` entries of rank member/officer/owner) and names (`player_name`); `deleted/` is ignored.
 * - `ftbquests/*-*.snbt` hold TeamData; the team is the file's `uuid` key (32 hex), not its name.
 * - A party or server member gets that team's progress, never the stale personal file left from before joining.
 * - A progress file that matches no team file counts as a player's own team when `ftbteams/` is missing (a copy of
 *   `ftbquests/` alone) or when the file itself names its uuid as a player (a claim or a `player_data` key);
 *   otherwise it is skipped (most likely a deleted party).
 * Missing folders give an empty result. A file that fails to parse is reported and the others still load.
 */
export const readTeamProgress = (worldFolder: string): TeamProgressRead => {
  const errors: TeamProgressError[] = [];
  const read = (file: string): SnbtCompound | undefined => {
    try {
      const value = parseSnbt(readFileSync(join(worldFolder, file), "utf8"));
      if (isCompound(value)) return value;
      errors.push({ file, line: 1, message: "the file is not a compound" });
    } catch (error) {
      if (error instanceof SnbtError) errors.push({ file, line: error.line, message: error.reason });
      else errors.push({ file, message: `cannot read: ${(error as Error).message}` });
    }
    return undefined;
  };

  const names = new Map<string, string>();
  const teamOf = new Map<string, string>();
  const knownTeams = new Set<string>();
  for (const type of ["player", "party", "server"]) {
    for (const file of snbtFiles(worldFolder, `ftbteams/${type}`)) {
      const data = read(file);
      if (data === undefined) continue;
      const id = uuid(data.id) ?? uuid(file.slice(file.lastIndexOf("/") + 1, -".snbt".length));
      if (id === undefined) {
        errors.push({ file, message: "team without an id" });
        continue;
      }
      knownTeams.add(id);
      if (type === "player") {
        if (typeof data.player_name === "string") names.set(id, data.player_name);
        // a player is always someone, even when their rank moved to a party (`ranks: { }`)
        if (!teamOf.has(id)) teamOf.set(id, id);
      }
      const ranks = isCompound(data.ranks) ? data.ranks : {};
      for (const [player, rank] of Object.entries(ranks)) {
        const member = uuid(player);
        if (member === undefined || typeof rank !== "string" || !MEMBER_RANKS.has(rank)) continue;
        // party and server teams (read after player teams) win over the player's own team
        if (type !== "player" || !teamOf.has(member)) teamOf.set(member, id);
      }
    }
  }

  const teamsFolder = existsSync(join(worldFolder, "ftbteams"));
  const progress = new Map<string, TeamProgress>();
  for (const file of snbtFiles(worldFolder, "ftbquests").filter((file) => file.includes("-"))) {
    const data = read(file);
    if (data === undefined) continue;
    const team = uuid(data.uuid);
    if (team === undefined) {
      errors.push({ file, message: "progress without a team uuid" });
      continue;
    }
    const teamData = teamProgress(data);
    progress.set(team, teamData);
    const undashed = team.replaceAll("-", "");
    const namesItself =
      teamData.claims.has(undashed) || (isCompound(data.player_data) && undashed in data.player_data);
    if (!knownTeams.has(team) && !teamOf.has(team) && (!teamsFolder || namesItself)) teamOf.set(team, team);
  }

  const players = new Map<string, PlayerQuestProgress>();
  for (const [playerId, team] of [...teamOf].sort(([a], [b]) => a.localeCompare(b))) {
    const data = progress.get(team);
    const claimedRewards = new Map([
      ...(data?.claims.get(NIL_UUID) ?? []),
      ...(data?.claims.get(playerId.replaceAll("-", "")) ?? []),
    ]);
    const name = names.get(playerId);
    players.set(playerId, {
      playerId,
      ...(name === undefined ? {} : { name }),
      team,
      tasks: data?.tasks ?? new Map(),
      completed: data?.completed ?? new Map(),
      claimedRewards,
    });
  }
  return { players, errors };
};

const teamProgress = (data: SnbtCompound): TeamProgress => {
  const claims = new Map<string, Map<string, number>>();
  for (const [key, time] of numberEntries(data.claimed_rewards)) {
    // `QuestKey.toString()`: 32 hex of the claimer, ':', the reward's code string
    const claimer = key.slice(0, 32).toLowerCase();
    const reward = hexId(key.slice(33));
    if (key[32] !== ":" || !/^[0-9a-f]{32}$/.test(claimer) || reward === undefined) continue;
    const own = claims.get(claimer) ?? new Map<string, number>();
    claims.set(claimer, own.set(reward, time));
  }
  return { tasks: byHexId(data.task_progress), completed: byHexId(data.completed), claims };
};

const byHexId = (value: SnbtValue | undefined): Map<string, number> => {
  const result = new Map<string, number>();
  for (const [key, number] of numberEntries(value)) {
    const id = hexId(key);
    if (id !== undefined) result.set(id, number);
  }
  return result;
};

/** The entries of a compound whose values are numbers (int or long), as JavaScript numbers. */
const numberEntries = (value: SnbtValue | undefined): [string, number][] =>
  Object.entries(isCompound(value) ? value : {}).flatMap(([key, entry]): [string, number][] =>
    typeof entry === "number" || typeof entry === "bigint" ? [[key, Number(entry)]] : [],
  );

/** `parseCodeString`: an optional `#`, then hex; normalised to 16 upper-case digits. */
const hexId = (text: string): string | undefined => {
  const hex = text.startsWith("#") ? text.slice(1) : text;
  return /^[0-9a-fA-F]{1,16}$/.test(hex) ? hex.toUpperCase().padStart(16, "0") : undefined;
};

/** A UUID as dashed or undashed text or as `[I; a,b,c,d]` (UUIDUtil.CODEC), to dashed lower case. */
const uuid = (value: SnbtValue | undefined): string | undefined => {
  let hex: string | undefined;
  if (typeof value === "string" && UUID_TEXT.test(value)) hex = value.replaceAll("-", "").toLowerCase();
  else if (Array.isArray(value) && value.length === 4 && value.every((part) => typeof part === "number"))
    hex = value.map((part) => (part >>> 0).toString(16).padStart(8, "0")).join("");
  if (hex === undefined) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
const isCompound = (value: SnbtValue | undefined): value is SnbtCompound =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `.snbt` files directly in a folder of the world, as world-relative paths, sorted; none when it is missing. */
const snbtFiles = (worldFolder: string, folder: string): string[] => {
  try {
    return readdirSync(join(worldFolder, folder), { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".snbt"))
      .map((entry) => `${folder}/${entry.name}`)
      .sort();
  } catch {
    return [];
  }
};
