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
import type { TraceParent } from "../telemetry/telemetry.js";
import { parseReplyObject } from "./reply-json.js";
import {
  briefOf,
  type CatalogEntry,
  catalogBudget,
  catalogLines,
  compactSignature,
  fullCapabilityId,
} from "./router-catalog.js";
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
/** Marks a text the router saw cut short. */
const CUT = "…";

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
  /** The span routing runs inside: the routing call hangs under it. */
  readonly trace?: TraceParent;
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
   * The catalog of the given modules the player may select: full id, the description's first clause, the input
   * signature and, when set, explicitOnly. It depends only on the modules, so it is the same bytes on every call.
   */
  catalog(modules: readonly AnyAgentModule[]): CatalogEntry[] {
    return this.selectable(modules).map((module) => {
      const input = compactSignature(module.action.codec.jsonSchema());
      const explicit = this.options.modules.routing(module.id).selection === "explicit_only";
      return {
        capabilityId: module.id.toString(),
        description: briefOf(module.description),
        ...(input === undefined ? {} : { input }),
        ...(explicit ? { explicitOnly: true } : {}),
      };
    });
  }

  /**
   * The router call as sent: the system prompt, then a user object whose static part (`capabilities`: one short
   * line per capability within CATALOG_BYTES, `clarify` last) comes first and whose variable part (`context`, then
   * the capped `request`) comes last, so a provider's prompt cache can reuse the prefix.
   */
  request(
    request: Pick<ModelRouteRequest, "text" | "modules" | "history"> & { readonly locale?: string },
  ): RouterRequest {
    const system = this.options.system();
    const budget = catalogBudget(Buffer.byteLength(system, "utf8"));
    const capabilities = [...catalogLines(this.catalog(request.modules), budget), CLARIFY];
    const history = (request.history ?? []).slice(-ROUTER_HISTORY_TURNS);
    return {
      system,
      user: {
        capabilities,
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
        ...(request.trace === undefined ? {} : { trace: request.trace }),
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
    const named = reply.capabilityId;
    if (typeof named !== "string") return { kind: "invalid", reason: "no capabilityId" };
    if (named === CLARIFY) return { kind: "clarify" };
    // the catalog shows ids without the default namespace; either form names the capability
    const id = fullCapabilityId(named.replace(/^!/u, ""));
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
