import { z } from "zod";
import { DataStorage, ModuleStorage } from "../../../agent/storage/module-storage.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";

const HEX = z.string().regex(/^[0-9A-F]{16}$/);

const stack = z.object({ item: z.string(), count: z.number().int().positive() });

const claimSchema = z.object({
  /** What this claim delivers, fixed when the player claimed (draws of reward tables included). */
  items: z.array(stack).max(64),
  /** Experience points and whole levels this claim delivers (after its items). */
  experience: z
    .object({ points: z.number().int().nonnegative(), levels: z.number().int().nonnegative() })
    .default({ points: 0, levels: 0 }),
  /**
   * PENDING: to deliver (a durable event is queued). DELIVERED: in the player's saved inventory. UNCONFIRMED: a
   * give was interrupted and may or may not have happened; an admin resolves it, it is never given again by itself.
   */
  state: z.enum(["PENDING", "DELIVERED", "UNCONFIRMED"]),
  /** The delivery attempt (a new event id per attempt); `retry` once an attempt gave nothing (no room). */
  attempt: z.number().int().nonnegative(),
  retry: z.boolean(),
});

const progressSchema = z.object({
  /** Task id → when it was completed (ms since epoch). Completed tasks stay completed. */
  tasks: z.record(HEX, z.number()),
  /** Reward id → when it was claimed. */
  claimed: z.record(HEX, z.number()),
  /** Quest id → its reward claim. */
  claims: z.record(HEX, claimSchema).default({}),
  /** Quest id → when its completion was announced to the player. */
  completed: z.record(HEX, z.number()).default({}),
  /**
   * Quests announced whose completion was not yet reported as a game event (recorded in the same transaction as
   * the announcement, cleared once the report is durable): a crash in between reports them at the next chance.
   */
  unreported: z.array(HEX).default([]),
  /** Task id → progress counted here (kills), for tasks not complete yet. */
  counts: z.record(HEX, z.number().int().nonnegative()).default({}),
  /** Entities whose kill was counted (their ids), the latest few: a kill reported twice counts once. */
  kills: z.array(z.string().max(64)).max(64).default([]),
  /** The FTB team whose progress was imported into this record (once; the world's files are never read again). */
  imported: z.string().optional(),
});

export type QuestClaim = z.infer<typeof claimSchema>;

export type QuestProgressData = z.infer<typeof progressSchema>;

/**
 * One player's FTB quest progress as System tracks it (no FTB mod runs in the embedded server): completed tasks
 * and claimed rewards, by the pack's hex ids. Mutators mark dirty only on a real change.
 */
export class QuestProgress extends DataStorage<QuestProgressData> {
  readonly #tasks: Map<string, number>;
  readonly #claimed: Map<string, number>;
  readonly #claims: Map<string, QuestClaim>;
  readonly #completed: Map<string, number>;
  readonly #unreported: Set<string>;
  #imported: string | undefined;
  readonly #counts: Map<string, number>;
  #kills: string[];

  constructor(data?: QuestProgressData) {
    super();
    this.#tasks = new Map(Object.entries(data?.tasks ?? {}));
    this.#claimed = new Map(Object.entries(data?.claimed ?? {}));
    this.#claims = new Map(Object.entries(structuredClone(data?.claims ?? {})));
    this.#completed = new Map(Object.entries(data?.completed ?? {}));
    this.#unreported = new Set(data?.unreported ?? []);
    this.#imported = data?.imported;
    this.#counts = new Map(Object.entries(data?.counts ?? {}));
    this.#kills = [...(data?.kills ?? [])];
  }

  /** Progress counted here for a task (kills so far). */
  count(taskId: string): number {
    return this.#counts.get(taskId) ?? 0;
  }

