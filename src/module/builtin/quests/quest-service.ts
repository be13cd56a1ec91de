import { z } from "zod";
import type { AgentStore } from "../../../agent/storage/agent-store.js";
import type { ModuleStorage } from "../../../agent/storage/module-storage.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type {
  Quest,
  QuestBook,
  QuestChapter,
  QuestItem,
  QuestTask,
} from "../../../data/quests/quest-book.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import type { GameBridge } from "../../../game/game-bridge.js";
import { type GameEventSink, GameEventTypes } from "../../../game/game-events.js";
import type { Languages } from "../../../util/language.js";
import type { TeamProgressImport } from "./quest-import.js";
import type { QuestProgress, QuestProgressData } from "./quest-progress.js";
import { observe, QuestState } from "./quest-state.js";

export const QUEST_STATUSES = ["locked", "available", "complete"] as const;

/** QuestBriefOutput of the seeds: one line of a quest list. */
export const QUEST_BRIEF = z.object({
  id: z.string(),
  /** Its number in the player's last list (`/system quest 2`). */
  number: z.number().int().positive().optional(),
  title: z.string(),
  chapter: z.string(),
  status: z.enum(QUEST_STATUSES),
  /** Complete, with rewards the player has not claimed yet (listed first). */
  unclaimed: z.boolean().optional(),
});
export type QuestBriefOutput = z.infer<typeof QUEST_BRIEF>;

/** QuestOutput of the seeds: a quest with its tasks, rewards and dependencies, text in the player's language. */
export const QUEST_OUTPUT = QUEST_BRIEF.extend({
  subtitle: z.string(),
  description: z.array(z.string()),
  tasks: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      title: z.string(),
      status: z.enum(["done", "met", "submit", "open", "manual", "untracked"]),
      have: z.number(),
      need: z.number(),
    }),
  ),
  rewards: z.array(z.object({ id: z.string(), type: z.string(), title: z.string(), count: z.number() })),
  dependencies: z.array(z.object({ id: z.string(), title: z.string(), status: z.enum(QUEST_STATUSES) })),
  /**
   * The quest is a gift (rewards, and no task beyond a checkmark): only a category mark; the module that shows it
   * lists the contents with the shared gift-list tool.
   */
  starterGift: z.boolean(),
});
export type QuestOutput = z.infer<typeof QUEST_OUTPUT>;

const LIST_LIMIT = 20;

/**
 * The quest book of one feature and each player's view of it: names in the player's language (the pack's text,
 * else the first task's or reward's item name), state from recorded progress plus the game, search over every
 * language the pack has, and the numbering of each player's last list. Quest text is untrusted data: it is only
 * ever shown, never run.
 */
export class QuestService {
  readonly #lastLists = new Map<string, readonly string[]>();
  readonly #search: ReadonlyMap<string, string>;
  /** Players whose FTB team progress was looked for (imported, or none found under their name). */
  readonly #importChecked = new Set<string>();

