import { join } from "node:path";
import { z } from "zod";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { EventExecutor } from "../agent/execution/event-executor.js";
import { EventRules } from "../agent/execution/event-rules.js";
import type { GameClock } from "../game/context-types.js";
import {
  GAME_EVENT_TYPES,
  type GameEvent,
  type GameEventData,
  type GameEventSink,
  type GameEventType,
  GameEventTypes,
} from "../game/game-events.js";
import { localDay } from "../module/builtin/check-in/local-day.js";
import type { EarningWay } from "../module/builtin/storage/points-sources.js";
import { codec } from "../util/codec.js";
import { ConfigInstance } from "../util/config-instance.js";
import type { Logger } from "../util/logger.js";

/** Namespaced ids as the game writes them (`minecraft:the_nether`, `minecraft:zombie`). */
const GAME_ID = z.string().regex(/^[a-z0-9_.-]+:[a-z0-9_./-]+$/, "a namespaced id such as minecraft:zombie");
const AT_LEAST = z.number().int().min(1).max(1_000_000);
const NONE = z.object({}).strict();

/**
 * The conditions each event type takes; all the conditions a rule gives must hold. Numbers are thresholds
 * (`streak` ≥ N, `minutes` ≥ N, `total` ≥ N); strings must equal the event's (ids compared without case).
 */
type Conditions = Readonly<Partial<Record<string, string | number>>>;
const CONDITIONS: Readonly<Record<GameEventType, z.ZodType<Conditions>>> = {
  [GameEventTypes.FIRST_JOIN]: NONE,
  [GameEventTypes.JOIN]: NONE,
  [GameEventTypes.LEAVE]: NONE,
  [GameEventTypes.DEATH]: NONE,
  [GameEventTypes.DIMENSION_CHANGE]: z.object({ dimension: GAME_ID }).partial().strict(),
  [GameEventTypes.PLAYTIME]: z.object({ minutes: AT_LEAST, total: AT_LEAST }).partial().strict(),
  [GameEventTypes.KILL]: z.object({ entity: GAME_ID }).partial().strict(),
  [GameEventTypes.ADVANCEMENT]: z.object({ advancement: GAME_ID }).partial().strict(),
  [GameEventTypes.CHECK_IN_STREAK]: z.object({ streak: AT_LEAST }).partial().strict(),
  [GameEventTypes.QUEST_COMPLETED]: z
    .object({ quest: z.string().min(1).max(64) })
    .partial()
    .strict(),
  [GameEventTypes.CHAPTER_COMPLETED]: z
    .object({ chapter: z.string().min(1).max(64) })
    .partial()
    .strict(),
  [GameEventTypes.ORDER_DELIVERED]: z
    .object({ entry: z.string().min(1).max(64) })
    .partial()
    .strict(),
};

const ruleSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9_.:-]{1,64}$/, "lower case letters, digits, _ . : -"),
    trigger: z
      .object({
        event: z.string(),
        /** Typed per event (see CONDITIONS). */
        conditions: z.record(z.string(), z.unknown()).default({}),
      })
      .strict(),
    action: z.object({ workflow: z.string(), input: z.unknown().default({}) }).strict(),
    repeat: z.enum(["once", "daily", "always"]).default("once"),
    enabled: z.boolean().default(true),
  })
  .strict();
type ParsedRule = z.infer<typeof ruleSchema>;

/** A rule that passed every check: its event is known and its conditions are typed. */
export interface AdvancementRule extends Omit<ParsedRule, "trigger"> {
  readonly trigger: {
    readonly event: GameEventType;
    readonly conditions: Conditions;
  };
}

/** Whether every condition holds for this event's data. */
export const conditionsHold = (conditions: Conditions, data: GameEventData): boolean =>
  Object.entries(conditions).every(([key, wanted]) => {
    const value = data[key];
    if (wanted === undefined) return true;
    if (typeof wanted === "number") return typeof value === "number" && value >= wanted;
    return typeof value === "string" && value.toLowerCase() === wanted.toLowerCase();
  });

const fileSchema = z.object({ rules: z.array(z.unknown()).max(200).default([]) }).strict();
type AdvancementFile = z.infer<typeof fileSchema>;

/** The workflow whose rules give bonus points: they are the earning card's ways (`earningWays`). */
const POINTS_BONUS_WORKFLOW = "system:points_bonus";

