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
  /** The player's own entity id (from the backend's `login`): status packets about it are about the player. */
  entityId: number | undefined;
  /** The operator level the backend sent the client (`entity_status` 24–28); undefined until it sent one. */
  opLevel: number | undefined;
  /** Carried slots by protocol slot number; undefined until the backend sent the player's inventory window. */
  slots: Map<number, ItemStackSnapshot> | undefined;

  /**
   * Replaces the carried slots from a whole window (`window_items`): `stacks` by protocol slot of the player's own
   * window (9–44); entries outside the carried slots are ignored.
   */
  setInventory(stacks: ReadonlyMap<number, ItemStackSnapshot | undefined>): void {
    const slots = new Map<number, ItemStackSnapshot>();
    for (const [slot, stack] of stacks)
      if (stack !== undefined && isCarried(slot)) slots.set(slot, { ...stack, slot });
    this.slots = slots;
  }

  /** A packet about the inventory did not decode: what the player carries is unknown until the next whole window. */
  forgetInventory(): void {
    this.slots = undefined;
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
