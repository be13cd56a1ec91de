import type { Json } from "../../util/codec.js";
import { AgentException } from "../agent-exception.js";
import type { BudgetCounters } from "../execution/budget-counters.js";
import { ExecutionContext, type HistoryTurn, type ModelActivity } from "../execution/execution-context.js";
import type { ExecutionPolicy } from "../execution/execution-policy.js";
import type { Failure } from "../failure.js";
import type { ModelPort } from "../model/model-client.js";
import type { AgentAction } from "../module/action-type.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { ModuleRegistry } from "../module/module-registry.js";
import { parseReplyObject } from "./reply-json.js";
import type { RoutingPlayer } from "./routing-player.js";
import type { RoutingTable } from "./routing-table.js";

/** The routing step's own limits; its one model call also counts against the chosen workflow's modelCalls. */
export const ROUTER_POLICY: ExecutionPolicy = Object.freeze({
  modelCalls: 1,
  toolCalls: 0,
  steps: 1,
  writeSteps: 0,
  inputBytes: 65_536,
  outputTokens: 512,
  totalTokens: 65_536,
  ttlMillis: 20_000,
  modelTimeoutMillis: 15_000,
  reactIterations: 0,
});

/** The reply value that asks the player to choose. */
export const CLARIFY = "clarify";

/** The most characters of the player's text the router sees (the workflow still gets the whole text). */
export const ROUTER_TEXT_CHARS = 500;
/** The most recent history turns the router sees, and the most characters of each. */
export const ROUTER_HISTORY_TURNS = 4;
export const ROUTER_HISTORY_CHARS = 200;
/** The longest example request shown with a capability. */
const EXAMPLE_CHARS = 32;
/** Marks a text the router saw cut short. */
const CUT = "…";

/** One entry of the capability catalog the model sees: its input as a compact signature, not a JSON Schema. */
export interface CatalogEntry {
  readonly capabilityId: string;
  readonly description: string;
  /** The input signature, e.g. `{query: string}` or `{field?: 'health'|'food'}`; absent when it takes none. */
  readonly input?: string;
  /** On every entry when some offered entry is explicit-only; absent (false) on all otherwise. */
  readonly explicitOnly?: boolean;
  /** One example request, in the player's language when the module has one. */
  readonly example?: string;
}

/** The bytes of one router call as the model client sends them: a system text and a user JSON object. */
export interface RouterRequest {
  readonly system: string;
  readonly user: { readonly [key: string]: Json };
}

/** What the model router concluded. `invalid` and `failed` fall back locally. */
export type ModelRoute =
  | { readonly kind: "module"; readonly module: AnyAgentModule; readonly action: AgentAction }
  | { readonly kind: "clarify" }
  | { readonly kind: "invalid"; readonly reason: string }
  | { readonly kind: "failed"; readonly failure: Failure };

export interface ModelRouterOptions {
  readonly modules: ModuleRegistry<RoutingTable>;
  readonly model: ModelPort | undefined;
  /** The router system prompt (`PromptSource.get("system:router")`), read once per call. */
  readonly system: () => string;
  readonly policy?: ExecutionPolicy;
  readonly now?: () => number;
}

export interface ModelRouteRequest {
  readonly requestId: string;
  readonly text: string;
  readonly player: RoutingPlayer;
  /** The modules this player can select now; the catalog and the decoding use exactly these. */
  readonly modules: readonly AnyAgentModule[];
  readonly counters: BudgetCounters;
  readonly signal?: AbortSignal;
  /** Recent conversation turns, shown to the model as `context` (empty when history is off). */
  readonly history?: readonly HistoryTurn[];
  /** Told of the routing call (a host shows progress while it waits long). */
  readonly modelActivity?: ModelActivity;
}

/**
 * The model step of routing: sends the catalog of modules the player can select now (never structuredOnly)
 * plus `clarify`, and decodes the reply against exactly that catalog and the chosen module's codec.
 */
export class ModelRouter {
  constructor(private readonly options: ModelRouterOptions) {}

  get configured(): boolean {
    return this.options.model !== undefined;
  }

