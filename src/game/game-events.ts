import { ContextType } from "../agent/module/context-type.js";

/**
 * The game events advancement rules can trigger on. The host reports the first six and advancements; features report the rest
 * (check-in, quests, shop). Each event has a type, a player, an id (dedupe) and typed data.
 */
export const GameEventTypes = {
  /** A player this server never saw before. Data: none. */
  FIRST_JOIN: "system:first_join",
  /** Every join. Data: none. */
  JOIN: "system:join",
  /** Every leave. Data: none. */
  LEAVE: "system:leave",
  /** The player died. Data: none. */
  DEATH: "system:death",
  /** The player entered another dimension. Data: `dimension` (`minecraft:the_nether`). */
  DIMENSION_CHANGE: "system:dimension_change",
  /**
   * Each whole minute online in one session. Data: `minutes` (minutes online this session) and `total` (minutes
   * online over every session).
   */
  PLAYTIME: "system:playtime",
  /**
   * The player completed an advancement the game shows (where the host sees them: the gateway). Data:
   * `advancement` (`minecraft:story/mine_diamond`).
   */
  ADVANCEMENT: "system:advancement",
  /** The player killed an entity, where the host reports kills. Data: `entity` (`minecraft:zombie`). */
  KILL: "system:kill",
  /** A check-in was recorded. Data: `streak` (consecutive days including today). */
  CHECK_IN_STREAK: "system:check_in_streak",
  /** A quest became complete for the player. Data: `quest` (its id). */
  QUEST_COMPLETED: "system:quest_completed",
  /** Every visible quest of a chapter is complete. Data: `chapter` (its id). */
  CHAPTER_COMPLETED: "system:chapter_completed",
  /** A shop order's items were delivered. Data: `entry` (catalog entry), `order`, `quantity`. */
  ORDER_DELIVERED: "system:order_delivered",
} as const;

export type GameEventType = (typeof GameEventTypes)[keyof typeof GameEventTypes];

/** Every event type a rule may name. */
export const GAME_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(GameEventTypes));

/** What one game event carries: strings and whole numbers only (it is stored with the task it starts). */
export type GameEventData = Readonly<Record<string, string | number>>;

/** One game event. `id` is unique per occurrence: the same id offered twice starts nothing new. */
export interface GameEvent {
  readonly type: GameEventType;
  readonly playerId: string;
  readonly id: string;
  readonly data: GameEventData;
}

/**
 * Where hosts and features report game events; the assistant matches them against the admin's advancement rules
 * and queues a durable task per matching rule. `emit` resolves once those tasks are durable; it never throws.
 */
export interface GameEventSink {
  emit(event: GameEvent): Promise<void>;
}

/** The game-event sink features get through ModuleContext. */
export const GAME_EVENTS = ContextType.of<GameEventSink>("system:game_events");
