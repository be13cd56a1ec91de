import { z } from "zod";

/**
 * When a block drop happens. Vanilla block loot tables pick between branches by the tool: the block itself with
 * Silk Touch (or shears, for leaves and similar), the usual drop otherwise.
 */
export const BLOCK_DROP_CONDITIONS = [
  "none",
  "silk_touch",
  "no_silk_touch",
  "shears_or_silk_touch",
  "no_shears_or_silk_touch",
  "shears",
  "no_shears",
] as const;
export const blockDropConditionSchema = z.enum(BLOCK_DROP_CONDITIONS);
export type BlockDropCondition = z.infer<typeof blockDropConditionSchema>;

/** Whether the drop needs Silk Touch (shears also do for leaves and cobwebs); the card's mark without a condition. */
export const needsSilkTouch = (condition: BlockDropCondition): boolean =>
  condition === "silk_touch" || condition === "shears_or_silk_touch";

/** One item a loot table can yield: count range, chance when its condition holds, and the condition. */
export interface LootDrop {
  readonly item: string;
  /** Fewest items of one drop; 0 means "sometimes none" (a `0–2` roll). */
  readonly min: number | null;
  readonly max: number | null;
  /** Probability of the drop once its condition holds, 0–1. */
  readonly chance: number;
}

/** A block's drop: Fortune raises the count or the chance when `fortune` is set. */
export interface BlockLootDrop extends LootDrop {
  readonly condition: BlockDropCondition;
  readonly fortune: boolean;
}

/** A mob's drop: Looting raises the count or the chance when `looting` is set. */
export interface EntityLootDrop extends LootDrop {
  readonly playerKill: boolean;
  readonly looting: boolean;
}