  /** The selectable modules of a request: the given ones minus structuredOnly and non-interactive ones. */
  selectable(modules: readonly AnyAgentModule[]): AnyAgentModule[] {
    return modules.filter(
      (module) =>
        module.interactive && this.options.modules.routing(module.id).selection !== "structured_only",
    );
  }

  /**
   * The catalog of the given modules: id, description, compact input signature, explicitOnly and one short
   * example (in the player's language when there is one). It depends only on the modules and the locale, so it
   * is the same bytes on every call. `explicitOnly` is on every entry when some entry is explicit-only, and
   * left out (all false) otherwise.
   */
  catalog(modules: readonly AnyAgentModule[], locale = "en_us"): CatalogEntry[] {
    const chinese = locale.toLowerCase().startsWith("zh");
    const selectable = this.selectable(modules);
    const explicit = (module: AnyAgentModule): boolean =>
      this.options.modules.routing(module.id).selection === "explicit_only";
    const flagged = selectable.some(explicit);
    return selectable.map((module) => {
      const profile = this.options.modules.routing(module.id).profile;
      const samples =
        profile === undefined
          ? []
          : chinese
            ? [...profile.zh, ...profile.en]
            : [...profile.en, ...profile.zh];
      const example = samples.find((sample) => [...sample].length <= EXAMPLE_CHARS);
      const input = inputSignature(module.action.codec.jsonSchema());
      return {
        capabilityId: module.id.toString(),
        description: module.description,
        ...(input === "{}" ? {} : { input }),
        ...(flagged ? { explicitOnly: explicit(module) } : {}),
        ...(example === undefined ? {} : { example }),
      };
    });
  }

  /**
   * The router call as sent: the system prompt, then a user object whose static part (`capabilities`, which
   * changes only with the player's modules) comes first and whose variable part (`context`, then the capped
   * `request`) comes last, so a provider's prompt cache can reuse the prefix.
   */
  request(
    request: Pick<ModelRouteRequest, "text" | "modules" | "history"> & { readonly locale?: string },
  ): RouterRequest {
    const capabilities = [...this.catalog(request.modules, request.locale), { capabilityId: CLARIFY }];
    const history = (request.history ?? []).slice(-ROUTER_HISTORY_TURNS);
    return {
      system: this.options.system(),
      user: {
        capabilities: capabilities as unknown as Json,
        ...(history.length === 0
          ? {}
          : {
              context: {
                history: history.map((turn) => ({
                  role: turn.role,
                  text: cap(turn.text, ROUTER_HISTORY_CHARS),
                })),
              },
            }),
        request: cap(request.text, ROUTER_TEXT_CHARS),
      },
    };
  }

  async route(request: ModelRouteRequest): Promise<ModelRoute> {
    const selectable = this.selectable(request.modules);
    const context = new ExecutionContext(
      {
        requestId: request.requestId,
        playerId: request.player.playerId,
        locale: request.player.locale,
        workflow: "system:router",
        owner: undefined,
        features: request.player.features,
        policy: this.options.policy ?? ROUTER_POLICY,
        tools: { required: new Map(), optional: new Set(), lookup: () => undefined },
        model: this.options.model,
        signal: request.signal,
        modelActivity: request.modelActivity,
        ...(this.options.now === undefined ? {} : { now: this.options.now }),
      },
      {
        counters: request.counters,
        deadline: (this.options.now ?? Date.now)() + (this.options.policy ?? ROUTER_POLICY).ttlMillis,
        stepPrefix: "route/",
      },
    );
    let text: string;
    try {
      const response = await context.model({
        ...this.request({ ...request, modules: selectable, locale: request.player.locale }),
        routing: true,
      });
      text = response.text;
    } catch (error) {
      return { kind: "failed", failure: AgentException.failure(error) };
    }
    return this.decode(text, selectable, request.text);
  }

