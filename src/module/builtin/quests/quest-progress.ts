import { z } from "zod";
import { DataStorage, ModuleStorage } from "../../../agent/storage/module-storage.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";

const HEX = z.string().regex(/^[0-9A-F]{16}$/);

const progressSchema = z.object({
  /** Task id → when it was completed (ms since epoch). Completed tasks stay completed. */
  tasks: z.record(HEX, z.number()),
  /** Reward id → when it was claimed. */
  claimed: z.record(HEX, z.number()),
});

export type QuestProgressData = z.infer<typeof progressSchema>;

/**
 * One player's FTB quest progress as System tracks it (no FTB mod runs in the embedded server): completed tasks
 * and claimed rewards, by the pack's hex ids. Mutators mark dirty only on a real change.
 */
export class QuestProgress extends DataStorage<QuestProgressData> {
  readonly #tasks: Map<string, number>;
  readonly #claimed: Map<string, number>;

  constructor(data?: QuestProgressData) {
    super();
    this.#tasks = new Map(Object.entries(data?.tasks ?? {}));
    this.#claimed = new Map(Object.entries(data?.claimed ?? {}));
  }

  done(taskId: string): boolean {
    return this.#tasks.has(taskId);
  }

  /** The completed task ids. */
  doneTasks(): ReadonlySet<string> {
    return new Set(this.#tasks.keys());
  }

  /** Records a completed task; false when it already was. */
  complete(taskId: string, at: number): boolean {
    if (this.#tasks.has(taskId)) return false;
    this.#tasks.set(taskId, at);
    this.markDirty();
    return true;
  }

  claimed(rewardId: string): boolean {
    return this.#claimed.has(rewardId);
  }

  toData(): QuestProgressData {
    return { tasks: Object.fromEntries(this.#tasks), claimed: Object.fromEntries(this.#claimed) };
  }
}

/** The quest-progress storage of a quests feature (owner = its data-pack entry id). */
export const questProgressStorage = (owner: Identifier): ModuleStorage<QuestProgressData, QuestProgress> =>
  ModuleStorage.of({
    owner,
    type: "quest_progress",
    codecId: Identifier.parse("system:quest_progress_v1"),
    codec: codec(progressSchema),
    factory: (data) => new QuestProgress(data),
  });
