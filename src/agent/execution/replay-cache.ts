import { createHash } from "node:crypto";
import type { Json } from "../../util/codec.js";
import { AgentFailure } from "../agent-failure.js";
import { type AgentResult, Status } from "../agent-result.js";
import type { AgentAction } from "../module/action-type.js";

/**
 * The request replay cache (请求回放缓存): the stored results of a player's structured requests, so that a repeat
 * within the window (a resent command, a second click on a confirm button, a retry after a restart) is answered
 * with the stored result and runs nothing again. It is a cache: every failure reads as a miss, and a write that
 * cannot be made is logged, never thrown.
 */
/** A stored result and when it was stored (epoch milliseconds). */
export interface ReplayHit {
  readonly result: AgentResult;
  readonly at: number;
}

export interface ReplayCache {
  /** The stored result of `key` for the player within the window, under the given memory generation. */
  lookup(playerId: string, key: string, generation: number): Promise<ReplayHit | undefined>;
  /**
   * Stores a result. What it keeps is visible to `lookup` at once (before the returned promise settles), so a
   * repeat arriving while the file write waits still replays. Resolves with whether the entry was written.
   */
  store(playerId: string, key: string, generation: number, result: AgentResult): Promise<boolean>;
}

/** Deliberate failures that a repeat of the same request would only meet again. */
const FINAL_FAILURES: ReadonlySet<string> = new Set(
  [AgentFailure.NOT_FOUND, AgentFailure.ALREADY_DONE].map((failure) => failure.code),
);

/**
 * Whether a result may be replayed: a full success, or a deliberate failure (NOT_FOUND, ALREADY_DONE). Never a
 * partial success, a refusal that may lift (BUSY, quota, permission) or anything transient (CANCELLED, TIMEOUT,
 * MODEL_*, EFFECT_UNKNOWN, STORAGE_FULL): a repeat of those must really run again.
 */
export const isReplayable = (result: AgentResult): boolean => {
  if (result.status === Status.SUCCEEDED) return result.failure === undefined;
  return (
    result.status === Status.FAILED && result.failure !== undefined && FINAL_FAILURES.has(result.failure.code)
  );
};

/** JSON with object keys sorted at every level, so equal inputs encode to equal text. */
export const canonicalJson = (value: Json): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`).join(",")}}`;
};

/**
 * The identity of a structured request: the action type id and a digest of its input encoded by the action's own
 * codec (keys sorted). A command and a button that resolve to the same typed action are the same request,
 * whatever page or spelling they came from; a different input (another quote id, another amount) is another one.
 */
export const replayKeyOf = (action: AgentAction): string => {
  const input = canonicalJson(action.type.codec.encode(action.input));
  const digest = createHash("sha256").update(input, "utf8").digest("base64url").slice(0, 32);
  return `${action.type.id.toString()}#${digest}`;
};

/** The action type id a replay key names (`replayKeyOf`): the workflow whose answer it stores. */
export const actionIdOfReplayKey = (key: string): string => key.slice(0, Math.max(0, key.lastIndexOf("#")));