  /** Task id → progress counted here. */
  counts(): ReadonlyMap<string, number> {
    return new Map(this.#counts);
  }

  /**
   * Counts one kill of an entity for the given tasks (those it advances), completing each that reaches its
   * amount; false when this entity's kill was counted before.
   */
  countKill(
    entityId: string,
    tasks: readonly { readonly id: string; readonly need: number }[],
    at: number,
  ): boolean {
    if (this.#kills.includes(entityId)) return false;
    this.#kills = [...this.#kills, entityId].slice(-64);
    for (const task of tasks) {
      if (this.#tasks.has(task.id)) continue;
      const count = (this.#counts.get(task.id) ?? 0) + 1;
      if (count >= task.need) {
        this.#counts.delete(task.id);
        this.#tasks.set(task.id, at);
      } else this.#counts.set(task.id, count);
    }
    this.markDirty();
    return true;
  }

  /** The FTB team whose progress was imported, if any. */
  imported(): string | undefined {
    return this.#imported;
  }

  /**
   * Imports FTB team progress once: completed tasks, quests completed there (announced, so no completion card
   * follows), and rewards claimed there. A quest with any reward claimed in FTB is recorded as claimed and
   * DELIVERED (the mod gave it), so it is never paid again here. False when this record imported before.
   */
  importTeam(
    team: string,
    progress: {
      readonly tasks: readonly string[];
      readonly quests: readonly string[];
      readonly claims: readonly { readonly quest: string; readonly rewards: readonly string[] }[];
    },
    at: number,
  ): boolean {
    if (this.#imported !== undefined) return false;
    this.#imported = team;
    for (const task of progress.tasks) if (!this.#tasks.has(task)) this.#tasks.set(task, at);
    for (const quest of progress.quests) if (!this.#completed.has(quest)) this.#completed.set(quest, at);
    for (const claim of progress.claims) {
      for (const reward of claim.rewards) if (!this.#claimed.has(reward)) this.#claimed.set(reward, at);
      if (!this.#claims.has(claim.quest))
        this.#claims.set(claim.quest, {
          items: [],
          experience: { points: 0, levels: 0 },
          state: "DELIVERED",
          attempt: 0,
          retry: false,
        });
    }
    this.markDirty();
    return true;
  }

  /** Records a quest's completion as announced, and as still to report; false when it already was. */
  announce(questId: string, at: number): boolean {
    if (this.#completed.has(questId)) return false;
    this.#completed.set(questId, at);
    this.#unreported.add(questId);
    this.markDirty();
    return true;
  }

  /** Quests announced whose completion event is not known to be reported yet. */
  unreported(): readonly string[] {
    return [...this.#unreported];
  }

  /** Their completion events are durable (queued): nothing left to report for them. */
  reported(questIds: readonly string[]): void {
    let changed = false;
    for (const id of questIds) changed = this.#unreported.delete(id) || changed;
    if (changed) this.markDirty();
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

  claim(questId: string): QuestClaim | undefined {
    const claim = this.#claims.get(questId);
    return claim === undefined ? undefined : structuredClone(claim);
  }

  /** Claims whose delivery is owed: PENDING and not waiting for the player to claim again. */
  pendingClaims(): [string, QuestClaim][] {
    return [...this.#claims]
      .filter(([, claim]) => claim.state === "PENDING" && !claim.retry)
      .map(([quest, claim]) => [quest, structuredClone(claim)]);
  }

  /** Records a quest's claim and its rewards as claimed; false when the quest was claimed already. */
  startClaim(
    questId: string,
    rewardIds: readonly string[],
    delivery: Pick<QuestClaim, "items" | "experience">,
    at: number,
  ): boolean {
    if (this.#claims.has(questId)) return false;
    this.#claims.set(questId, {
      items: structuredClone([...delivery.items]),
      experience: { ...delivery.experience },
      state: "PENDING",
      attempt: 0,
      retry: false,
    });
    for (const id of rewardIds) this.#claimed.set(id, at);
    this.markDirty();
    return true;
  }

  /** The next attempt of a claim whose last attempt gave nothing; undefined when none may start. */
  nextAttempt(questId: string): number | undefined {
    const claim = this.#claims.get(questId);
    if (claim === undefined || claim.state !== "PENDING" || !claim.retry) return undefined;
    claim.attempt++;
    claim.retry = false;
    this.markDirty();
    return claim.attempt;
  }

  /** An attempt gave nothing (no room, offline): the player may claim again. */
  allowRetry(questId: string): void {
    const claim = this.#claims.get(questId);
    if (claim === undefined || claim.state !== "PENDING" || claim.retry) return;
    claim.retry = true;
    this.markDirty();
  }

  settle(questId: string, state: "DELIVERED" | "UNCONFIRMED"): void {
    const claim = this.#claims.get(questId);
    if (claim === undefined || claim.state === state || claim.state === "DELIVERED") return;
    claim.state = state;
    this.markDirty();
  }

  toData(): QuestProgressData {
    return {
      tasks: Object.fromEntries(this.#tasks),
      claimed: Object.fromEntries(this.#claimed),
      claims: Object.fromEntries([...this.#claims].map(([id, claim]) => [id, structuredClone(claim)])),
      completed: Object.fromEntries(this.#completed),
      unreported: [...this.#unreported],
      counts: Object.fromEntries(this.#counts),
      kills: [...this.#kills],
      ...(this.#imported === undefined ? {} : { imported: this.#imported }),
    };
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