/** The rules a fresh server starts with (edit or remove them in the file). */
export const DEFAULT_ADVANCEMENTS: AdvancementFile = {
  rules: [
    {
      id: "welcome",
      trigger: { event: GameEventTypes.FIRST_JOIN, conditions: {} },
      action: {
        workflow: "system:welcome",
        input: {
          items: [
            { item: "minecraft:wooden_pickaxe", count: 1 },
            { item: "minecraft:wooden_sword", count: 1 },
            { item: "minecraft:apple", count: 4 },
          ],
        },
      },
      repeat: "once",
      enabled: true,
    },
    {
      id: "streak_bonus",
      trigger: { event: GameEventTypes.CHECK_IN_STREAK, conditions: { streak: 7 } },
      action: { workflow: "system:points_bonus", input: { points: 50 } },
      repeat: "once",
      enabled: true,
    },
    {
      id: "quest_narration",
      trigger: { event: GameEventTypes.QUEST_COMPLETED, conditions: {} },
      action: { workflow: "system:quest_announce", input: {} },
      repeat: "always",
      enabled: true,
    },
    {
      id: "chapter_narration",
      trigger: { event: GameEventTypes.CHAPTER_COMPLETED, conditions: {} },
      action: { workflow: "system:quest_announce", input: {} },
      repeat: "always",
      enabled: true,
    },
  ],
};

/** What the rules need: the installed workflows, the durable event executor, the clock (daily repeats). */
export interface AdvancementRulesOptions {
  readonly configDir: string;
  readonly engine: AgentEngine;
  readonly events: EventExecutor;
  readonly clock: GameClock;
  readonly logger: Logger;
}

/**
 * `config/system/advancements.json` (AdvancementConfig of the seeds, a ConfigInstance reloaded by `/system reload`):
 * rules `{id, trigger: {event, conditions}, action: {workflow, input}, repeat, enabled}`. Each rule is checked on
 * its own: an invalid one is refused with a log line naming the rule and the field, the others apply. The event
 * rule table is both keys: a workflow's own declaration of the event type AND an enabled rule naming it. It is also
 * the game-event sink: every reported event is matched against the rules, one durable task per matching rule.
 */
export class AdvancementRules implements GameEventSink {
  readonly #file: ConfigInstance<AdvancementFile>;
  #valid: readonly AdvancementRule[] = [];

