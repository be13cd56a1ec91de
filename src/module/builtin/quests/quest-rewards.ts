import type {
  Quest,
  QuestBook,
  QuestItem,
  QuestReward,
  RewardTable,
} from "../../../data/quests/quest-book.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import type { ItemStack } from "../../../game/tools/give-items-tool.js";

/** A reward that is not delivered here, and why (shown on the card). */
export interface SkippedReward {
  readonly rewardId: string;
  readonly reason: "unknown_item" | "not_available" | "not_delivered_yet";
  readonly item?: string;
}

/** A choice reward the player still has to pick from (one button per table entry). */
export interface PendingChoice {
  readonly rewardId: string;
  readonly options: readonly { readonly index: number; readonly item: ItemStack }[];
}

/** What claiming a quest delivers: the stacks, experience, the rewards it consumes, and what it cannot deliver. */
export interface ClaimPlan {
  readonly items: ItemStack[];
  /** Experience points and whole levels (`xp` and `xp_levels` rewards). */
  readonly experience: { readonly points: number; readonly levels: number };
  readonly rewardIds: string[];
  readonly skipped: SkippedReward[];
  readonly choice?: PendingChoice;
}

/**
 * Plans a quest's reward claim: item rewards, `random` (one weighted draw) and `loot` (`loot_size` draws) from
 * their reward tables, `choice` from the player's pick. Draws happen here, once, and the claim records them before
 * anything is delivered. Command and custom rewards are never run; an item id this server does not know is shown
 * and not delivered; `xp` and `xp_levels` add up into the claim's experience.
 */
export const planClaim = (options: {
  readonly book: QuestBook;
  readonly quest: Quest;
  readonly catalog: ItemCatalog | undefined;
  readonly choices: Readonly<Record<string, number>>;
  readonly random: () => number;
}): ClaimPlan => {
  const { book, quest, catalog } = options;
  const known = (item: QuestItem): boolean => catalog?.lookup(item.id) !== undefined;
  const items: ItemStack[] = [];
  const rewardIds: string[] = [];
  const skipped: SkippedReward[] = [];
  let choice: PendingChoice | undefined;
  let points = 0;
  let levels = 0;
  const add = (reward: QuestReward, item: QuestItem | undefined, count: number): void => {
    if (item === undefined) {
      skipped.push({ rewardId: reward.id, reason: "not_available" });
      return;
    }
    if (!known(item)) {
      skipped.push({ rewardId: reward.id, reason: "unknown_item", item: item.id });
      return;
    }
    items.push({ item: item.id, count: Math.max(1, count * Math.max(1, item.count)) });
  };
  for (const reward of quest.rewards) {
    const table = reward.table === undefined ? undefined : book.rewardTables.get(reward.table);
    switch (reward.type) {
      case "item":
        add(reward, reward.item, reward.count);
        rewardIds.push(reward.id);
        break;
      case "random":
      case "loot": {
        if (table === undefined) {
          skipped.push({ rewardId: reward.id, reason: "not_available" });
          break;
        }
        const draws = reward.type === "loot" ? Math.max(1, table.lootSize) : 1;
        for (let draw = 0; draw < draws; draw++) {
          const entry = weighted(table, options.random);
          if (entry !== undefined) add(reward, entry.item, entry.count);
        }
        rewardIds.push(reward.id);
        break;
      }
      case "choice": {
        const entries = table?.entries ?? [];
        const picked = options.choices[reward.id];
        const entry = picked === undefined ? undefined : entries[picked];
        if (entry === undefined) {
          const offered = entries.flatMap((candidate, index) =>
            candidate.item !== undefined && known(candidate.item)
              ? [
                  {
                    index,
                    item: {
                      item: candidate.item.id,
                      count: Math.max(1, candidate.count * candidate.item.count),
                    },
                  },
                ]
              : [],
          );
          if (offered.length === 0) skipped.push({ rewardId: reward.id, reason: "not_available" });
          else choice ??= { rewardId: reward.id, options: offered };
          break;
        }
        add(reward, entry.item, entry.count);
        rewardIds.push(reward.id);
        break;
      }
      case "xp":
      case "xp_levels": {
        const amount = Math.max(0, Math.floor(reward.amount ?? 0));
        if (amount === 0) {
          skipped.push({ rewardId: reward.id, reason: "not_available" });
          break;
        }
        if (reward.type === "xp") points += amount;
        else levels += amount;
        rewardIds.push(reward.id);
        break;
      }
      default:
        // command, custom, toast, advancement…: never run here
        skipped.push({ rewardId: reward.id, reason: "not_available" });
    }
  }
  return {
    items: merge(items),
    experience: { points: Math.min(points, 1_000_000), levels: Math.min(levels, 1_000) },
    rewardIds,
    skipped,
    ...(choice === undefined ? {} : { choice }),
  };
};

const weighted = (table: RewardTable, random: () => number) => {
  const entries = table.entries.filter((entry) => entry.weight > 0);
  const total = entries.reduce((sum, entry) => sum + entry.weight, 0);
  if (total <= 0) return undefined;
  let roll = random() * total;
  for (const entry of entries) {
    roll -= entry.weight;
    if (roll < 0) return entry;
  }
  return entries.at(-1);
};

/** One stack per item id, in first-seen order. */
const merge = (stacks: readonly ItemStack[]): ItemStack[] => {
  const totals = new Map<string, number>();
  for (const stack of stacks) totals.set(stack.item, (totals.get(stack.item) ?? 0) + stack.count);
  return [...totals].map(([item, count]) => ({ item, count }));
};
