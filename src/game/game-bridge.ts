import type { InventorySnapshot, PlayerStatsSnapshot } from "./game-snapshots.js";

/** One stack to give: a namespaced item id and a count (may exceed the item's stack size). */
export interface GiveStack {
  readonly item: string;
  readonly count: number;
}

/** Why nothing was given: the player is not online, an item is unknown, or the stacks do not all fit. */
export type GiveRefusal = "offline" | "unknown_item" | "no_room";

/**
 * The outcome of a give. `given: true` means every stack is in the player's inventory AND in the player's saved
 * data on disk, so it survives a crash. A refusal means nothing changed at all.
 */
export type GiveOutcome =
  | { readonly given: true }
  | { readonly given: false; readonly refusal: GiveRefusal; readonly item?: GiveStack };

/**
 * The main-thread bridge: what game tools may read and do in the running game. Reads return codec'd
 * snapshots (copies), never live objects; writes are only called from durable write steps.
 */
export interface GameBridge {
  isOnline(playerId: string): boolean;
  playerName(playerId: string): string | undefined;
  inventory(playerId: string): InventorySnapshot | undefined;
  stats(playerId: string): PlayerStatsSnapshot | undefined;
  /**
   * Gives all stacks or none: it first checks that every stack fits, then changes the inventory and resolves
   * `{ given: true }` only once the player's data is durably saved. It rejects when the outcome is unknown (the
   * inventory changed but the save failed): the caller must not give again without checking.
   */
  giveItems(playerId: string, stacks: readonly GiveStack[]): Promise<GiveOutcome>;
}
