import { join } from "node:path";
import { z } from "zod";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { EventExecutor } from "../agent/execution/event-executor.js";
import { EventRules } from "../agent/execution/event-rules.js";
import { codec } from "../util/codec.js";
import { ConfigInstance } from "../util/config-instance.js";
import type { Logger } from "../util/logger.js";

/** Game events the host reports; only an admin's advancement rule lets a workflow run on one. */
export const GAME_EVENTS: ReadonlySet<string> = new Set(["system:first_join", "system:join"]);

const ruleSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9_.:-]{1,64}$/, "lower case letters, digits, _ . : -"),
    trigger: z
      .object({
        event: z.string(),
        /** Typed per event; first_join and join take none. */
        conditions: z.object({}).strict().default({}),
      })
      .strict(),
    action: z.object({ workflow: z.string(), input: z.unknown().default({}) }).strict(),
    repeat: z.enum(["once", "daily", "always"]).default("once"),
    enabled: z.boolean().default(true),
  })
  .strict();
export type AdvancementRule = z.infer<typeof ruleSchema>;

const fileSchema = z.object({ rules: z.array(z.unknown()).max(200).default([]) }).strict();
type AdvancementFile = z.infer<typeof fileSchema>;

/** The rules a fresh server starts with (edit or remove them in the file). */
export const DEFAULT_ADVANCEMENTS: AdvancementFile = {
  rules: [
    {
      id: "welcome",
      trigger: { event: "system:first_join", conditions: {} },
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
  ],
};

/** A game event: its type, the player, an id (dedupe) and its data. */
export interface GameEvent {
  readonly type: string;
  readonly playerId: string;
  readonly id: string;
  readonly day: string;
}

/**
 * `config/system/advancements.json` (AdvancementConfig of the seeds, a ConfigInstance reloaded by `/system reload`):
 * rules `{id, trigger: {event, conditions}, action: {workflow, input}, repeat, enabled}`. Each rule is checked on
 * its own: an invalid one is refused with a log line naming the rule and the field, the others apply. The event
 * rule table is both keys: a workflow's own declaration of the event type AND an enabled rule naming it.
 */
export class AdvancementRules {
  readonly #file: ConfigInstance<AdvancementFile>;
  #valid: readonly AdvancementRule[] = [];

  constructor(
    private readonly options: {
      readonly configDir: string;
      readonly engine: AgentEngine;
      readonly logger: Logger;
    },
  ) {
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

  /** The event rule table: every event type a workflow declares, except game events, plus the enabled rules. */
  table(): EventRules {
    const modules = this.options.engine.modules().values();
    const table = new EventRules();
    for (const module of modules)
      if (module.event)
        for (const eventType of module.eventTypes)
          if (!GAME_EVENTS.has(eventType)) table.allow(eventType, module.id.toString());
    for (const rule of this.#valid)
      if (rule.enabled) table.allowRule(rule.id, rule.trigger.event, rule.action.workflow);
    return table;
  }

  /** Queues the workflow of every enabled rule for this event (one task per rule and repeat period). */
  async dispatch(event: GameEvent, events: EventExecutor): Promise<void> {
    for (const rule of this.#valid) {
      if (!rule.enabled || rule.trigger.event !== event.type) continue;
      const module = this.options.engine.modules().get(rule.action.workflow);
      const input = module?.action.codec.decode(rule.action.input);
      if (module === undefined || input?.success !== true) continue;
      const id =
        rule.repeat === "once"
          ? `rule:${rule.id}/${event.playerId}`
          : rule.repeat === "daily"
            ? `rule:${rule.id}/${event.playerId}/${event.day}`
            : `rule:${rule.id}/${event.id}`;
      const admission = await events.submit({
        id,
        eventType: event.type,
        rule: rule.id,
        action: module.action.action(input.value),
        playerId: event.playerId,
        ...(module.owner === undefined ? {} : { owner: module.owner.toString() }),
      });
      if (!admission.accepted && !admission.duplicate)
        this.options.logger.warn(
          `advancement rule ${rule.id}: ${admission.failure.code} for ${event.playerId}`,
        );
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
      if (!GAME_EVENTS.has(rule.trigger.event)) {
        refuse("trigger.event", `unknown event ${rule.trigger.event}`);
        continue;
      }
      const module = this.options.engine.modules().get(rule.action.workflow);
      if (module === undefined) {
        refuse("action.workflow", `no workflow ${rule.action.workflow}`);
        continue;
      }
      if (!module.event || !module.eventTypes.includes(rule.trigger.event)) {
        refuse("action.workflow", `${rule.action.workflow} does not allow ${rule.trigger.event} events`);
        continue;
      }
      const input = module.action.codec.decode(rule.action.input);
      if (!input.success) {
        refuse("action.input", input.error);
        continue;
      }
      ids.add(rule.id);
      valid.push(rule);
    }
    return valid;
  }
}