  constructor(
    private readonly options: {
      readonly book: QuestBook;
      readonly store: AgentStore;
      readonly storage: ModuleStorage<QuestProgressData, QuestProgress>;
      readonly bridge: GameBridge;
      readonly catalog: ItemCatalog | undefined;
      /** Names tasks without a title ("Kill: minecraft:ender_dragon"); ids are shown without it. */
      readonly languages?: Languages | undefined;
      /** FTB team progress from the world folder, imported into a player's record the first time it is read. */
      readonly teamProgress?: TeamProgressImport | undefined;
      readonly now: () => number;
      /** Where completed quests and chapters are reported (`system:quest_completed`, `system:chapter_completed`). */
      readonly gameEvents: GameEventSink;
    },
  ) {
    this.#search = new Map(
      [...options.book.quests.values()].map((quest) => [quest.id, this.#searchText(quest).toLowerCase()]),
    );
  }

  get book(): QuestBook {
    return this.options.book;
  }

  get catalog(): ItemCatalog | undefined {
    return this.options.catalog;
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
    return this.options.store.read(playerId, (data) => {
      const progress = ModuleData.get(data, this.options.storage);
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
    await this.#importOnce(playerId);
    const { done, counts } = await this.options.store.read(playerId, (data) => {
      const progress = ModuleData.get(data, this.options.storage);
      return { done: progress.doneTasks(), counts: progress.counts() };
    });
    return new QuestState(this.options.book, done, observe(this.options.bridge.stats(playerId)), counts);
  }

  /**
   * Records tasks the game shows complete now (items held, xp reached, a dimension visited) and quests complete
   * now that were never announced; returns the quests to announce (their completion card and narration).
   */
  async record(playerId: string): Promise<{ readonly tasks: number; readonly completed: readonly Quest[] }> {
    const state = await this.state(playerId);
    const met = state.newlyMet();
    const complete = [...this.options.book.quests.values()].filter(
      (quest) => state.visible(quest) && state.complete(quest),
    );
    if (met.length === 0 && complete.length === 0) return { tasks: 0, completed: [] };
    const at = this.options.now();
    const recorded = await this.options.store.transaction(playerId, (data) => {
      const progress = ModuleData.get(data, this.options.storage);
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
    const unreported = await this.options.store.read(playerId, (data) =>
      ModuleData.get(data, this.options.storage).unreported(),
    );
    if (unreported.length > 0) await this.#report(playerId, await this.state(playerId), unreported);
  }

  async #report(playerId: string, state: QuestState, questIds: readonly string[]): Promise<void> {
    if (questIds.length === 0) return;
    const completed = questIds.flatMap((id) => {
      const quest = this.options.book.quests.get(id);
      return quest === undefined ? [] : [quest];
    });
    const events = this.options.gameEvents;
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
      const chapter = this.options.book.chapters.get(chapterId);
      const members = chapter?.quests.filter((quest) => state.visible(quest)) ?? [];
      if (members.length === 0 || !members.every((quest) => state.complete(quest))) continue;
      await events.emit({
        type: GameEventTypes.CHAPTER_COMPLETED,
        playerId,
        id: `chapter_completed/${playerId}/${chapterId}`,
        data: { chapter: chapterId },
      });
    }
    await this.options.store.transaction(playerId, (data) =>
      ModuleData.get(data, this.options.storage).reported(questIds),
    );
  }

  /**
   * Imports the player's FTB team progress into their record the first time it is read (once per record: the
   * record keeps the team it imported). Looked for by UUID, else by name; a player whose name is unknown (offline)
   * is looked for again later.
   */
  async #importOnce(playerId: string): Promise<void> {
    const teams = this.options.teamProgress;
    if (teams === undefined || this.#importChecked.has(playerId)) return;
    const name = this.options.bridge.playerName(playerId);
    const plan = teams.planFor(playerId, name);
    if (plan === undefined) {
      if (name !== undefined) this.#importChecked.add(playerId);
      return;
    }
    const at = this.options.now();
    await this.options.store.transaction(playerId, (data) =>
      ModuleData.get(data, this.options.storage).importTeam(plan.team, plan, at),
    );
    this.#importChecked.add(playerId);
  }

  /**
   * Counts a kill the host reported for the kill tasks of that entity type in quests the player can work on now
   * (visible and unlocked); once per killed entity. Returns how many tasks it advanced.
   */
  async recordKill(playerId: string, entity: string, entityId: string): Promise<number> {
    const state = await this.state(playerId);
    const tasks = [...this.options.book.quests.values()]
      .filter((quest) => state.visible(quest) && state.unlocked(quest))
      .flatMap((quest) => quest.tasks)
      .filter((task) => task.type === "kill" && task.entity === entity && state.task(task).status !== "done")
      .map((task) => ({ id: task.id, need: Math.max(1, task.count) }));
    if (tasks.length === 0) return 0;
    const at = this.options.now();
    const counted = await this.options.store.transaction(playerId, (data) =>
      ModuleData.get(data, this.options.storage).countKill(entityId, tasks, at),
    );
    return counted ? tasks.length : 0;
  }

  /** Ticks a checkmark task of a quest the player can work on; false when it is not one or not reachable. */
  async check(playerId: string, taskId: string): Promise<"checked" | "already" | "refused"> {
    const quest = this.options.book.questOfTask(taskId);
    const task = quest?.tasks.find((candidate) => candidate.id === taskId);
    if (quest === undefined || task?.type !== "checkmark") return "refused";
    const state = await this.state(playerId);
    if (!state.visible(quest) || !state.unlocked(quest)) return "refused";
    const at = this.options.now();
    const changed = await this.options.store.transaction(playerId, (data) =>
      ModuleData.get(data, this.options.storage).complete(taskId, at),
    );
    return changed ? "checked" : "already";
  }

  /**
   * An admin completes a quest (every task) or one task for a player, for task types this server cannot observe.
   * Returns the quest, or undefined for an id the pack does not have.
   */
  async complete(playerId: string, id: string): Promise<Quest | undefined> {
    const hex = id.trim().toUpperCase().replace(/^#/, "");
    const quest = this.options.book.quests.get(hex) ?? this.options.book.questOfTask(hex);
    if (quest === undefined) return undefined;
    const tasks = this.options.book.quests.has(hex) ? quest.tasks.map((task) => task.id) : [hex];
    const at = this.options.now();
    await this.options.store.transaction(playerId, (data) => {
      const progress = ModuleData.get(data, this.options.storage);
      for (const task of tasks) progress.complete(task, at);
    });
    return quest;
  }

  title(quest: Quest, locale: string): string {
    const book = this.options.book;
    const own = book.text(quest.title, locale);
    if (own.length > 0) return own;
    for (const task of quest.tasks) {
      const title = this.taskTitle(task, locale);
      if (title.length > 0) return title;
    }
    const reward = quest.rewards.find((candidate) => candidate.item !== undefined);
    return reward?.item === undefined ? quest.id : this.itemName(reward.item, locale);
  }

  /** A task's own title, else its item's name, else what it asks for ("Kill: …", "Visit: …"); "" when none. */
  taskTitle(task: QuestTask, locale: string): string {
    const own = this.options.book.text(task.title, locale);
    if (own.length > 0) return own;
    if (task.item !== undefined) return this.itemName(task.item, locale);
    const area = task.area;
    const target = area === undefined ? (task.entity ?? task.dimension) : `${area.x}, ${area.y}, ${area.z}`;
    if (target === undefined) return "";
    const languages = this.options.languages;
    const kind = area !== undefined ? "location" : task.entity === undefined ? "dimension" : "kill";
    const key = `system.quests.task_kind.${kind}`;
    return languages === undefined ? target : languages.format(locale, key, [target]);
  }

  itemName(item: QuestItem, locale: string): string {
    const info = this.options.catalog?.lookup(item.id);
    if (info === undefined) return item.id;
    return locale.toLowerCase().startsWith("zh") ? (info.names.zh_cn ?? info.names.en_us) : info.names.en_us;
  }

  chapterTitle(quest: Quest, locale: string): string {
    const chapter = this.options.book.chapters.get(quest.chapterId);
    return chapter === undefined ? "" : this.chapterName(chapter, locale);
  }

  /** A chapter's title in the player's language, else its file name. */
  chapterName(chapter: QuestChapter, locale: string): string {
    return this.options.book.text(chapter.title, locale) || chapter.filename;
  }

  brief(state: QuestState, quest: Quest, locale: string, number?: number): QuestBriefOutput {
    return {
      id: quest.id,
      ...(number === undefined ? {} : { number }),
      title: this.title(quest, locale),
      chapter: this.chapterTitle(quest, locale),
      status: state.status(quest),
    };
  }

  /**
   * Quests the player can work on now (visible, unlocked, not complete) in book order, after `unclaimed` (complete
   * quests whose rewards wait to be claimed, marked); numbered and remembered.
   */
  available(
    playerId: string,
    state: QuestState,
    locale: string,
    unclaimed: readonly Quest[] = [],
  ): QuestBriefOutput[] {
    const open = [...this.options.book.quests.values()].filter(
      (quest) => state.visible(quest) && state.status(quest) === "available",
    );
    const first = new Set(unclaimed.map((quest) => quest.id));
    return this.#numbered(playerId, state, [...unclaimed, ...open].slice(0, LIST_LIMIT), locale).map(
      (brief) => (first.has(brief.id) ? { ...brief, unclaimed: true } : brief),
    );
  }

  /** Visible quests whose text in any language contains every word of `text`, best first. */
  find(playerId: string, state: QuestState, text: string, locale: string): QuestBriefOutput[] {
    const words = text
      .toLowerCase()
      .split(/\s+/u)
      .filter((word) => word.length > 0);
    if (words.length === 0) return [];
    const found: { quest: Quest; score: number }[] = [];
    for (const quest of this.options.book.quests.values()) {
      const haystack = this.#search.get(quest.id) ?? "";
      if (!words.every((word) => haystack.includes(word))) continue;
      if (!state.visible(quest)) continue;
      const title = this.title(quest, locale).toLowerCase();
      found.push({
        quest,
        score: title === text.toLowerCase() ? 0 : title.includes(words[0] as string) ? 1 : 2,
      });
    }
    found.sort((left, right) => left.score - right.score);
    return this.#numbered(
      playerId,
      state,
      found.slice(0, LIST_LIMIT).map((entry) => entry.quest),
      locale,
    );
  }

  /** A quest by id (hex), by number from the player's last list, else undefined. */
  byReference(playerId: string, reference: string): Quest | undefined {
    const trimmed = reference.trim();
    if (/^\d{1,3}$/.test(trimmed)) {
      const id = this.#lastLists.get(playerId)?.[Number(trimmed) - 1];
      return id === undefined ? undefined : this.options.book.quests.get(id);
    }
    const hex = trimmed.toUpperCase().replace(/^#/, "");
    return /^[0-9A-F]{16}$/.test(hex) ? this.options.book.quests.get(hex) : undefined;
  }

  detail(state: QuestState, quest: Quest, locale: string): QuestOutput {
    const book = this.options.book;
    return {
      ...this.brief(state, quest, locale),
      subtitle: book.text(quest.subtitle, locale),
      description: book.lines(quest.description, locale),
      tasks: quest.tasks.map((task) => {
        const view = state.task(task);
        const title = this.taskTitle(task, locale) || task.type;
        return {
          id: task.id,
          type: task.type,
          title,
          status: view.status,
          have: view.have,
          need: view.need,
        };
      }),
      rewards: quest.rewards.map((reward) => ({
        id: reward.id,
        type: reward.type,
        title:
          book.text(reward.title, locale) ||
          (reward.item === undefined ? reward.type : this.itemName(reward.item, locale)),
        count: reward.amount ?? reward.count,
      })),
      dependencies: quest.dependencies.flatMap((id) => {
        const dependency = book.quests.get(id);
        if (dependency === undefined || !state.visible(dependency)) return [];
        return [{ id, title: this.title(dependency, locale), status: state.status(dependency) }];
      }),
      starterGift: quest.rewards.length > 0 && quest.tasks.every((task) => task.type === "checkmark"),
    };
  }

  #numbered(
    playerId: string,
    state: QuestState,
    quests: readonly Quest[],
    locale: string,
  ): QuestBriefOutput[] {
    this.#lastLists.set(
      playerId,
      quests.map((quest) => quest.id),
    );
    return quests.map((quest, index) => this.brief(state, quest, locale, index + 1));
  }

  #searchText(quest: Quest): string {
    const names = quest.tasks.flatMap((task) =>
      task.item === undefined ? [] : [this.itemName(task.item, "en_us"), this.itemName(task.item, "zh_cn")],
    );
    return [this.options.book.searchText(quest), quest.id, ...names].join("\n");
  }
}
