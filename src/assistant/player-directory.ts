import { z } from "zod";
import { codec } from "../util/codec.js";
import { ConfigInstance } from "../util/config-instance.js";
import type { Logger } from "../util/logger.js";

/** A player the server has seen, with what the host last told us. */
export interface PlayerInfo {
  readonly uuid: string;
  readonly name: string;
  readonly locale: string;
  readonly opLevel: number;
}

const KNOWN = codec(z.record(z.string().max(64), z.string().max(32)));

/**
 * Online players (with locale and op level) and the names of every player seen, so admin commands can name
 * offline players. Names are kept in `<world>/system/known-players.json` (atomic writes); an unreadable or
 * invalid file is never written over.
 */
export class PlayerDirectory {
  readonly #online = new Map<string, PlayerInfo>();
  readonly #known: ConfigInstance<Record<string, string>>;

  constructor(path: string | undefined, logger: Logger) {
    this.#known = new ConfigInstance({
      path,
      codec: KNOWN,
      defaults: {},
      logger,
      name: "known-players.json",
      onInvalid: "refuse",
    });
  }

  /** Reads the known names; throws a CorruptFileError naming the file and field when it is invalid. */
  async load(): Promise<void> {
    await this.#known.reload();
  }

  /**
   * Records the player online; true when this server has never seen them before. Their name is written by
   * `remember`, after whatever a first join must make durable first (a crash in between makes the next join a
   * first join again, and its event id dedupes what was already queued).
   */
  join(player: PlayerInfo): boolean {
    this.#online.set(player.uuid, player);
    return this.#known.get()[player.uuid] === undefined;
  }

  /** Writes the player's name to the known players (atomic; a refused file is never written over). */
  async remember(player: PlayerInfo): Promise<void> {
    if (this.#known.get()[player.uuid] !== player.name)
      await this.#known.modify((known) => ({ ...known, [player.uuid]: player.name }));
  }

  update(player: PlayerInfo): void {
    if (this.#online.has(player.uuid)) this.#online.set(player.uuid, player);
  }

  leave(uuid: string): void {
    this.#online.delete(uuid);
  }

  online(uuid: string): PlayerInfo | undefined {
    return this.#online.get(uuid);
  }

  /** Every player online now. */
  everyoneOnline(): PlayerInfo[] {
    return [...this.#online.values()];
  }

  isOnline(uuid: string): boolean {
    return this.#online.has(uuid);
  }

  nameOf(uuid: string): string | undefined {
    return this.#online.get(uuid)?.name ?? this.#known.get()[uuid];
  }

  /** Finds a player by name (any case, online first) or by UUID. */
  resolve(nameOrUuid: string): { uuid: string; name: string } | undefined {
    const wanted = nameOrUuid.toLowerCase();
    for (const player of this.#online.values())
      if (player.name.toLowerCase() === wanted || player.uuid === wanted)
        return { uuid: player.uuid, name: player.name };
    for (const [uuid, name] of Object.entries(this.#known.get()))
      if (name.toLowerCase() === wanted || uuid === wanted) return { uuid, name };
    return undefined;
  }
}
