import type { AgentStore } from "../../../agent/storage/agent-store.js";
import type { ModuleStorage } from "../../../agent/storage/module-storage.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { Quest } from "../../../data/quests/quest-book.js";
import type { PlayerQuestProgress } from "../../../data/quests/team-progress.js";
import type { GameBridge } from "../../../game/game-bridge.js";
import { type GameEventSink, GameEventTypes } from "../../../game/game-events.js";
import type { TeamProgressImport } from "./quest-import.js";
import { type ModQuestProgress, modClaimed, modTaskProgress } from "./quest-mod-progress.js";
import type { QuestProgress, QuestProgressData } from "./quest-progress.js";
import { observe, QuestState } from "./quest-state.js";
import { type QuestViewOptions, QuestViews } from "./quest-views.js";

/** What QuestService needs beyond the views: the player records, the game, and where completions are reported. */
export interface QuestServiceOptions extends QuestViewOptions {
  readonly store: AgentStore;
  readonly storage: ModuleStorage<QuestProgressData, QuestProgress>;
  readonly bridge: GameBridge;
  /** FTB team progress from the world folder, imported into a player's record the first time it is read. */
  readonly teamProgress?: TeamProgressImport | undefined;
  /**
   * The FTB Quests mod keeps progress and rewards on this server (System stands in front of it): states come from
   * its files, System records nothing and delivers no quest reward.
   */
  readonly modProgress?: ModQuestProgress | undefined;
  readonly now: () => number;
  /** Where completed quests and chapters are reported (`system:quest_completed`, `system:chapter_completed`). */
  readonly gameEvents: GameEventSink;
}

/**
 * The quest book of one feature with each player's progress in it: state from recorded progress plus the game,
 * tasks recorded as the game shows them met (kills as the host reports them), completions announced and reported
 * once, reward claims, and FTB team progress imported on first read. The views (names, lists, details, search)
 * come from QuestViews.
 */
export class QuestService extends QuestViews {
  readonly #options: QuestServiceOptions;
  /** Players whose FTB team progress was looked for (imported, or none found under their name). */
  readonly #importChecked = new Set<string>();

  constructor(options: QuestServiceOptions) {
    super(options);
    this.#options = options;
  }

  /** Who keeps quest progress and delivers rewards: System, or the FTB Quests mod on the server. */
  get keeper(): "system" | "mod" {
    return this.#options.modProgress === undefined ? "system" : "mod";
  }

  /**
   * Whether the player has claimed a quest's rewards (any state of the claim), unless the last delivery gave
   * nothing (no room): that claim waits for the player to claim again.
   */
  async claimed(playerId: string, questId: string): Promise<boolean> {
    return (await this.claimedAmong(playerId, [questId])).has(questId);
  }

