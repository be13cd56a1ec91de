import type { BlockLootDrop, EntityLootDrop } from "./loot-drop.js";

/*
 * Vanilla 1.21.4 loot for tables that minecraft-data gets wrong. minecraft-data serves its 1.20 `blockLoot` and
 * `entityLoot` for 1.21.4, flattened from the loot tables: it drops `set_count` ranges (creeper gunpowder reads
 * 1, vanilla rolls 0–2), gives every branch of an `alternatives` entry an equal share (gravel's flint reads 1/3,
 * vanilla 10%), loses `table_bonus` chances (leaf sticks read 100%, vanilla 2%) and the shears condition, and
 * never says which drops Fortune or Looting raise. Each entry below copies `data/minecraft/loot_table/<table>.json`
 * of the vanilla data pack and replaces minecraft-data's whole table.
 */

const always = { chance: 1, min: 1, max: 1 } as const;

const oreTables = (ore: string, item: string, min: number, max: number): Record<string, BlockLootDrop[]> => {
  const table = (block: string): BlockLootDrop[] => [
    { item: block, ...always, condition: "silk_touch", fortune: false },
    { item, chance: 1, min, max, condition: "no_silk_touch", fortune: true },
  ];
  return { [ore]: table(ore), [`deepslate_${ore}`]: table(`deepslate_${ore}`) };
};

/** `blocks/<leaves>`: the leaves with shears or Silk Touch; otherwise a sapling, sticks and maybe apples. */
const leavesTable = (
  leaves: string,
  sapling: string | null,
  saplingChance: number,
  apples: boolean,
): Record<string, BlockLootDrop[]> => {
  const otherwise = (item: string, chance: number, max: number): BlockLootDrop => ({
    item,
    chance,
    min: 1,
    max,
    condition: "no_shears_or_silk_touch",
    fortune: true,
  });
  return {
    [leaves]: [
      { item: leaves, ...always, condition: "shears_or_silk_touch", fortune: false },
      ...(sapling === null ? [] : [otherwise(sapling, saplingChance, 1)]),
      otherwise("stick", 0.02, 2),
      ...(apples ? [otherwise("apple", 0.005, 1)] : []),
    ],
  };
};

const selfWithSilkTouch = (
  block: string,
  item: string,
  min: number,
  max: number,
): Record<string, BlockLootDrop[]> => ({
  [block]: [
    { item: block, ...always, condition: "silk_touch", fortune: false },
    { item, chance: 1, min, max, condition: "no_silk_touch", fortune: true },
  ],
});

/** Vanilla block loot by block name, for the tables minecraft-data reads wrongly. */
export const VANILLA_BLOCK_LOOT: Readonly<Record<string, readonly BlockLootDrop[]>> = {
  ...oreTables("coal_ore", "coal", 1, 1),
  ...oreTables("iron_ore", "raw_iron", 1, 1),
  ...oreTables("copper_ore", "raw_copper", 2, 5),
  ...oreTables("gold_ore", "raw_gold", 1, 1),
  ...oreTables("redstone_ore", "redstone", 4, 5),
  ...oreTables("lapis_ore", "lapis_lazuli", 4, 9),
  ...oreTables("diamond_ore", "diamond", 1, 1),
  ...oreTables("emerald_ore", "emerald", 1, 1),
  ...selfWithSilkTouch("nether_gold_ore", "gold_nugget", 2, 6),
  ...selfWithSilkTouch("nether_quartz_ore", "quartz", 1, 1),
  ...selfWithSilkTouch("glowstone", "glowstone_dust", 2, 4),
  ...selfWithSilkTouch("melon", "melon_slice", 3, 7),
  ...selfWithSilkTouch("sea_lantern", "prismarine_crystals", 2, 3),
  gravel: [
    { item: "gravel", ...always, condition: "silk_touch", fortune: false },
    { item: "flint", ...always, chance: 0.1, condition: "no_silk_touch", fortune: true },
    { item: "gravel", ...always, chance: 0.9, condition: "no_silk_touch", fortune: false },
  ],
  cobweb: [
    { item: "cobweb", ...always, condition: "shears_or_silk_touch", fortune: false },
    { item: "string", ...always, condition: "no_shears_or_silk_touch", fortune: false },
  ],
  dead_bush: [
    { item: "dead_bush", ...always, condition: "shears", fortune: false },
    { item: "stick", chance: 1, min: 0, max: 2, condition: "no_shears", fortune: false },
  ],
  ...leavesTable("oak_leaves", "oak_sapling", 0.05, true),
  ...leavesTable("dark_oak_leaves", "dark_oak_sapling", 0.05, true),
  ...leavesTable("spruce_leaves", "spruce_sapling", 0.05, false),
  ...leavesTable("birch_leaves", "birch_sapling", 0.05, false),
  ...leavesTable("jungle_leaves", "jungle_sapling", 0.025, false),
  ...leavesTable("acacia_leaves", "acacia_sapling", 0.05, false),
  ...leavesTable("cherry_leaves", "cherry_sapling", 0.05, false),
  ...leavesTable("azalea_leaves", "azalea", 0.05, false),
  ...leavesTable("flowering_azalea_leaves", "flowering_azalea", 0.05, false),
  ...leavesTable("mangrove_leaves", null, 0, false),
};

const roll = (item: string, min: number, max: number, playerKill = false): EntityLootDrop => ({
  item,
  chance: 1,
  min,
  max,
  playerKill,
  looting: true,
});

/** Zombie-family rare drops: one of iron ingot, carrot or potato at 2.5% (Looting adds 1% a level). */
const zombieRareDrops: EntityLootDrop[] = ["iron_ingot", "carrot", "potato"].map((item) => ({
  item,
  chance: 0.025 / 3,
  min: 1,
  max: 1,
  playerKill: true,
  looting: true,
}));

/** Vanilla entity loot by entity name, for the tables minecraft-data reads wrongly. */
export const VANILLA_ENTITY_LOOT: Readonly<Record<string, readonly EntityLootDrop[]>> = {
  creeper: [roll("gunpowder", 0, 2)],
  zombie: [roll("rotten_flesh", 0, 2), ...zombieRareDrops],
  skeleton: [roll("arrow", 0, 2), roll("bone", 0, 2)],
  cow: [roll("leather", 0, 2), roll("beef", 1, 3)],
  // Spider eye: a count rolled from −1 to 1, so one eye a third of the time.
  spider: [roll("string", 0, 2), { ...roll("spider_eye", 1, 1, true), chance: 1 / 3 }],
  cave_spider: [roll("string", 0, 2), { ...roll("spider_eye", 1, 1, true), chance: 1 / 3 }],
  chicken: [roll("feather", 0, 2), roll("chicken", 1, 1)],
  pig: [roll("porkchop", 1, 3)],
  // Wool comes from per-colour tables that minecraft-data does not list.
  sheep: [roll("mutton", 1, 2)],
  enderman: [roll("ender_pearl", 0, 1)],
  blaze: [roll("blaze_rod", 0, 1, true)],
  ghast: [roll("ghast_tear", 0, 1), roll("gunpowder", 0, 2)],
};
