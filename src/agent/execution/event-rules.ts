import type { AnyAgentModule } from "../module/agent-module.js";

/** One authorization: workflow `module` may run for events of `eventType`. */
export interface EventRule {
  readonly eventType: string;
  readonly module: string;
}

/**
 * The server's rule table for durable events: which workflow may run which event type. An event is
 * authorized only when a rule names the pair AND the workflow itself declares the event type as an event
 * module, so neither an admin rule nor a module declaration alone can open a path.
 */
export class EventRules {
  readonly #rules = new Map<string, Set<string>>();
  /** Rule id → the event type and workflow it names (admin rules; a task started by one re-checks it). */
  readonly #named = new Map<string, { readonly eventType: string; readonly module: string }>();

  constructor(rules: Iterable<EventRule> = []) {
    for (const rule of rules) this.allow(rule.eventType, rule.module);
  }

  /** A table allowing every event type each module declares (for servers without their own rules). */
  static fromModules(modules: Iterable<AnyAgentModule>): EventRules {
    const rules = new EventRules();
    for (const module of modules)
      if (module.event)
        for (const eventType of module.eventTypes) rules.allow(eventType, module.id.toString());
    return rules;
  }

  /**
   * An admin rule: it lets `module` run events of `eventType` for tasks that name this rule, and only those (a task
   * without a rule is authorised by `allow` alone, so a rule never opens the rule-less path).
   */
  allowRule(rule: string, eventType: string, module: string): void {
    this.#named.set(rule, { eventType, module });
  }

  allow(eventType: string, module: string): void {
    const modules = this.#rules.get(eventType) ?? new Set<string>();
    modules.add(module);
    this.#rules.set(eventType, modules);
  }

  /**
   * Whether the rule table names the pair (the module's own declaration is checked too): both keys. A task started by
   * an admin rule needs that rule still to name the pair (switched off or removed: no longer permitted).
   */
  permits(eventType: string, module: AnyAgentModule, rule?: string): boolean {
    if (!module.event || !module.eventTypes.includes(eventType)) return false;
    if (rule !== undefined) {
      const named = this.#named.get(rule);
      return named?.eventType === eventType && named.module === module.id.toString();
    }
    return this.#rules.get(eventType)?.has(module.id.toString()) === true;
  }

  /** Whether any rule still lets this workflow run events of a type it declares (checked again on resume). */
  permitsAny(module: AnyAgentModule): boolean {
    return module.eventTypes.some((eventType) => this.permits(eventType, module));
  }
}
