import { z } from "zod";
import type {
  Quest,
  QuestBook,
  QuestChapter,
  QuestItem,
  QuestTask,
} from "../../../data/quests/quest-book.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import { filterItems } from "../../../game/data/item-filters.js";
import type { Languages } from "../../../util/language.js";
import type { QuestState } from "./quest-state.js";

/** A quest's status for a player: not unlocked yet, open to work on, or complete. */
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

/** A readable name from an item id the catalog does not know: its path's words, capitalised. */
export const nameFromId = (id: string): string => {
  const path =
    id
      .slice(id.indexOf(":") + 1)
      .split("/")
      .at(-1) ?? id;
  const words = path.split(/[_\s]+/u).filter((word) => word.length > 0);
  return words.length === 0
    ? id
    : words.map((word) => `${word[0]?.toUpperCase() ?? ""}${word.slice(1)}`).join(" ");
};

/** What the player-facing views of a quest book read: the book, and how to name items and untitled tasks. */
export interface QuestViewOptions {
  readonly book: QuestBook;
  readonly catalog: ItemCatalog | undefined;
  /** Names tasks without a title ("Kill: minecraft:ender_dragon"); ids are shown without it. */
  readonly languages?: Languages | undefined;
}

/**
 * Each player's view of one feature's quest book: names in the player's language (the pack's text, else the
 * first task's or reward's item name), lists and details from a quest state, search over every language the pack
 * has, and the numbering of each player's last list. Quest text is untrusted data: it is only ever shown, never
 * run. QuestService adds the player's progress.
 */
export class QuestViews {
  readonly #options: QuestViewOptions;
  readonly #lastLists = new Map<string, readonly string[]>();
  readonly #search: ReadonlyMap<string, string>;

  constructor(options: QuestViewOptions) {
    this.#options = options;
    this.#search = new Map(
      [...options.book.quests.values()].map((quest) => [quest.id, this.#searchText(quest).toLowerCase()]),
    );
  }

  get book(): QuestBook {
    return this.#options.book;
  }

  get catalog(): ItemCatalog | undefined {
    return this.#options.catalog;
  }

  /**
   * A quest's title in the player's language, else its first named task's title, else its first item reward's
   * name, else its id.
   */
  title(quest: Quest, locale: string): string {
    const book = this.#options.book;
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
    const own = this.#options.book.text(task.title, locale);
    if (own.length > 0) return own;
    if (task.item !== undefined) return this.itemName(task.item, locale);
    const area = task.area;
    const target = area === undefined ? (task.entity ?? task.dimension) : `${area.x}, ${area.y}, ${area.z}`;
    if (target === undefined) return "";
    const languages = this.#options.languages;
    const kind = area !== undefined ? "location" : task.entity === undefined ? "dimension" : "kill";
    const key = `system.quests.task_kind.${kind}`;
    return languages === undefined ? target : languages.format(locale, key, [target]);
  }

  /**
   * An item's name in the player's language (Chinese or English) from the catalog, else one read from its id
   * (`gtceu:lv_extractor` → "Lv Extractor"): a player reads a name, never a raw id. A filter item
   * (a tag, Item Filters, FTB Filter System) is named by the items it accepts: "Any of: Steel Ingot, …".
   */
  itemName(item: QuestItem, locale: string): string {
    const catalog = this.#options.catalog;
    const chinese = locale.toLowerCase().startsWith("zh");
    const accepted = catalog === undefined ? undefined : filterItems(item, catalog);
    if (accepted !== undefined && accepted.items.length > 0) {
      const names = accepted.items
        .map((id) => this.itemName({ id, count: 1 }, locale))
        .join(chinese ? "、" : ", ");
      const languages = this.#options.languages;
      const key =
        accepted.more > 0 ? "system.quests.task_kind.filter_more" : "system.quests.task_kind.filter";
      const args = accepted.more > 0 ? [names, String(accepted.more)] : [names];
      return languages === undefined ? names : languages.format(locale, key, args);
    }
    const info = catalog?.lookup(item.id);
    if (info === undefined) return nameFromId(item.id);
    return chinese ? (info.names.zh_cn ?? info.names.en_us) : info.names.en_us;
  }

  /** The title of the chapter a quest is in, in the player's language ("" for a chapter the book lacks). */
  chapterTitle(quest: Quest, locale: string): string {
    const chapter = this.#options.book.chapters.get(quest.chapterId);
    return chapter === undefined ? "" : this.chapterName(chapter, locale);
  }

  /** A chapter's title in the player's language, else its file name. */
  chapterName(chapter: QuestChapter, locale: string): string {
    return this.#options.book.text(chapter.title, locale) || chapter.filename;
  }

  /** One line of a quest list, numbered when it is part of a remembered list. */
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
    const open = [...this.#options.book.quests.values()].filter(
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
    for (const quest of this.#options.book.quests.values()) {
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
      return id === undefined ? undefined : this.#options.book.quests.get(id);
    }
    const hex = trimmed.toUpperCase().replace(/^#/, "");
    return /^[0-9A-F]{16}$/.test(hex) ? this.#options.book.quests.get(hex) : undefined;
  }

  /** A quest with its tasks (with progress), rewards and visible dependencies, in the player's language. */
  detail(state: QuestState, quest: Quest, locale: string): QuestOutput {
    const book = this.#options.book;
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
    return [this.#options.book.searchText(quest), quest.id, ...names].join("\n");
  }
}
