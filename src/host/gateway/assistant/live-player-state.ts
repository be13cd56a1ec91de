import {
  gameModeName,
  type InventorySnapshot,
  type ItemStackSnapshot,
  inventoryTotals,
  type PlayerStatsSnapshot,
} from "../../../game/game-snapshots.js";

/** Protocol slots of the player inventory window that hold items a player carries: main (9–35), hotbar (36–44). */
const CARRIED_SLOTS = 36;
const isCarried = (slot: number): boolean => slot >= 9 && slot <= 44;

/**
 * What the gateway has seen of one player in the relayed packets. Every piece starts unknown and stays unknown
 * until a packet tells it; a packet that fails to decode makes its piece unknown again rather than stale.
 */
export class LivePlayerState {
  health: number | undefined;
  food: number | undefined;
  xpLevel: number | undefined;
  xpTotal: number | undefined;
  position: { x: number; y: number; z: number } | undefined;
  dimension: string | undefined;
  gameMode: number | undefined;
  heldSlot: number | undefined;
  /** Carried slots by protocol slot number; undefined until the backend sent the player's inventory window. */
  slots: Map<number, ItemStackSnapshot> | undefined;

  /** Replaces the inventory from a `window_items` of the player's own window (id 0). */
  setInventory(stacks: readonly (ItemStackSnapshot | undefined)[]): void {
    const slots = new Map<number, ItemStackSnapshot>();
    stacks.forEach((stack, slot) => {
      if (stack !== undefined && isCarried(slot)) slots.set(slot, { ...stack, slot });
    });
    this.slots = slots;
  }

  /** One slot of the player's own window changed (`set_slot`); ignored until the whole inventory is known. */
  setSlot(slot: number, stack: ItemStackSnapshot | undefined): void {
    if (this.slots === undefined || !isCarried(slot)) return;
    if (stack === undefined) this.slots.delete(slot);
    else this.slots.set(slot, { ...stack, slot });
  }

  inventory(): InventorySnapshot | undefined {
    if (this.slots === undefined) return undefined;
    const stacks = [...this.slots.values()].sort((left, right) => left.slot - right.slot);
    return { stacks, freeSlots: CARRIED_SLOTS - stacks.length, heldSlot: this.heldSlot ?? 0 };
  }

  /** The pieces known so far; the others are absent (shown as unknown). */
  stats(): PlayerStatsSnapshot {
    const inventory = this.inventory();
    return {
      ...(this.health === undefined ? {} : { health: this.health }),
      ...(this.food === undefined ? {} : { food: this.food }),
      ...(this.xpLevel === undefined ? {} : { xpLevel: this.xpLevel }),
      ...(this.xpTotal === undefined ? {} : { xpTotal: this.xpTotal }),
      ...(this.position === undefined ? {} : { position: { ...this.position } }),
      ...(this.dimension === undefined ? {} : { dimension: this.dimension }),
      ...(this.gameMode === undefined ? {} : { gameMode: gameModeName(this.gameMode) }),
      ...(inventory === undefined
        ? {}
        : {
            inventory: {
              usedSlots: inventory.stacks.length,
              freeSlots: inventory.freeSlots,
              totals: inventoryTotals(inventory.stacks),
            },
          }),
    };
  }
}
