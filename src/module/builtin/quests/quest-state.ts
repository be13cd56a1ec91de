import type { Quest, QuestBook, QuestTask } from "../../../data/quests/quest-book.js";
import type { PlayerStatsSnapshot } from "../../../game/game-snapshots.js";

/** Task types System can observe on the embedded server; every other type is shown as not tracked here. */
export const TRACKED_TASKS: ReadonlySet<string> = new Set([
  "item",
  "checkmark",
  "xp",
  "dimension",
  "location",
  "kill",
]);

/**
 * A task as the player stands now: `done` (recorded), `met` (observed complete now; the next write records it),
 * `submit` (items held that the task consumes: the player hands them in with a button), `open` (with how far
 * along), `manual` (a checkmark the player ticks), `untracked` (a type this server cannot see).
 */
export type TaskStatus = "done" | "met" | "submit" | "open" | "manual" | "untracked";

export interface TaskView {
  readonly task: QuestTask;
  readonly status: TaskStatus;
  readonly have: number;
  readonly need: number;
}

/** What a player may see and do with a quest now. */
export type QuestStatus = "locked" | "available" | "complete";

/** What the player's game shows now: inventory totals by item id, xp and dimension (absent offline). */
export interface Observation {
  readonly items: ReadonlyMap<string, number>;
  readonly stats: PlayerStatsSnapshot | undefined;
}

/** An item task whose items are handed in (taken) rather than only held. */
export const consumes = (task: QuestTask): boolean => task.type === "item" && task.consumeItems;

export const observe = (stats: PlayerStatsSnapshot | undefined): Observation => ({
  items: new Map((stats?.inventory?.totals ?? []).map((total) => [total.item, total.count])),
  stats,
});

/**
 * Quest state of one player over one book: recorded tasks plus what the game shows now. Dependencies may name
 * quests, chapters or tasks; `invisible` quests stay hidden until complete, `hide` ones until unlocked, and
 * `hide_until_deps_visible` ones until every dependency is visible.
 */
export class QuestState {
  readonly #complete = new Map<string, boolean>();
  readonly #visible = new Map<string, boolean>();

  constructor(
    readonly book: QuestBook,
    private readonly done: ReadonlySet<string>,
    private readonly observation: Observation,
    /** Progress counted by System (kills the host reported), by task id; the mod's own, when it keeps progress. */
    private readonly counts: ReadonlyMap<string, number> = new Map(),
    /**
     * `mod`: the FTB Quests mod keeps progress (`done` and `counts` are its files): a task not done is open with
     * the mod's count, whatever the game shows, since only the mod completes tasks and the player works in its book.
     */
    private readonly keeper: "system" | "mod" = "system",
  ) {}

  task(task: QuestTask): TaskView {
    const need = Math.max(1, task.count);
    if (this.done.has(task.id)) return { task, status: "done", have: need, need };
    if (this.keeper === "mod")
      return { task, status: "open", have: Math.min(this.counts.get(task.id) ?? 0, need), need };
    const have = this.#have(task);
    if (have === undefined)
      return { task, status: task.type === "checkmark" ? "manual" : "untracked", have: 0, need };
    const reached = have >= need ? (consumes(task) ? "submit" : "met") : "open";
    return { task, status: reached, have: Math.min(have, need), need };
  }

  #have(task: QuestTask): number | undefined {
    const stats = this.observation.stats;
    switch (task.type) {
      case "item":
        // an item filter (tag or FTB filter item) cannot be matched by id here
        if (
          task.item === undefined ||
          task.item.id.startsWith("#") ||
          task.item.id.startsWith("ftbfiltersystem:")
        )
          return undefined;
        return this.observation.items.get(task.item.id) ?? 0;
      case "xp":
        if (stats === undefined) return 0;
        return (task.points ? stats.xpTotal : stats.xpLevel) ?? 0;
      case "dimension":
        if (stats === undefined || task.dimension === undefined) return 0;
        return stats.dimension === task.dimension ? task.count : 0;
      case "kill":
        return task.entity === undefined ? undefined : (this.counts.get(task.id) ?? 0);
      case "location": {
        const area = task.area;
        if (area === undefined) return undefined;
        if (stats?.position === undefined) return 0;
        if (!area.ignoreDimension && stats.dimension !== (task.dimension ?? "minecraft:overworld")) return 0;
        const [x, y, z] = [stats.position.x, stats.position.y, stats.position.z].map(Math.floor) as [
          number,
          number,
          number,
        ];
        const inside =
          x >= area.x &&
          x < area.x + area.w &&
          y >= area.y &&
          y < area.y + area.h &&
          z >= area.z &&
          z < area.z + area.d;
        return inside ? task.count : 0;
      }
      default:
        return undefined;
    }
  }

  /** Every task recorded or observed complete (a quest without tasks is complete once unlocked). */
  complete(quest: Quest): boolean {
    const known = this.#complete.get(quest.id);
    if (known !== undefined) return known;
    this.#complete.set(quest.id, false);
    const result =
      this.unlocked(quest) &&
      quest.tasks.every((task) => {
        const status = this.task(task).status;
        return status === "done" || status === "met";
      });
    this.#complete.set(quest.id, result);
    return result;
  }

  /** Every dependency complete: a quest, a whole chapter, or a task. Cycles count as unmet. */
  unlocked(quest: Quest): boolean {
    return quest.dependencies.every((id) => this.#dependencyMet(id));
  }

  #dependencyMet(id: string): boolean {
    const quest = this.book.quests.get(id);
    if (quest !== undefined) return this.complete(quest);
    const chapter = this.book.chapters.get(id);
    if (chapter !== undefined) return chapter.quests.every((member) => this.complete(member));
    const owner = this.book.questOfTask(id);
    if (owner !== undefined) {
      const task = owner.tasks.find((candidate) => candidate.id === id);
      const status = task === undefined ? "open" : this.task(task).status;
      return status === "done" || status === "met";
    }
    // a dependency on something the pack does not have never blocks
    return true;
  }

  visible(quest: Quest): boolean {
    const known = this.#visible.get(quest.id);
    if (known !== undefined) return known;
    this.#visible.set(quest.id, false);
    let result = true;
    if (quest.invisible) result = this.complete(quest);
    else if (quest.hide) result = this.unlocked(quest);
    else if (quest.hideUntilDepsVisible)
      result = quest.dependencies.every((id) => {
        const dependency = this.book.quests.get(id);
        return dependency === undefined || this.visible(dependency);
      });
    this.#visible.set(quest.id, result);
    return result;
  }

  status(quest: Quest): QuestStatus {
    if (this.complete(quest)) return "complete";
    return this.unlocked(quest) ? "available" : "locked";
  }

  /** Tasks observed complete now that are not recorded yet (the next progress write records them). */
  newlyMet(): string[] {
    const met: string[] = [];
    for (const quest of this.book.quests.values()) {
      if (!this.unlocked(quest)) continue;
      for (const task of quest.tasks) if (this.task(task).status === "met") met.push(task.id);
    }
    return met;
  }
}
