import { plainQuestLines, plainQuestText } from "./quest-text.js";

/** Text of a quest object: inline (1.16–1.20 files) and/or a key into `lang/<locale>.snbt` (1.21, FTB Quests 2101+). */
export interface QuestText {
  readonly inline?: string | readonly string[];
  /** `quest.<ID>.title` style key; looked up in the lang files. */
  readonly key: string;
}

/** An item as a quest file names it; `count` is the stack size (1.16 `Count`, 1.21 `count`). */
export interface QuestItem {
  readonly id: string;
  readonly count: number;
  /**
   * What a filter item accepts, as written: the tag of `itemfilters:tag` (`forge:ingots/steel`), the expression
   * of `ftbfiltersystem:smart_filter` (`or(item_tag(c:ingots/steel)item(create:andesite_alloy))`).
   */
  readonly filter?: string;
}

export interface QuestTask {
  readonly id: string;
  /** The task type without the `ftbquests:` namespace (`item`, `checkmark`, `xp`, `kill`, …). */
  readonly type: string;
  readonly title: QuestText;
  readonly item?: QuestItem;
  /** How many are needed (items, kills, xp). */
  readonly count: number;
  readonly consumeItems: boolean;
  /** `xp` tasks: levels rather than points. */
  readonly points: boolean;
  readonly dimension?: string;
  readonly entity?: string;
  /** `location` tasks: the block box to stand in (`position` + `size`), in `dimension` unless ignored. */
  readonly area?: QuestArea;
}

/** A block box: from `x, y, z` (inclusive) to `x + w, y + h, z + d` (exclusive), as FTB's location task. */
export interface QuestArea {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly w: number;
  readonly h: number;
  readonly d: number;
  readonly ignoreDimension: boolean;
}

export interface QuestReward {
  readonly id: string;
  readonly type: string;
  readonly title: QuestText;
  readonly item?: QuestItem;
  readonly count: number;
  /** `xp` and `xp_levels` rewards. */
  readonly amount?: number;
  /** `random`, `loot`, `choice`, `all_table`: the reward table (hex id). */
  readonly table?: string;
  /** `command` rewards are never run; kept to show them as unavailable. */
  readonly command?: string;
}

export interface Quest {
  readonly id: string;
  readonly chapterId: string;
  readonly title: QuestText;
  readonly subtitle: QuestText;
  readonly description: QuestText;
  readonly icon?: string;
  readonly tasks: readonly QuestTask[];
  readonly rewards: readonly QuestReward[];
  /** Quest, chapter or task ids this quest waits for. */
  readonly dependencies: readonly string[];
  readonly hide: boolean;
  readonly hideUntilDepsVisible: boolean;
  readonly invisible: boolean;
  readonly optional: boolean;
  /** The line of the quest in its chapter file, for messages. */
  readonly line: number;
}

export interface QuestChapter {
  readonly id: string;
  readonly filename: string;
  readonly title: QuestText;
  readonly group?: string;
  readonly orderIndex: number;
  readonly quests: readonly Quest[];
  readonly file: string;
}

export interface RewardTableEntry {
  readonly weight: number;
  readonly item?: QuestItem;
  readonly type: string;
  readonly count: number;
}

export interface RewardTable {
  readonly id: string;
  readonly title: QuestText;
  readonly lootSize: number;
  readonly entries: readonly RewardTableEntry[];
  readonly file: string;
}

/** A loaded quest book: chapters in order, quests by id, reward tables by hex id, lang files by locale. */
export class QuestBook {
  readonly quests: ReadonlyMap<string, Quest>;
  readonly chapters: ReadonlyMap<string, QuestChapter>;
  /** Every task and chapter id, for dependencies that point at them. */
  readonly #tasks: ReadonlyMap<string, Quest>;

  constructor(
    readonly title: QuestText,
    chapters: readonly QuestChapter[],
    readonly rewardTables: ReadonlyMap<string, RewardTable>,
    /** locale → key → text or lines */
    readonly lang: ReadonlyMap<string, ReadonlyMap<string, string | readonly string[]>>,
    /** data.snbt `fallback_locale` (1.21), else en_us. */
    readonly fallbackLocale: string,
  ) {
    const ordered = [...chapters].sort((left, right) => left.orderIndex - right.orderIndex);
    this.chapters = new Map(ordered.map((chapter) => [chapter.id, chapter]));
    const quests = new Map<string, Quest>();
    const tasks = new Map<string, Quest>();
    for (const chapter of ordered)
      for (const quest of chapter.quests) {
        quests.set(quest.id, quest);
        for (const task of quest.tasks) tasks.set(task.id, quest);
      }
    this.quests = quests;
    this.#tasks = tasks;
  }

  /** The quest that owns a task id. */
  questOfTask(taskId: string): Quest | undefined {
    return this.#tasks.get(taskId);
  }

  /** Counts `inspect` prints. */
  counts(): { chapters: number; quests: number; tasks: number; rewards: number; rewardTables: number } {
    let tasks = 0;
    let rewards = 0;
    for (const quest of this.quests.values()) {
      tasks += quest.tasks.length;
      rewards += quest.rewards.length;
    }
    return {
      chapters: this.chapters.size,
      quests: this.quests.size,
      tasks,
      rewards,
      rewardTables: this.rewardTables.size,
    };
  }

  /** Locales with any text (the lang files' names; inline text counts as the pack's own). */
  locales(): string[] {
    return [...this.lang.keys()].sort();
  }

  /**
   * The raw text of a field in a locale: the player's locale, then the pack's fallback locale, then en_us, then any
   * locale that has it (some packs ship only zh_cn and an empty en_us); inline text when no lang file has it.
   */
  raw(text: QuestText, locale: string): string | readonly string[] | undefined {
    const wanted = [locale.toLowerCase(), this.fallbackLocale, "en_us"];
    for (const candidate of wanted) {
      const found = nonEmpty(this.lang.get(candidate)?.get(text.key));
      if (found !== undefined) return found;
    }
    if (nonEmpty(text.inline) !== undefined) return text.inline;
    for (const locale of this.locales()) {
      const found = nonEmpty(this.lang.get(locale)?.get(text.key));
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** One line of plain text (markup removed); "" when the pack has none. */
  text(text: QuestText, locale: string): string {
    const raw = this.raw(text, locale);
    if (raw === undefined) return "";
    return plainQuestText(typeof raw === "string" ? raw : raw.join(" "));
  }

  /** Plain description lines. */
  lines(text: QuestText, locale: string): string[] {
    const raw = this.raw(text, locale);
    if (raw === undefined) return [];
    return plainQuestLines(typeof raw === "string" ? raw.split("\n") : raw);
  }

  /** Every text of a quest in every locale the pack has (search matches any language). */
  searchText(quest: Quest): string {
    const parts: string[] = [];
    const fields = [quest.title, quest.subtitle];
    for (const field of fields) {
      if (typeof field.inline === "string") parts.push(plainQuestText(field.inline));
      for (const table of this.lang.values()) {
        const value = table.get(field.key);
        if (typeof value === "string") parts.push(plainQuestText(value));
      }
    }
    return parts.join("\n");
  }
}

const nonEmpty = (value: string | readonly string[] | undefined): string | readonly string[] | undefined => {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value.trim().length === 0 ? undefined : value;
  return value.some((line) => line.trim().length > 0) ? value : undefined;
};
