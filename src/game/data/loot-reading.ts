import type { BlockItemDrop, BlockLootEntry, EntityLootEntry } from "minecraft-data";
import type { BlockDropCondition, BlockLootDrop, EntityLootDrop } from "./loot-drop.js";
import { VANILLA_BLOCK_LOOT, VANILLA_ENTITY_LOOT } from "./vanilla-loot.js";

const conditionOf = (drop: BlockItemDrop): BlockDropCondition =>
  drop.silkTouch === true ? "silk_touch" : drop.noSilkTouch === true ? "no_silk_touch" : "none";

const countOf = (range: readonly (number | null)[]): { min: number | null; max: number | null } => ({
  min: range[0] ?? null,
  max: range[1] ?? range[0] ?? null,
});

/**
 * The drops of one block: vanilla's table where minecraft-data is known to be wrong, otherwise minecraft-data's
 * entries read as follows. Entries marked `silkTouch`/`noSilkTouch` are the branches of one `alternatives` pool,
 * which minecraft-data shares out equally (Stone: stone 50%, cobblestone 50%); once the tool decides the branch,
 * a branch with one item always drops it, and a branch of several keeps the equal share (nothing finer is known).
 */
export const readBlockLoot = (entry: BlockLootEntry): BlockLootDrop[] => {
  const vanilla = VANILLA_BLOCK_LOOT[entry.block];
  if (vanilla !== undefined) return [...vanilla];
  const branchSize = new Map<BlockDropCondition, number>();
  for (const drop of entry.drops) {
    const condition = conditionOf(drop);
    branchSize.set(condition, (branchSize.get(condition) ?? 0) + 1);
  }
  return entry.drops.map((drop) => {
    const condition = conditionOf(drop);
    return {
      item: drop.item,
      ...countOf(drop.stackSizeRange),
      chance: condition === "none" ? drop.dropChance : 1 / (branchSize.get(condition) ?? 1),
      condition,
      fortune: false,
    };
  });
};

/** The drops of one mob: vanilla's table where minecraft-data is known to be wrong, otherwise minecraft-data's. */
export const readEntityLoot = (entry: EntityLootEntry): EntityLootDrop[] => {
  const vanilla = VANILLA_ENTITY_LOOT[entry.entity];
  if (vanilla !== undefined) return [...vanilla];
  return entry.drops.map((drop) => ({
    item: drop.item,
    ...countOf(drop.stackSizeRange),
    chance: drop.dropChance,
    playerKill: drop.playerKill === true,
    looting: false,
  }));
};
