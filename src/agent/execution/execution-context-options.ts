import type { Json } from "../../util/codec.js";
import type { ModelPort } from "../model/model-client.js";
import type { StepRunner } from "../storage/step-runner.js";
import type { Telemetry, TraceParent } from "../telemetry/telemetry.js";
import type { AnyTool } from "../tool/tool.js";
import type { ExecutionPolicy } from "./execution-policy.js";
import type { ModelActivity } from "./model-activity.js";
import type { Standing } from "./standing.js";
/** A model call as a workflow asks for it; the context adds timeout, signal and token caps. */
export interface ModelCall {
  readonly system: string;
  readonly user: { readonly [key: string]: Json };
  readonly maxOutputTokens?: number;
  /** Routing calls count against modelCalls but are recorded separately. */
  readonly routing?: boolean;
}

/** The tools a workflow declared: required instances and optional read-only types (by id). */
export interface DeclaredTools {
  readonly required: ReadonlyMap<string, AnyTool>;
  /** Optional tools by type id; the instance is looked up when called (absent when its feature is not installed). */
  readonly optional: ReadonlySet<string>;
  /** The installed instance for these features (the configuration the player has, when a type has several). */
  readonly lookup: (id: string, features: ReadonlySet<string>) => AnyTool | undefined;
}

export interface ExecutionContextOptions {
  readonly requestId: string;
  readonly playerId: string;
  readonly locale: string;
  readonly workflow: string;
  /** The workflow's owning feature; undefined for infrastructure workflows. */
  readonly owner: string | undefined;
  /** The features enabled for this player at admission. */
  readonly features: ReadonlySet<string>;
  readonly policy: ExecutionPolicy;
  readonly tools: DeclaredTools;
  readonly model?: ModelPort | undefined;
  readonly steps?: StepRunner | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The platform permission level of the player (0 player … 4 owner); admin workflows check it. */
  readonly permissionLevel?: number;
  /** True for durable event tasks: only tools allowed in events may run. */
  readonly event?: boolean;
  /**
   * The player's live standing, checked before and after every call and before the output: revocation,
   * forgotten memory, a feature denied, AI turned off. Without it the standing is fixed at admission.
   */
  readonly standing?: Standing | undefined;
  /** Recent turns of the player's conversation (bounded, empty when history is off); loops show it to the model. */
  readonly history?: readonly HistoryTurn[];
  /** Told of every model call of this request (router calls included). */
  readonly modelActivity?: ModelActivity | undefined;
  /** Records tool calls (and, through the engine's ports, model calls and journal steps); nothing when absent. */
  readonly telemetry?: Telemetry | undefined;
  /** The span this context's calls hang under (its workflow's, the routing's); the request itself when absent. */
  readonly trace?: TraceParent | undefined;
  readonly now?: () => number;
}

/** One projected conversation turn as prompts carry it. */
export interface HistoryTurn {
  readonly role: "user" | "assistant";
  readonly text: string;
}