  constructor(private readonly options: AdvancementRulesOptions) {
    this.#file = new ConfigInstance({
      path: join(options.configDir, "advancements.json"),
      codec: codec(fileSchema as unknown as z.ZodType<AdvancementFile>),
      defaults: DEFAULT_ADVANCEMENTS,
      logger: options.logger,
      name: "advancements.json",
      onInvalid: "refuse",
    });
  }

  /** Reads the file again and re-checks every rule against the installed workflows. */
  async load(): Promise<boolean> {
    let read = true;
    try {
      read = await this.#file.reload();
    } catch (error) {
      this.options.logger.error(`advancements.json: ${(error as Error).message}`);
      read = false;
    }
    this.#valid = this.#check(this.#file.get().rules);
    return read;
  }

  rules(): readonly AdvancementRule[] {
    return this.#valid;
  }

  /** The enabled rules that give bonus points (`system:points_bonus`), as the earning card lists them. */
  earningWays(): EarningWay[] {
    const ways: EarningWay[] = [];
    for (const rule of this.#valid) {
      if (!rule.enabled || rule.action.workflow !== POINTS_BONUS_WORKFLOW) continue;
      const points = (rule.action.input as { points?: unknown } | null)?.points;
      if (typeof points !== "number" || points <= 0) continue;
      const conditions: Record<string, string | number> = {};
      for (const [key, value] of Object.entries(rule.trigger.conditions))
        if (value !== undefined) conditions[key] = value;
      const owner = this.options.engine.modules().get(POINTS_BONUS_WORKFLOW)?.owner;
      ways.push({
        event: rule.trigger.event,
        points,
        conditions,
        repeat: rule.repeat,
        ...(owner === undefined ? {} : { feature: owner.toString() }),
      });
    }
    return ways;
  }

  /** The event rule table: every event type a workflow declares, except game events, plus the enabled rules. */
  table(): EventRules {
    const modules = this.options.engine.modules().values();
    const table = new EventRules();
    for (const module of modules)
      if (module.event)
        for (const eventType of module.eventTypes)
          if (!GAME_EVENT_TYPES.has(eventType)) table.allow(eventType, module.id.toString());
    for (const rule of this.#valid)
      if (rule.enabled) table.allowRule(rule.id, rule.trigger.event, rule.action.workflow);
    return table;
  }

  /**
   * Queues the workflow of every enabled rule whose event and conditions match, one task per rule and repeat
   * period (`once`: per player; `daily`: per player and local day; `always`: per event). Never throws.
   */
  async emit(event: GameEvent): Promise<void> {
    const { clock, engine, events, logger } = this.options;
    for (const rule of this.#valid) {
      if (!rule.enabled || rule.trigger.event !== event.type) continue;
      if (!conditionsHold(rule.trigger.conditions, event.data)) continue;
      const module = engine.modules().get(rule.action.workflow);
      if (module === undefined) continue;
      const raw = module.eventInput
        ? { ...(rule.action.input as object), event: { type: event.type, ...event.data } }
        : rule.action.input;
      const input = module.action.codec.decode(raw);
      if (!input.success) {
        logger.warn(`advancement rule ${rule.id}: event ${event.id}: ${input.error}`);
        continue;
      }
      const id =
        rule.repeat === "once"
          ? `rule:${rule.id}/${event.playerId}`
          : rule.repeat === "daily"
            ? `rule:${rule.id}/${event.playerId}/${localDay(clock.now(), clock.timeZone)}`
            : `rule:${rule.id}/${event.id}`;
      try {
        const admission = await events.submit({
          id,
          eventType: event.type,
          rule: rule.id,
          action: module.action.action(input.value),
          playerId: event.playerId,
          ...(module.owner === undefined ? {} : { owner: module.owner.toString() }),
        });
        if (!admission.accepted && !admission.duplicate)
          logger.warn(`advancement rule ${rule.id}: ${admission.failure.code} for ${event.playerId}`);
      } catch (error) {
        logger.error(`advancement rule ${rule.id}: event ${event.id} not queued`, error);
      }
    }
  }

  #check(raw: readonly unknown[]): AdvancementRule[] {
    const valid: AdvancementRule[] = [];
    const ids = new Set<string>();
    for (const [index, entry] of raw.entries()) {
      const name = (entry as { id?: unknown })?.id;
      const label = typeof name === "string" ? name : `#${index}`;
      const refuse = (field: string, reason: string): void =>
        this.options.logger.warn(`advancement rule ${label}: ${field}: ${reason}; refused`);
      const parsed = ruleSchema.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        refuse(issue?.path.join(".") || "rule", issue?.message ?? "invalid");
        continue;
      }
      const rule = parsed.data;
      if (ids.has(rule.id)) {
        refuse("id", "used by an earlier rule");
        continue;
      }
      const event = rule.trigger.event as GameEventType;
      const conditionSchema = CONDITIONS[event];
      if (!GAME_EVENT_TYPES.has(event) || conditionSchema === undefined) {
        refuse("trigger.event", `unknown event ${rule.trigger.event}`);
        continue;
      }
      const conditions = conditionSchema.safeParse(rule.trigger.conditions);
      if (!conditions.success) {
        const issue = conditions.error.issues[0];
        const field = ["trigger", "conditions", ...(issue?.path ?? []), ...unknownKey(issue)].join(".");
        refuse(field, issue?.message ?? "invalid");
        continue;
      }
      const module = this.options.engine.modules().get(rule.action.workflow);
      if (module === undefined) {
        refuse("action.workflow", `no workflow ${rule.action.workflow}`);
        continue;
      }
      if (!module.event || !module.eventTypes.includes(event)) {
        refuse("action.workflow", `${rule.action.workflow} does not allow ${event} events`);
        continue;
      }
      const input = module.action.codec.decode(rule.action.input);
      if (!input.success) {
        refuse("action.input", input.error);
        continue;
      }
      ids.add(rule.id);
      valid.push({ ...rule, trigger: { event, conditions: conditions.data } });
    }
    return valid;
  }
}

/** The key zod names for a strict object's unrecognised key, so the log line names the field. */
const unknownKey = (issue: z.ZodIssue | undefined): string[] =>
  issue?.code === "unrecognized_keys" ? issue.keys.slice(0, 1) : [];
