import { createRequire } from "node:module";
import { parseSnbt, type SnbtValue } from "../../../data/quests/snbt.js";
import type { GiveStack } from "../../../game/game-bridge.js";

/** Slots a player carries: 36 (hotbar NBT slots 0–8, main inventory 9–35). */
export const CARRIED_SLOTS = 36;

/** One occupied carried slot as the room check needs it. */
export interface HeldStack {
  readonly item: string;
  readonly count: number;
  /** Whether a give may add to it: vanilla merges only into a stack with no components or tag of its own. */
  readonly mergeable: boolean;
}

/** Stack sizes of the backend's items; undefined for an id it does not know. */
export interface ItemCatalog {
  stackSize(item: string): number | undefined;
}

/** The stack size a modded item is assumed to have (minecraft-data knows only vanilla items). */
const MODDED_STACK_SIZE = 64;

const require = createRequire(import.meta.url);

/**
 * The item catalog of a Minecraft version from minecraft-data: `minecraft:` ids it does not know are unknown (the
 * backend would refuse them); ids of other namespaces (mods) are assumed to stack to 64.
 */
export const itemCatalog = (version: string): ItemCatalog => {
  const data = require("minecraft-data")(version) as
    | { itemsByName: Record<string, { stackSize: number }> }
    | undefined;
  return {
    stackSize: (item) => {
      const [namespace, name] = item.includes(":") ? item.split(":", 2) : ["minecraft", item];
      if (namespace !== "minecraft") return MODDED_STACK_SIZE;
      return data?.itemsByName[name ?? ""]?.stackSize;
    },
  };
};

/**
 * The carried stacks of a `data get entity <player> Inventory` reply (`[{count: 3, Slot: 0b, id: "…"}, …]`, `Count`
 * before 1.20.5); armour (100–103) and the offhand (-106) are left out. Undefined when the text is not such a list.
 */
export const carriedFromSnbt = (snbt: string): HeldStack[] | undefined => {
  let value: SnbtValue;
  try {
    value = parseSnbt(snbt);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const stacks: HeldStack[] = [];
  for (const entry of value) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
    const slot = entry.Slot;
    const id = entry.id;
    const count = entry.count ?? entry.Count ?? 1;
    if (typeof slot !== "number" || typeof id !== "string" || typeof count !== "number") return undefined;
    if (slot < 0 || slot >= CARRIED_SLOTS) continue;
    stacks.push({ item: id, count, mergeable: entry.components === undefined && entry.tag === undefined });
  }
  return stacks;
};

/**
 * Whether every stack fits, as vanilla's `Inventory.add` places a give: into partial mergeable stacks of the same
 * item first, then empty slots. The stacks must all be known to the catalog. Conservative: vanilla may also fill
 * a partial stack in the offhand, which only leaves more room.
 */
export const fitsAll = (
  held: readonly HeldStack[],
  stacks: readonly GiveStack[],
  catalog: ItemCatalog,
): boolean => {
  const slots = held.map((stack) => ({ ...stack }));
  let free = CARRIED_SLOTS - held.length;
  for (const stack of stacks) {
    const size = catalog.stackSize(stack.item) ?? MODDED_STACK_SIZE;
    let left = stack.count;
    for (const slot of slots) {
      if (left === 0) break;
      if (!slot.mergeable || slot.item !== stack.item || slot.count >= size) continue;
      const add = Math.min(left, size - slot.count);
      slot.count += add;
      left -= add;
    }
    while (left > 0) {
      if (free === 0) return false;
      free--;
      const add = Math.min(left, size);
      slots.push({ item: stack.item, count: add, mergeable: true });
      left -= add;
    }
  }
  return true;
};

/** How many empty slots the stacks need when nothing merges (the check on the live inventory, which has no NBT). */
export const slotsNeeded = (stacks: readonly GiveStack[], catalog: ItemCatalog): number =>
  stacks.reduce(
    (sum, stack) => sum + Math.ceil(stack.count / (catalog.stackSize(stack.item) ?? MODDED_STACK_SIZE)),
    0,
  );

/** The count of each item over the held stacks. */
export const totalsOf = (
  held: readonly { readonly item: string; readonly count: number }[],
): Map<string, number> => {
  const totals = new Map<string, number>();
  for (const stack of held) totals.set(stack.item, (totals.get(stack.item) ?? 0) + stack.count);
  return totals;
};