  /** Those of `questIds` whose rewards the player has claimed (as `claimed` says), in one read. */
  async claimedAmong(playerId: string, questIds: readonly string[]): Promise<ReadonlySet<string>> {
    const mod = this.#modProgressOf(playerId);
    if (mod !== undefined)
      return new Set(questIds.filter((id) => modClaimed(this.#options.book, mod.progress, id)));
    return this.#options.store.read(playerId, (data) => {
      const progress = ModuleData.get(data, this.#options.storage);
      return new Set(
        questIds.filter((id) => {
          const claim = progress.claim(id);
          return claim !== undefined && !(claim.state === "PENDING" && claim.retry);
        }),
      );
    });
  }

  /** The player's state now (recorded progress + what the game shows). */
  async state(playerId: string): Promise<QuestState> {
    const mod = this.#modProgressOf(playerId);
    if (mod !== undefined) {
      const { done, counts } = modTaskProgress(this.#options.book, mod.progress);
      return new QuestState(this.#options.book, done, observe(undefined), counts, "mod");
    }
    await this.#importOnce(playerId);
    const { done, counts } = await this.#options.store.read(playerId, (data) => {
      const progress = ModuleData.get(data, this.#options.storage);
      return { done: progress.doneTasks(), counts: progress.counts() };
    });
    return new QuestState(this.#options.book, done, observe(this.#options.bridge.stats(playerId)), counts);
  }

  /**
   * Records tasks the game shows complete now (items held, xp reached, a dimension visited) and quests complete
   * now that were never announced; returns the quests to announce (their completion card and narration).
   */
  async record(playerId: string): Promise<{ readonly tasks: number; readonly completed: readonly Quest[] }> {
    if (this.keeper === "mod") return { tasks: 0, completed: [] };
    const state = await this.state(playerId);
    const met = state.newlyMet();
    const complete = [...this.#options.book.quests.values()].filter(
      (quest) => state.visible(quest) && state.complete(quest),
    );
    if (met.length === 0 && complete.length === 0) return { tasks: 0, completed: [] };
    const at = this.#options.now();
    const recorded = await this.#options.store.transaction(playerId, (data) => {
      const progress = ModuleData.get(data, this.#options.storage);
      const tasks = met.filter((id) => progress.complete(id, at)).length;
      const completed = complete.filter((quest) => progress.announce(quest.id, at));
      return { tasks, completed, unreported: progress.unreported() };
    });
    await this.#report(playerId, state, recorded.unreported);
    return { tasks: recorded.tasks, completed: recorded.completed };
  }

  /**
   * Reports announced quests whose completion event is not durable yet (announced now, or before a crash), and
   * the chapters they completed (every visible quest of the chapter complete), as game events for advancement
   * rules; one id per player and quest or chapter, so a report repeated after a crash starts nothing twice. Then
   * records them as reported.
   */
  async reportPending(playerId: string): Promise<void> {
    if (this.keeper === "mod") return;
    const unreported = await this.#options.store.read(playerId, (data) =>
      ModuleData.get(data, this.#options.storage).unreported(),
    );
    if (unreported.length > 0) await this.#report(playerId, await this.state(playerId), unreported);
  }

  async #report(playerId: string, state: QuestState, questIds: readonly string[]): Promise<void> {
    if (questIds.length === 0) return;
    const completed = questIds.flatMap((id) => {
      const quest = this.#options.book.quests.get(id);
      return quest === undefined ? [] : [quest];
    });
    const events = this.#options.gameEvents;
    const chapters = new Set<string>();
    for (const quest of completed) {
      await events.emit({
        type: GameEventTypes.QUEST_COMPLETED,
        playerId,
        id: `quest_completed/${playerId}/${quest.id}`,
        data: { quest: quest.id },
      });
      chapters.add(quest.chapterId);
    }
    for (const chapterId of chapters) {
      const chapter = this.#options.book.chapters.get(chapterId);
      const members = chapter?.quests.filter((quest) => state.visible(quest)) ?? [];
      if (members.length === 0 || !members.every((quest) => state.complete(quest))) continue;
      await events.emit({
        type: GameEventTypes.CHAPTER_COMPLETED,
        playerId,
        id: `chapter_completed/${playerId}/${chapterId}`,
        data: { chapter: chapterId },
      });
    }
    await this.#options.store.transaction(playerId, (data) =>
      ModuleData.get(data, this.#options.storage).reported(questIds),
    );
  }

  /** The mod's progress of a player (undefined progress: none yet), or undefined when System keeps progress. */
  #modProgressOf(playerId: string): { readonly progress: PlayerQuestProgress | undefined } | undefined {
    const mod = this.#options.modProgress;
    if (mod === undefined) return undefined;
    return { progress: mod.of(playerId, this.#options.bridge.playerName(playerId)) };
  }

  /**
   * Imports the player's FTB team progress into their record the first time it is read (once per record: the
   * record keeps the team it imported). Looked for by UUID, else by name; a player whose name is unknown (offline)
   * is looked for again later.
   */
  async #importOnce(playerId: string): Promise<void> {
    const teams = this.#options.teamProgress;
    if (teams === undefined || this.#importChecked.has(playerId)) return;
    const name = this.#options.bridge.playerName(playerId);
    const plan = teams.planFor(playerId, name);
    if (plan === undefined) {
      if (name !== undefined) this.#importChecked.add(playerId);
      return;
    }
    const at = this.#options.now();
    await this.#options.store.transaction(playerId, (data) =>
      ModuleData.get(data, this.#options.storage).importTeam(plan.team, plan, at),
    );
    this.#importChecked.add(playerId);
  }

  /**
   * Counts a kill the host reported for the kill tasks of that entity type in quests the player can work on now
   * (visible and unlocked); once per killed entity. Returns how many tasks it advanced.
   */
  async recordKill(playerId: string, entity: string, entityId: string): Promise<number> {
    if (this.keeper === "mod") return 0;
    const state = await this.state(playerId);
    const tasks = [...this.#options.book.quests.values()]
      .filter((quest) => state.visible(quest) && state.unlocked(quest))
      .flatMap((quest) => quest.tasks)
      .filter((task) => task.type === "kill" && task.entity === entity && state.task(task).status !== "done")
      .map((task) => ({ id: task.id, need: Math.max(1, task.count) }));
    if (tasks.length === 0) return 0;
    const at = this.#options.now();
    const counted = await this.#options.store.transaction(playerId, (data) =>
      ModuleData.get(data, this.#options.storage).countKill(entityId, tasks, at),
    );
    return counted ? tasks.length : 0;
  }

  /**
   * The entity types of kill tasks the player can work on now (visible, unlocked, not done); none while the mod
   * keeps progress (it counts kills itself).
   */
  async huntedEntities(playerId: string): Promise<readonly string[]> {
    if (this.keeper === "mod") return [];
    const state = await this.state(playerId);
    return [...this.#options.book.quests.values()]
      .filter((quest) => state.visible(quest) && state.unlocked(quest))
      .flatMap((quest) => quest.tasks)
      .filter(
        (task) => task.type === "kill" && task.entity !== undefined && state.task(task).status !== "done",
      )
      .map((task) => task.entity as string);
  }

  /** Ticks a checkmark task of a quest the player can work on; false when it is not one or not reachable. */
  async check(playerId: string, taskId: string): Promise<"checked" | "already" | "refused"> {
    const quest = this.#options.book.questOfTask(taskId);
    const task = quest?.tasks.find((candidate) => candidate.id === taskId);
    if (quest === undefined || task?.type !== "checkmark" || this.keeper === "mod") return "refused";
    const state = await this.state(playerId);
    if (!state.visible(quest) || !state.unlocked(quest)) return "refused";
    const at = this.#options.now();
    const changed = await this.#options.store.transaction(playerId, (data) =>
      ModuleData.get(data, this.#options.storage).complete(taskId, at),
    );
    return changed ? "checked" : "already";
  }

  /**
   * An admin completes a quest (every task) or one task for a player, for task types this server cannot observe.
   * Returns the quest, or undefined for an id the pack does not have.
   */
  async complete(playerId: string, id: string): Promise<Quest | undefined> {
    const hex = id.trim().toUpperCase().replace(/^#/, "");
    const quest = this.#options.book.quests.get(hex) ?? this.#options.book.questOfTask(hex);
    if (quest === undefined || this.keeper === "mod") return undefined;
    const tasks = this.#options.book.quests.has(hex) ? quest.tasks.map((task) => task.id) : [hex];
    const at = this.#options.now();
    await this.#options.store.transaction(playerId, (data) => {
      const progress = ModuleData.get(data, this.#options.storage);
      for (const task of tasks) progress.complete(task, at);
    });
    return quest;
  }
}
