import { z } from "zod";
import { type Codec, codec } from "../util/codec.js";

const stackSchema = z.object({
  slot: z.number().int(),
  item: z.string(),
  count: z.number().int().positive(),
});

/** One occupied inventory slot, by protocol slot number (36–44 is the hotbar). */
export type ItemStackSnapshot = z.infer<typeof stackSchema>;

const inventorySchema = z.object({
  stacks: z.array(stackSchema),
  freeSlots: z.number().int().nonnegative(),
  heldSlot: z.number().int().min(0).max(8),
});

/** A copy of a player's inventory taken on the game thread; mutating it changes nothing in the game. */
export type InventorySnapshot = z.infer<typeof inventorySchema>;
export const INVENTORY_SNAPSHOT: Codec<InventorySnapshot> = codec(inventorySchema);

// every piece may be unknown: the gateway knows only what it has read from the relayed packets
const statsSchema = z.object({
  health: z.number().optional(),
  food: z.number().optional(),
  xpLevel: z.number().int().nonnegative().optional(),
  xpTotal: z.number().nonnegative().optional(),
  position: z.object({ x: z.number(), y: z.number(), z: z.number() }).optional(),
  dimension: z.string().optional(),
  gameMode: z.enum(["survival", "creative", "adventure", "spectator"]).optional(),
  inventory: z
    .object({
      usedSlots: z.number().int().nonnegative(),
      freeSlots: z.number().int().nonnegative(),
      totals: z.array(z.object({ item: z.string(), count: z.number().int().positive() })),
    })
    .optional(),
});

/**
 * Health, food, xp, position, dimension, game mode and an inventory summary, as plain data. A piece the host
 * does not know (the gateway before the packet that tells it, or one it could not decode) is absent.
 */
export type PlayerStatsSnapshot = z.infer<typeof statsSchema>;
export const PLAYER_STATS_SNAPSHOT: Codec<PlayerStatsSnapshot> = codec(statsSchema);

const GAME_MODES = ["survival", "creative", "adventure", "spectator"] as const;

/** The vanilla name of a numeric game mode (flying-squid stores 0–3). */
export const gameModeName = (mode: number): NonNullable<PlayerStatsSnapshot["gameMode"]> =>
  GAME_MODES[mode] ?? "survival";

/** Sums stacks per item id, largest first; the summary a player query shows. */
export const inventoryTotals = (
  stacks: readonly ItemStackSnapshot[],
): NonNullable<PlayerStatsSnapshot["inventory"]>["totals"] => {
  const totals = new Map<string, number>();
  for (const stack of stacks) totals.set(stack.item, (totals.get(stack.item) ?? 0) + stack.count);
  return [...totals]
    .map(([item, count]) => ({ item, count }))
    .sort((left, right) => right.count - left.count || left.item.localeCompare(right.item));
};
