// The world side of the RCON stand-in (rcon-stand-in.ts): what vanilla's give, clear and data get do, done to a
// flying-squid player through its inventory window, so the client sees every slot change.
import {
  itemConstructor,
  type SquidItem,
  type SquidPlayer,
  type SquidServer,
} from "../../src/host/flying-squid/flying-squid-types.js";
import type { ReplyKey } from "../../src/host/gateway/rcon/reply-language.js";

export interface StandInWorld {
  readonly server: SquidServer;
  say(key: ReplyKey, ...args: (string | number)[]): string;
}

interface ItemData {
  readonly id: number;
  readonly name: string;
  readonly displayName: string;
  readonly stackSize: number;
}

/** Protocol slots in vanilla's order: the hotbar (36–44, NBT slots 0–8), then the main inventory (9–35). */
const SLOTS: readonly number[] = [
  ...Array.from({ length: 9 }, (_, index) => 36 + index),
  ...Array.from({ length: 27 }, (_, index) => 9 + index),
];

/** The NBT `Slot` of a protocol slot. */
const nbtSlot = (slot: number): number => (slot >= 36 ? slot - 36 : slot);

/** `bread` or `minecraft:bread`; anything with another namespace, components or NBT is unknown here. */
const itemData = (server: SquidServer, id: string): ItemData | undefined => {
  const name = id.startsWith("minecraft:") ? id.slice("minecraft:".length) : id;
  if (!/^[a-z0-9_]+$/.test(name)) return undefined;
  return server.registry.itemsByName[name] as ItemData | undefined;
};

const plain = (item: SquidItem): boolean => (item as { nbt?: unknown }).nbt == null;

export type GiveResult =
  | { readonly error: "unknown_item" }
  | { readonly error: "too_many"; readonly reply: string }
  | { readonly error?: undefined; readonly reply: string };

/**
 * vanilla `give`: at most 100 stacks; into partial stacks of the item first, then empty slots; what does not fit
 * is recorded in `dropped` (vanilla drops it at the player's feet). The reply is success either way, as vanilla's.
 */
export const giveItems = (
  world: StandInWorld,
  players: readonly SquidPlayer[],
  id: string,
  count: number,
  dropped: { player: string; item: string; count: number }[],
): GiveResult => {
  const data = itemData(world.server, id);
  if (data === undefined) return { error: "unknown_item" };
  const shown = `[${data.displayName}]`;
  if (count > data.stackSize * 100)
    return {
      error: "too_many",
      reply: world.say("commands.give.failed.toomanyitems", data.stackSize * 100, shown),
    };
  const Item = itemConstructor(world.server);
  for (const player of players) {
    let left = count;
    const slots = player.inventory.slots;
    for (const pass of ["partial", "empty"] as const)
      for (const slot of SLOTS) {
        if (left === 0) break;
        const held = slots[slot];
        if (
          pass === "partial" &&
          (!held || held.type !== data.id || !plain(held) || held.count >= data.stackSize)
        )
          continue;
        if (pass === "empty" && held) continue;
        const add = Math.min(left, data.stackSize - (held?.count ?? 0));
        left -= add;
        if (held) held.count += add;
        player.inventory.updateSlot(slot, held ?? new Item(data.id, add));
      }
    if (left > 0) dropped.push({ player: player.username, item: `minecraft:${data.name}`, count: left });
  }
  const only = players[0];
  return {
    reply:
      players.length === 1 && only !== undefined
        ? world.say("commands.give.success.single", count, shown, only.username)
        : world.say("commands.give.success.multiple", count, shown, players.length),
  };
};

/** vanilla `clear`: removes up to `maxCount` (-1: all, 0: only counts) of an item, or of everything. */
export const clearItems = (
  world: StandInWorld,
  players: readonly SquidPlayer[],
  id: string | undefined,
  maxCount: number,
): { readonly error?: "unknown_item"; readonly reply: string } => {
  const data = id === undefined ? undefined : itemData(world.server, id);
  if (id !== undefined && data === undefined) return { error: "unknown_item", reply: "" };
  let total = 0;
  for (const player of players) {
    let left = maxCount < 0 ? Number.POSITIVE_INFINITY : maxCount;
    for (const slot of SLOTS) {
      const held = player.inventory.slots[slot];
      if (!held || (data !== undefined && held.type !== data.id)) continue;
      if (maxCount === 0) {
        total += held.count;
        continue;
      }
      const take = Math.min(left, held.count);
      if (take === 0) break;
      left -= take;
      total += take;
      if (take === held.count) player.inventory.updateSlot(slot, null);
      else {
        held.count -= take;
        player.inventory.updateSlot(slot, held);
      }
    }
  }
  const single = players.length === 1 ? players[0]?.username : undefined;
  if (total === 0)
    return {
      reply:
        single !== undefined
          ? world.say("clear.failed.single", single)
          : world.say("clear.failed.multiple", players.length),
    };
  if (maxCount === 0)
    return {
      reply:
        single !== undefined
          ? world.say("commands.clear.test.single", total, single)
          : world.say("commands.clear.test.multiple", total, players.length),
    };
  return {
    reply:
      single !== undefined
        ? world.say("commands.clear.success.single", total, single)
        : world.say("commands.clear.success.multiple", total, players.length),
  };
};

/** How many of an item a player holds (hotbar and main inventory). */
export const inventoryCount = (player: SquidPlayer, name: string): number =>
  SLOTS.reduce((sum, slot) => {
    const held = player.inventory.slots[slot];
    return held && `minecraft:${held.name}` === name ? sum + held.count : sum;
  }, 0);

/**
 * The SNBT vanilla prints for `data get entity` (a part of a player's data: health, food, experience, selected
 * slot, position, inventory), or of one top-level path; undefined when the path is not there.
 */
export const playerSnbt = (
  world: StandInWorld,
  player: SquidPlayer,
  path: string | undefined,
): string | undefined => {
  const components = world.server.supportFeature("itemComponents") || isAtLeast(world, "1.20.5");
  const inventory = SLOTS.flatMap((slot) => {
    const held = player.inventory.slots[slot];
    if (!held) return [];
    return [
      components
        ? `{count: ${held.count}, Slot: ${nbtSlot(slot)}b, id: "minecraft:${held.name}"}`
        : `{Count: ${held.count}b, Slot: ${nbtSlot(slot)}b, id: "minecraft:${held.name}"}`,
    ];
  }).sort((a, b) => slotOf(a) - slotOf(b));
  const { x, y, z } = player.position;
  const values: Record<string, string> = {
    Health: `${javaNumber(player.health)}f`,
    foodLevel: String(player.food),
    XpLevel: String(player.level ?? 0),
    XpTotal: String(player.xp),
    SelectedItemSlot: String(player.heldItemSlot),
    Pos: `[${[x, y, z].map((value) => `${javaNumber(value)}d`).join(", ")}]`,
    Inventory: `[${inventory.join(", ")}]`,
  };
  if (path !== undefined) return values[path];
  return `{${Object.entries(values)
    .map(([key, value]) => `${key}: ${value}`)
    .join(", ")}}`;
};

/** Java's `String.valueOf` of a float or double: `20.0`, `19.25`. */
const javaNumber = (value: number): string => (Number.isInteger(value) ? value.toFixed(1) : String(value));

const slotOf = (snbt: string): number => Number(/Slot: (-?\d+)b/.exec(snbt)?.[1] ?? 0);

const isAtLeast = (world: StandInWorld, version: string): boolean => {
  const registry = world.server.registry as unknown as { version: { ">=": (version: string) => boolean } };
  return registry.version[">="](version);
};
