import { createHash } from "node:crypto";
import { ANY_MOB } from "../../../game/kill-interests.js";
import type { Logger } from "../../../util/logger.js";
import type { RconCommand } from "./rcon-command.js";
import { objectiveAddCommand, scoreGetCommand } from "./server-commands.js";

/** How often the backend's kill counts are read while someone has kills that count (a few commands each time). */
export const DEFAULT_KILL_POLL_MILLIS = 5_000;
/** The most kills one read turns into events for one player and entity type (a jump beyond is logged). */
const MAX_KILLS_PER_READ = 100;

/** One read of a count: its objective, the score now, the score read before (none at a session's first read). */
interface ScoreRead {
  readonly objective: string;
  readonly score: number;
  readonly last: number | undefined;
}

/** A player online at the gateway. */
export interface KillWatchPlayer {
  readonly uuid: string;
  readonly name: string;
}

export interface KillStatisticsOptions {
  /** Runs typed commands over the backend's RCON (RconCommands: it picks `minecraft:` names where they are safe). */
  readonly commands: { run<R>(command: RconCommand<R>): Promise<R> };
  /** The players online now. */
  readonly players: () => readonly KillWatchPlayer[];
  /** The entity types whose kills count for a player now (kill rules, open quest kill tasks). */
  readonly hunted: (uuid: string) => Promise<ReadonlySet<string>>;
  /** One kill: the same path the embedded world reports a kill on. `entityId` is stable per kill. */
  readonly report: (uuid: string, entity: string, entityId: string) => void;
  readonly logger: Logger;
  readonly intervalMillis?: number;
}

/**
 * The scoreboard objective counting kills of an entity type: `sk.zombie` for a vanilla mob whose name fits the 16
 * characters older servers allow, else `sk.` and 13 hex digits of the id's SHA-1.
 */
export const killObjective = (entity: string): string => {
  if (entity === ANY_MOB) return "sk.any_mob";
  const vanilla = /^minecraft:([a-z0-9_]{1,13})$/.exec(entity)?.[1];
  if (vanilla !== undefined) return `sk.${vanilla}`;
  return `sk.${createHash("sha1").update(entity).digest("hex").slice(0, 13)}`;
};

/** The criterion of kills of an entity type: `minecraft.killed:minecraft.zombie` (the statistic's own name). */
export const killCriterion = (entity: string): string =>
  entity === ANY_MOB
    ? "minecraft.custom:minecraft.mob_kills"
    : `minecraft.killed:${entity.replace(":", ".")}`;

/**
 * Kills the relayed packets do not show, read from the backend's own statistics: for each entity type that counts
 * for an online player, a scoreboard objective with the `minecraft.killed:<entity>` criterion is created over RCON
 * (once; one that exists is used as it is), and each such player's score is read with `scoreboard players get` at a
 * modest interval. The first read of a player's score in a session is where counting starts; each increase after it
 * is reported as that many kills, each with an id naming the objective and the count it reached, so a kill reported
 * twice counts once. A read that fails (the backend down, a reply System cannot read) is logged and tried again at
 * the next interval; a criterion the backend does not know (a modded entity not installed) is logged once and left.
 */
export class KillStatistics {
  /** Entity type → its objective, once created or found; undefined while it cannot be made. */
  readonly #objectives = new Map<string, string | undefined>();
  /** `uuid\0objective` → the last score read. */
  readonly #seen = new Map<string, number>();
  /** Per player: kills reported with their entity that the mob-kills count has not taken in yet. */
  readonly #named = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #failing = false;

  constructor(private readonly options: KillStatisticsOptions) {}

