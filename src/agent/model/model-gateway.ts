import type { Logger } from "../../util/logger.js";
import { silentLogger } from "../../util/logger.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { Failure } from "../failure.js";
import {
  type DailyUsage,
  localDay,
  MemoryUsageStore,
  type UsageQuery,
  type UsageRecord,
  type UsageStore,
} from "../storage/usage-store.js";
import type { ModelCallMeta, ModelClient, ModelPort, ModelRequest, ModelResponse } from "./model-client.js";
import { ModelSemaphore } from "./model-semaphore.js";

/** A player's daily model allowance; 0 in a field means no limit on that field. */
export interface DailyQuota {
  readonly calls: number;
  readonly tokens: number;
}

export interface ModelGatewayOptions {
  /** The protocol client; undefined when no model is configured (every call is MODEL_UNAVAILABLE). */
  readonly client: ModelClient | undefined;
  /** Model calls in flight across the whole server. */
  readonly concurrency: number;
  /** Default daily calls per player (0 = unlimited). */
  readonly dailyCalls: number;
  /** Default daily tokens (input + output) per player (0 = unlimited). */
  readonly dailyTokens: number;
  /** Persists usage and daily counters; defaults to memory only. */
  readonly store: UsageStore;
  /** A per-player allowance (admin AI permissions); defaults to dailyCalls/dailyTokens. */
  readonly quotaFor?: (playerId: string) => DailyQuota;
  readonly now?: () => number;
  readonly logger?: Logger;
}

/**
 * The only way to a model (ModelPort). Applies the per-player daily quota (reset at the server's local
 * midnight, persisted through the UsageStore), the server-wide concurrency limit (waiting within the request's
 * deadline, else BUSY), records usage per player, day and workflow, and never retries.
 */
export class ModelGateway implements ModelPort {
  #options: ModelGatewayOptions;
  readonly #semaphore: ModelSemaphore;
  readonly #now: () => number;
  readonly #usageListeners: ((playerId: string) => void)[] = [];

  constructor(options: Partial<ModelGatewayOptions> & Pick<ModelGatewayOptions, "client">) {
    this.#options = {
      concurrency: 4,
      dailyCalls: 0,
      dailyTokens: 0,
      store: new MemoryUsageStore(),
      ...options,
    };
    this.#now = options.now ?? Date.now;
    this.#semaphore = new ModelSemaphore(this.#options.concurrency);
  }

  /** Applies reloaded settings; calls already running keep what they started with. */
  reconfigure(
    options: Partial<Pick<ModelGatewayOptions, "client" | "concurrency" | "dailyCalls" | "dailyTokens">>,
  ): void {
    this.#options = { ...this.#options, ...options };
    this.#semaphore.resize(this.#options.concurrency);
  }

  /** Whether a model client is configured. */
  get available(): boolean {
    return this.#options.client !== undefined;
  }

  async call(request: ModelRequest, meta: ModelCallMeta): Promise<ModelResponse> {
    const client = this.#options.client;
    if (client === undefined) throw new AgentException(AgentFailure.modelNotConfigured());
    if (request.signal.aborted) throw new AgentException(AgentFailure.CANCELLED);
    if (meta.deadline - this.#now() <= 0) throw new AgentException(AgentFailure.TIMEOUT);
    const day = localDay(this.#now());
    // reserved before the call (atomic in the store, across servers sharing it); refunded if it never starts
    const refused = await this.#options.store.reserve({
      playerId: meta.playerId,
      day,
      ...this.#quota(meta.playerId),
    });
    if (refused !== undefined) throw new AgentException(AgentFailure.QUOTA_EXCEEDED.with(refused));
    let reached = false;
    let response: ModelResponse | undefined;
    let started = 0;
    try {
      const release = await this.#semaphore.acquire(meta.deadline - this.#now(), request.signal);
      try {
        const timeoutMillis = Math.min(request.timeoutMillis, meta.deadline - this.#now());
        // The slot came just as the deadline passed: the wait for concurrency used it up.
        if (timeoutMillis <= 0) throw new AgentException(AgentFailure.BUSY);
        started = this.#now();
        reached = true;
        response = await client.complete({ ...request, timeoutMillis });
        return response;
      } finally {
        release();
      }
    } catch (error) {
      throw AgentException.wrap(error);
    } finally {
      if (reached) await this.#record(meta, day, started, response);
      else
        await this.#options.store
          .refund(meta.playerId, day)
          .catch((error: unknown) =>
            (this.#options.logger ?? silentLogger).error("model quota could not be refunded", error),
          );
    }
  }

  /** Today's usage of a player (for quota displays). */
  today(playerId: string): DailyUsage {
    return this.#options.store.daily(playerId, localDay(this.#now()));
  }

  /** Usage records for the admin `usage` command. */
  usage(query?: UsageQuery): UsageRecord[] {
    return this.#options.store.query(query);
  }

  /** QUOTA_EXCEEDED while the player's daily allowance is used up (until the server's local midnight). */
  quotaRefusal(playerId: string): Failure | undefined {
    return this.#quotaRefusal(playerId, localDay(this.#now()));
  }

  /** Listens for model usage recorded for a player (a call that may have used up their quota). */
  onUsage(listener: (playerId: string) => void): void {
    this.#usageListeners.push(listener);
  }

  #quota(playerId: string): DailyQuota {
    return (
      this.#options.quotaFor?.(playerId) ?? {
        calls: this.#options.dailyCalls,
        tokens: this.#options.dailyTokens,
      }
    );
  }

  #quotaRefusal(playerId: string, day: string): Failure | undefined {
    const quota = this.#quota(playerId);
    const used = this.#options.store.daily(playerId, day);
    if (quota.calls > 0 && used.calls >= quota.calls) return AgentFailure.QUOTA_EXCEEDED.with("calls");
    if (quota.tokens > 0 && used.tokens >= quota.tokens) return AgentFailure.QUOTA_EXCEEDED.with("tokens");
    return undefined;
  }

  async #record(
    meta: ModelCallMeta,
    day: string,
    started: number,
    response: ModelResponse | undefined,
  ): Promise<void> {
    try {
      await this.#options.store.add({
        playerId: meta.playerId,
        day,
        workflow: meta.workflow,
        failed: response === undefined,
        inputTokens: response?.usage.inputTokens ?? 0,
        outputTokens: response?.usage.outputTokens ?? 0,
        latencyMillis: Math.max(0, this.#now() - started),
      });
    } catch (error) {
      (this.#options.logger ?? silentLogger).error("model usage could not be saved", error);
    }
    for (const listener of this.#usageListeners)
      try {
        listener(meta.playerId);
      } catch (error) {
        (this.#options.logger ?? silentLogger).error("a model usage listener failed", error);
      }
  }
}
