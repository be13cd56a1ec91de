import { customFailure } from "../../../agent/failure.js";
import type { QuestBook } from "../../../data/quests/quest-book.js";
import type { PlayerQuestProgress } from "../../../data/quests/team-progress.js";

/**
 * The FTB Quests mod's own progress on the server System stands in front of (read-only; the mod writes it on each
 * world save): a player's team progress by UUID, else by name.
 */
export interface ModQuestProgress {
  of(playerId: string, name: string | undefined): PlayerQuestProgress | undefined;
}

/** What a player who asks System to claim, tick, hand in or complete is told while the mod keeps progress. */
export const IN_QUEST_BOOK = customFailure("QUEST_BOOK_OWNS_PROGRESS", "system.quests.in_book");

/** What an admin who completes a quest with System is told while the mod keeps progress. */
export const IN_QUEST_BOOK_ADMIN = customFailure("QUEST_BOOK_OWNS_PROGRESS", "system.quests.in_book.admin");

/** A player's done tasks and counts in this book, as the mod recorded them. */
export const modTaskProgress = (
  book: QuestBook,
  progress: PlayerQuestProgress | undefined,
): { readonly done: ReadonlySet<string>; readonly counts: ReadonlyMap<string, number> } => {
  const done = new Set<string>();
  const counts = new Map<string, number>();
  if (progress === undefined) return { done, counts };
  for (const quest of book.quests.values()) {
    const questDone = progress.completed.has(quest.id);
    for (const task of quest.tasks) {
      const count = progress.tasks.get(task.id) ?? 0;
      counts.set(task.id, count);
      if (questDone || progress.completed.has(task.id) || count >= Math.max(1, task.count)) done.add(task.id);
    }
  }
  return { done, counts };
};

/** Whether the mod recorded every reward of a quest as claimed by this player (or by the team). */
export const modClaimed = (
  book: QuestBook,
  progress: PlayerQuestProgress | undefined,
  questId: string,
): boolean => {
  const quest = book.quests.get(questId);
  if (quest === undefined || progress === undefined || quest.rewards.length === 0) return false;
  return quest.rewards.every((reward) => progress.claimedRewards.has(reward.id));
};
