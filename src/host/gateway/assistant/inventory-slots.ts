import type { ItemStackSnapshot } from "../../../game/game-snapshots.js";

/** The player's own window (its protocol slots 9–44 hold what the player carries). */
export const PLAYER_WINDOW = 0;
/** How many slots of any other window are the player's: main inventory (27), then hotbar (9), last. */
const PLAYER_PART = 36;

/**
 * A stack as minecraft-protocol decodes a `Slot`: `{itemCount, itemId, …components}` from 1.20.5 on,
 * `{present, itemId, itemCount, nbtData}` before. Undefined for an empty slot. `name` gives the item's id for
 * its number; an id the backend added beyond the vanilla registry is named `unknown:item_<n>`.
 */
export const stackOf = (
  item: unknown,
  slot: number,
  name: (id: number) => string | undefined,
): ItemStackSnapshot | undefined => {
  if (item === null || typeof item !== "object") return undefined;
  const { present, itemId, itemCount } = item as { present?: unknown; itemId?: unknown; itemCount?: unknown };
  if (present === false || typeof itemId !== "number" || typeof itemCount !== "number" || itemCount <= 0)
    return undefined;
  return { slot, item: name(itemId) ?? `unknown:item_${itemId}`, count: itemCount };
};

/**
 * The player-window slot of an inventory index (`set_player_inventory`, and `set_slot` of window -2): hotbar
 * 0–8 is 36–44, main 9–35 keeps its number; armour and the off hand (36–40) are not carried (undefined).
 */
export const slotOfInventoryIndex = (index: number): number | undefined =>
  index >= 0 && index <= 8 ? 36 + index : index >= 9 && index <= 35 ? index : undefined;

/**
 * The player-window slot of a slot of another window of `size` slots (a chest, a furnace…): the last 36 are the
 * player's main inventory and hotbar, in that order. Undefined for the window's own slots.
 */
export const slotOfWindowSlot = (slot: number, size: number): number | undefined => {
  const first = size - PLAYER_PART;
  return first >= 0 && slot >= first && slot < size ? 9 + (slot - first) : undefined;
};
