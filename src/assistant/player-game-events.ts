import type { AgentStore } from "../agent/storage/agent-store.js";
import { ModuleData } from "../agent/storage/player-data.js";
import type { GameClock } from "../game/context-types.js";
import {
  type GameEventData,
  type GameEventSink,
  type GameEventType,
  GameEventTypes,
} from "../game/game-events.js";
import type { Logger } from "../util/logger.js";
import { playtimeStorage } from "./playtime-total.js";

/**
 * The game events the host reports about players, with their dedupe ids: joins (first and every), leaves,
 * deaths, dimension changes, kills, and playtime per whole minute of each session (with the player's total over
 * every session, kept in their player file). The advancement rules decide what runs.
 */
export class PlayerGameEvents {
  /** Online sessions: when each began, up to when its time was added to the total, the minutes reported. */
  readonly #sessions = new Map<string, { readonly since: number; counted: number; minutes: number }>();
  #ticking = false;

  constructor(
    private readonly sink: GameEventSink,
    private readonly clock: GameClock,
    private readonly store: AgentStore,
    private readonly logger: Logger,
  ) {}

  /** A session starts (its playtime counts from now); the join and, the first time, first-join events. */
  async joined(uuid: string, first: boolean, remember: () => Promise<void>): Promise<void> {
    const now = this.clock.now();
    this.#sessions.set(uuid, { since: now, counted: now, minutes: 0 });
    // the first-join event is durable before the player is remembered: a crash in between repeats it (deduped)
    if (first) await this.#emit(GameEventTypes.FIRST_JOIN, uuid, `first_join/${uuid}`, {});
    await remember();
    await this.#emit(GameEventTypes.JOIN, uuid, `join/${uuid}/${now}`, {});
  }

  /** The session ends: its last time online is added to the total, and a leave event when there was one. */
  async left(uuid: string): Promise<void> {
    const session = this.#sessions.get(uuid);
    this.#sessions.delete(uuid);
    if (session === undefined) return;
    const now = this.clock.now();
    await this.#count(uuid, now - session.counted).catch((error: unknown) =>
      this.logger.warn(`playtime of ${uuid} not counted: ${String(error)}`),
    );
    await this.#emit(GameEventTypes.LEAVE, uuid, `leave/${uuid}/${now}`, {});
  }

  died(uuid: string): Promise<void> {
    return this.#emit(GameEventTypes.DEATH, uuid, `death/${uuid}/${this.clock.now()}`, {});
  }

  changedDimension(uuid: string, dimension: string): Promise<void> {
    return this.#emit(GameEventTypes.DIMENSION_CHANGE, uuid, `dimension/${uuid}/${this.clock.now()}`, {
      dimension,
    });
  }

  /** One event per advancement and player: an advancement completes once (a revoked one granted again is not new). */
  advanced(uuid: string, advancement: string): Promise<void> {
    return this.#emit(GameEventTypes.ADVANCEMENT, uuid, `advancement/${uuid}/${advancement}`, {
      advancement,
    });
  }

  /** One event per killed entity (`entityId`), whatever reports it twice. */
  killed(uuid: string, entity: string, entityId: string): Promise<void> {
    return this.#emit(GameEventTypes.KILL, uuid, `kill/${uuid}/${entityId}`, { entity });
  }

  /**
   * One playtime event per whole minute reached in each online session (a clock that jumps reports it once),
   * with `minutes` this session and `total` over every session. The time is added to the total first, in memory
   * (a tick transaction; the file or row write is coalesced): a crash loses at most the store's coalescing
   * interval of playtime and that one event, and the next minute's carries the total on. A leave writes it.
   */
  async tickPlaytime(): Promise<void> {
    // one tick at a time: a slow one (many players, a slow disk) is not overtaken by the next
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      await this.#tick();
    } finally {
      this.#ticking = false;
    }
  }

  async #tick(): Promise<void> {
    const now = this.clock.now();
    for (const [uuid, session] of this.#sessions) {
      const minutes = Math.floor((now - session.since) / 60_000);
      if (minutes <= session.minutes) continue;
      // the interval is taken before the write, so a leave meanwhile counts only what follows it
      const from = session.counted;
      const reported = session.minutes;
      session.counted = now;
      session.minutes = minutes;
      // memory only (the seed's tick transaction): the store writes it coalesced on the maintenance pool
      const counted = this.store.tickTransaction(uuid, (data) => {
        const total = ModuleData.get(data, playtimeStorage);
        total.add(now - from);
        return total.minutes;
      });
      if (!counted.ran) {
        // the player's record is busy or not loaded yet: the next tick or the leave counts this interval
        if (this.#sessions.get(uuid) === session && session.counted === now) {
          session.counted = from;
          session.minutes = reported;
        }
        continue;
      }
      const total = counted.value;
      await this.#emit(GameEventTypes.PLAYTIME, uuid, `playtime/${uuid}/${session.since}/${minutes}`, {
        minutes,
        total,
      });
    }
  }

  /** Adds a leaving player's last time online to their total (one durable transaction); its whole minutes. */
  #count(uuid: string, millis: number): Promise<number> {
    return this.store.transaction(uuid, (data) => {
      const total = ModuleData.get(data, playtimeStorage);
      total.add(millis);
      return total.minutes;
    });
  }

  #emit(type: GameEventType, playerId: string, id: string, data: GameEventData): Promise<void> {
    return this.sink.emit({ type, playerId, id, data });
  }
}
