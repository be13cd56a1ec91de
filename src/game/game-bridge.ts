import type { InventorySnapshot, PlayerStatsSnapshot } from "./game-snapshots.js";

/**
 * The main-thread bridge: what game tools may read and do in the running game. Reads return codec'd
 * snapshots (copies), never live objects; writes are only called from durable write steps.
 */
export interface GameBridge {
  isOnline(playerId: string): boolean;
  playerName(playerId: string): string | undefined;
  inventory(playerId: string): InventorySnapshot | undefined;
  stats(playerId: string): PlayerStatsSnapshot | undefined;
  /** Puts items into an online player's inventory; false when offline, unknown item or no room. */
  giveItem(playerId: string, item: string, count: number): Promise<boolean>;
}