  /**
   * Decodes a reply against exactly the offered modules; anything else is invalid. When the router saw the
   * player's text cut short, an input string that copies the whole cut text gets the whole `fullText` back.
   */
  decode(text: string, offered: readonly AnyAgentModule[], fullText?: string): ModelRoute {
    const reply = parseReplyObject(text);
    if (reply === undefined) return { kind: "invalid", reason: "not a JSON object" };
    const id = reply.capabilityId;
    if (typeof id !== "string") return { kind: "invalid", reason: "no capabilityId" };
    if (id === CLARIFY) return { kind: "clarify" };
    const module = offered.find((candidate) => candidate.id.toString() === id);
    if (module === undefined)
      return { kind: "invalid", reason: `capability ${id.slice(0, 80)} was not offered` };
    const input = reply.input ?? {};
    const restored = fullText === undefined ? undefined : uncut(input, fullText);
    const whole = restored === undefined ? undefined : module.action.codec.decode(restored);
    const decoded = whole?.success === true ? whole : module.action.codec.decode(input);
    if (!decoded.success) return { kind: "invalid", reason: `input: ${decoded.error}` };
    return { kind: "module", module, action: module.action.action(decoded.value) };
  }
}

/** The first `limit` characters (code points) of a text, marked with `…` when cut. */
const cap = (text: string, limit: number): string => {
  const chars = [...text];
  return chars.length <= limit ? text : `${chars.slice(0, limit).join("")}${CUT}`;
};

/** The input with every top-level string that copies the cut request text replaced by the whole text. */
const uncut = (input: unknown, fullText: string): Record<string, unknown> | undefined => {
  const sent = cap(fullText, ROUTER_TEXT_CHARS);
  if (sent === fullText || !isRecord(input)) return undefined;
  const head = sent.slice(0, -CUT.length).trim();
  let changed = false;
  const restored = Object.fromEntries(
    Object.entries(input).map(([key, value]) => {
      if (typeof value !== "string" || value.trim().replace(/…$/u, "").trim() !== head) return [key, value];
      changed = true;
      return [key, fullText];
    }),
  );
  return changed ? restored : undefined;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/u;
const SIGNATURE_DEPTH = 4;

/**
 * A compact TypeScript-like signature of a JSON Schema: property names, types, enums and `?` for optional
 * (not required, or with a default), e.g. `{query: string, page?: integer}` or `{field?: 'health'|'food'}`.
 * Anything it cannot read is `any`; nesting deeper than a few levels is `object`.
 */
export const inputSignature = (schema: unknown, depth = 0): string => {
  if (!isRecord(schema)) return schema === false ? "never" : "any";
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives))
    return union(alternatives.map((alternative) => inputSignature(alternative, depth + 1)));
  if (Array.isArray(schema.allOf))
    return schema.allOf.map((part) => inputSignature(part, depth + 1)).join(" & ") || "any";
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return union(
    types.map((type) => {
      if (type === "object" || (type === undefined && isRecord(schema.properties)))
        return objectSignature(schema, depth);
      if (type === "array") {
        const item = inputSignature(schema.items, depth + 1);
        return `${item.includes("|") || item.includes("&") ? `(${item})` : item}[]`;
      }
      return typeof type === "string" ? type : "any";
    }),
  );
};

const objectSignature = (schema: Record<string, unknown>, depth: number): string => {
  if (depth >= SIGNATURE_DEPTH) return "object";
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = Object.entries(properties).map(([name, property]) => {
    const optional = !required.has(name) || (isRecord(property) && "default" in property);
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `${key}${optional ? "?" : ""}: ${inputSignature(property, depth + 1)}`;
  });
  const extra = schema.additionalProperties;
  if (isRecord(extra)) fields.push(`[key: string]: ${inputSignature(extra, depth + 1)}`);
  return `{${fields.join(", ")}}`;
};

/** A literal as TypeScript writes it: strings in single quotes (cheaper than escaped double quotes in JSON). */
const literal = (value: unknown): string =>
  typeof value === "string"
    ? `'${value.replace(/[\\']/gu, (char) => `\\${char}`)}'`
    : (JSON.stringify(value) ?? "any");

const union = (parts: readonly string[]): string => [...new Set(parts)].join("|") || "any";
