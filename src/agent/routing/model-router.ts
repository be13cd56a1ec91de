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

/** One entry of the capability catalog the model sees. */
export interface CatalogEntry {
  readonly capabilityId: string;
  readonly description: string;
  readonly input: Record<string, unknown>;
  readonly explicitOnly: boolean;
  readonly examples?: readonly string[];
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

  catalog(modules: readonly AnyAgentModule[]): CatalogEntry[] {
    return this.selectable(modules).map((module) => {
      const routing = this.options.modules.routing(module.id);
      const examples = routing.profile?.samples().slice(0, 4);
      return {
        capabilityId: module.id.toString(),
        description: module.description,
        input: module.action.codec.jsonSchema(),
        explicitOnly: routing.selection === "explicit_only",
        ...(examples === undefined || examples.length === 0 ? {} : { examples }),
      };
    });
  }

  async route(request: ModelRouteRequest): Promise<ModelRoute> {
    const selectable = this.selectable(request.modules);
    const catalog = this.catalog(selectable);
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
    const history = request.history ?? [];
    let text: string;
    try {
      const capabilities = [...catalog, { capabilityId: CLARIFY, description: "Ask the player to choose." }];
      const response = await context.model({
        system: this.options.system(),
        user: {
          request: request.text,
          capabilities: capabilities as unknown as Json,
          ...(history.length === 0
            ? {}
            : { context: { history: history.map((turn) => ({ role: turn.role, text: turn.text })) } }),
        },
        routing: true,
      });
      text = response.text;
    } catch (error) {
      return { kind: "failed", failure: AgentException.failure(error) };
    }
    return this.decode(text, selectable);
  }

  /** Decodes a reply against exactly the offered modules; anything else is invalid. */
  decode(text: string, offered: readonly AnyAgentModule[]): ModelRoute {
    const reply = parseReplyObject(text);
    if (reply === undefined) return { kind: "invalid", reason: "not a JSON object" };
    const id = reply.capabilityId;
    if (typeof id !== "string") return { kind: "invalid", reason: "no capabilityId" };
    if (id === CLARIFY) return { kind: "clarify" };
    const module = offered.find((candidate) => candidate.id.toString() === id);
    if (module === undefined)
      return { kind: "invalid", reason: `capability ${id.slice(0, 80)} was not offered` };
    const decoded = module.action.codec.decode(reply.input ?? {});
    if (!decoded.success) return { kind: "invalid", reason: `input: ${decoded.error}` };
    return { kind: "module", module, action: module.action.action(decoded.value) };
  }
}