  /** Reads at the interval until `stop`. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      void this.poll();
    }, this.options.intervalMillis ?? DEFAULT_KILL_POLL_MILLIS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** A player left: their next session starts counting at its first read. */
  forget(uuid: string): void {
    for (const key of this.#seen.keys()) if (key.startsWith(`${uuid}\u0000`)) this.#seen.delete(key);
    this.#named.delete(uuid);
  }

  /** One read of every online player's counts that matter now; one at a time (a slow one is not overtaken). */
  poll(): Promise<void> {
    this.#polling ??= this.#poll().finally(() => {
      this.#polling = undefined;
    });
    return this.#polling;
  }

  async #poll(): Promise<void> {
    const online = this.options.players();
    const present = new Set(online.map((player) => player.uuid));
    for (const key of this.#seen.keys())
      if (!present.has(key.slice(0, key.indexOf("\u0000")))) this.#seen.delete(key);
    for (const uuid of this.#named.keys()) if (!present.has(uuid)) this.#named.delete(uuid);
    try {
      for (const player of online) {
        const hunted = await this.options.hunted(player.uuid);
        // the mob kills first, then the named counts: a kill the first read took in, the named reads (later, and
        // counted by the server no later) have too, so it is reported once, with its entity
        const mobs = hunted.has(ANY_MOB) ? await this.#score(player, ANY_MOB) : undefined;
        let named = 0;
        for (const entity of hunted) {
          if (entity === ANY_MOB) continue;
          const read = await this.#score(player, entity);
          if (read !== undefined && read.last !== undefined)
            named += this.#report(player, entity, read, read.last);
        }
        if (mobs !== undefined && mobs.last !== undefined) this.#reportMobs(player, mobs, mobs.last, named);
      }
      if (this.#failing) this.options.logger.info("kill statistics: the backend answers again");
      this.#failing = false;
    } catch (error) {
      if (!this.#failing)
        this.options.logger.warn(`kill statistics: cannot read the backend's kill counts: ${String(error)}`);
      this.#failing = true;
    }
  }

  /**
   * Kills of any mob that no named count reported: the increase of the mob-kills statistic less the kills the
   * named counts reported (now, or at an earlier read that saw them first).
   */
  #reportMobs(player: KillWatchPlayer, read: ScoreRead, last: number, named: number): void {
    const credit = (this.#named.get(player.uuid) ?? 0) + named;
    const taken = Math.min(credit, Math.max(0, read.score - last));
    this.#named.set(player.uuid, credit - taken);
    this.#report(player, ANY_MOB, read, last + taken);
  }

  /** One count's score now and the one read before (undefined at a session's first read, where counting starts). */
  async #score(player: KillWatchPlayer, entity: string): Promise<ScoreRead | undefined> {
    const objective = await this.#objective(entity);
    if (objective === undefined) return undefined;
    const command = scoreGetCommand({ player: player.name, objective });
    if (!command.success) return undefined;
    const reply = await this.options.commands.run(command.value);
    if (reply.outcome === "unknown_objective") {
      // removed by an admin: made again at the next read
      this.#objectives.delete(entity);
      return undefined;
    }
    if (reply.outcome === "unknown_command")
      throw new Error(`the backend does not know the scoreboard command`);
    // no score yet: no kill of this type since the objective exists
    const score = reply.outcome === "score" ? reply.value : 0;
    const key = `${player.uuid}\u0000${objective}`;
    const last = this.#seen.get(key);
    this.#seen.set(key, score);
    return { objective, score, last };
  }

  /** Reports the kills from count `last` (excluded) to the score, at most MAX_KILLS_PER_READ; returns how many. */
  #report(player: KillWatchPlayer, entity: string, read: ScoreRead, last: number): number {
    const { objective, score } = read;
    if (score <= last) return 0;
    if (score - last > MAX_KILLS_PER_READ)
      this.options.logger.warn(
        `kill statistics: ${player.name}'s ${entity} kills jumped from ${last} to ${score}; ${MAX_KILLS_PER_READ} counted`,
      );
    const first = Math.max(last + 1, score - MAX_KILLS_PER_READ + 1);
    for (let count = first; count <= score; count++)
      this.options.report(player.uuid, entity, `score:${objective}:${count}`);
    return score - first + 1;
  }

  /** The entity type's objective, created when needed; undefined when the backend refuses its criterion. */
  async #objective(entity: string): Promise<string | undefined> {
    if (this.#objectives.has(entity)) return this.#objectives.get(entity);
    const objective = killObjective(entity);
    const command = objectiveAddCommand({ objective, criterion: killCriterion(entity) });
    if (!command.success) {
      this.options.logger.warn(`kill statistics: ${entity}: ${command.error}`);
      this.#objectives.set(entity, undefined);
      return undefined;
    }
    const reply = await this.options.commands.run(command.value);
    if (reply.outcome === "unknown_criterion") {
      this.options.logger.warn(
        `kill statistics: the backend has no kill statistic for ${entity}; not counted`,
      );
      this.#objectives.set(entity, undefined);
      return undefined;
    }
    if (reply.outcome === "unknown_command")
      throw new Error(`the backend does not know the scoreboard command`);
    this.#objectives.set(entity, objective);
    return objective;
  }
}
