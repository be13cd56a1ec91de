import type { QuestBook } from "../../../data/quests/quest-book.js";
import type { PlayerQuestProgress, TeamProgressRead } from "../../../data/quests/team-progress.js";

/** What one player's FTB team progress means in this pack: task, quest and claim ids to record. */
export interface ImportPlan {
  readonly team: string;
  readonly tasks: readonly string[];
  readonly quests: readonly string[];
  readonly claims: readonly { readonly quest: string; readonly rewards: readonly string[] }[];
}

/**
 * FTB team progress found in the world folder (`ftbquests/` with `ftbteams/`), to import once per player. A player
 * is found by UUID, else by name (an offline-mode server gives other UUIDs than the modded server that wrote the
 * files). Only ids this pack has are imported; the world's files are data, never instructions.
 */
export class TeamProgressImport {
  readonly #byId = new Map<string, PlayerQuestProgress>();
  readonly #byName = new Map<string, PlayerQuestProgress>();

  constructor(
    private readonly book: QuestBook,
    read: TeamProgressRead,
  ) {
    for (const player of read.players.values()) {
      this.#byId.set(player.playerId.toLowerCase(), player);
      if (player.name !== undefined) this.#byName.set(player.name.toLowerCase(), player);
    }
  }

  get size(): number {
    return this.#byId.size;
  }

  /** The import of a player, or undefined when the files name neither their UUID nor their name. */
  planFor(playerId: string, name: string | undefined): ImportPlan | undefined {
    const found =
      this.#byId.get(playerId.toLowerCase()) ??
      (name === undefined ? undefined : this.#byName.get(name.toLowerCase()));
    return found === undefined ? undefined : this.#plan(found);
  }

  #plan(progress: PlayerQuestProgress): ImportPlan {
    const tasks: string[] = [];
    const quests: string[] = [];
    const claims: { quest: string; rewards: string[] }[] = [];
    for (const quest of this.book.quests.values()) {
      const questDone = progress.completed.has(quest.id);
      if (questDone) quests.push(quest.id);
      for (const task of quest.tasks)
        if (
          questDone ||
          progress.completed.has(task.id) ||
          (progress.tasks.get(task.id) ?? 0) >= Math.max(1, task.count)
        )
          tasks.push(task.id);
      const rewards = quest.rewards
        .filter((reward) => progress.claimedRewards.has(reward.id))
        .map((r) => r.id);
      if (rewards.length > 0) claims.push({ quest: quest.id, rewards });
    }
    return { team: progress.team, tasks, quests, claims };
  }
}
