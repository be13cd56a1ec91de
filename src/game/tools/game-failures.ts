import { customFailure, type Failure } from "../../agent/failure.js";

/** Failures of game tools; each key is in both language files. */
export const GameFailures = {
  /** The player is not in the game now, so nothing can be read from or given to them. */
  playerOffline: (): Failure => customFailure("PLAYER_OFFLINE", "system.game.player_offline"),
  /** The game refused to give an item (unknown item or no room); the step may run again later. */
  giveFailed: (item: string, count: number): Failure =>
    customFailure("GIVE_FAILED", "system.game.give_failed", item, String(count)),
  /** This server cannot change inventories (the gateway, for now): nothing was given, taken or charged. */
  noWorldEffects: (): Failure => customFailure("NO_WORLD_EFFECTS", "system.game.no_world_effects"),
  /** The player does not hold enough of an item to hand in; nothing was taken. */
  takeFailed: (item: string, count: number): Failure =>
    customFailure("TAKE_FAILED", "system.game.take_failed", item, String(count)),
  /** The server cannot take items right now (its RCON is away or slow): nothing was taken (EFFECT_DEFERRED). */
  takeDeferred: (cause: string): Failure =>
    customFailure("EFFECT_DEFERRED", "system.game.take_deferred", cause),
} as const;
