import { type Logger, silentLogger } from "../../util/logger.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import type { BoundedPool } from "./bounded-pool.js";
import { BudgetCounters } from "./budget-counters.js";
import type { ConversationService } from "./conversation-service.js";
import type { MemoryGenerations } from "./memory-generations.js";
import { isReplayable, type ReplayCache, type ReplayHit } from "./replay-cache.js";

/** One player request as the host hands it over; `payload` carries what the assembly parsed already. */
export interface InteractiveRequest<P = unknown> {
  readonly requestId: string;
  readonly playerId: string;
  readonly locale: string;
  /** The request text (chat, command line, or a readable form of a button action). */
  readonly text: string;
  /** Identity for dedupe; defaults to the normalised text. Structured actions pass their id and input. */
  readonly fingerprint?: string;
  /** Whether the exchange may be written to history (default true; replays and controls pass false). */
  readonly record?: boolean;
  /**
   * The identity of a structured request (a command or a button resolved to its typed action, see `replayKeyOf`)
   * for the replay cache; free text never has one. A stored result of the same key within the window is the
   * answer, and nothing runs.
   */
  readonly replayKey?: string;
  /** The request as the assembly prepared it (a parsed command, a resolved button); handed to the handler. */
  readonly payload?: P;
}

/** A request once admitted: it carries the memory generation it started under, for cache writes downstream. */
export interface AdmittedRequest<P = unknown> extends InteractiveRequest<P> {
  readonly generation: number;
}

/** Runs one admitted request: routing and the workflow, wired by the assembly. Should honour the signal. */
export type InteractiveHandler<P = unknown> = (
  request: AdmittedRequest<P>,
  signal: AbortSignal,
  counters: BudgetCounters,
  /** Settles when the player's earlier turns are in history (await it before reading history for a prompt). */
  earlierTurns: Promise<void>,
) => Promise<AgentResult>;

export interface InteractiveExecutorOptions<P = unknown> {
  readonly pool: BoundedPool;
  readonly handler: InteractiveHandler<P>;
  readonly generations: MemoryGenerations;
  readonly conversation?: ConversationService;
  /** Stored results of structured requests (`replayKey`); none when absent. */
  readonly replay?: ReplayCache;
  /**
   * How a stored answer reads when it is given again (the workflow's own view of a repeat, such as "already
   * checked in today"); the stored answer itself when absent. The executor then marks it as a replay.
   */
  readonly replayView?: (replayKey: string, stored: AgentResult) => AgentResult;
  /** UTF-8 bytes of request text accepted before anything runs (default 16 KiB). */
  readonly maxInputBytes?: number;
  /**
   * Write history after the reply instead of before it (the chat cache is a cache: its fsync need not delay the
   * player). Writes of one player stay in order; `flush()` waits for them. Default false.
   */
  readonly backgroundHistory?: boolean;
  readonly now?: () => number;
  readonly logger?: Logger;
}

/** Settles in the event loop's next check phase, after the microtasks (and the reply) of this turn. */
const afterThisTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const CANCELLED = AgentResult.error(AgentFailure.CANCELLED);

/** Background history writes one player may have pending before a reply waits for them. */
const MAX_BACKGROUND_WRITES = 4;

interface Active {
  readonly controller: AbortController;
  /** Settles when the handler has really stopped and the slot is free. */
  readonly finished: Promise<void>;
}

/** Collapses whitespace and Unicode forms so that a resent line has the same fingerprint. */
export const fingerprintOf = (text: string): string => text.normalize("NFKC").trim().replace(/\s+/gu, " ");

/**
 * Admits players' requests: input size, fingerprint dedupe, per-player exclusivity (a distinct second request
 * while one is active is refused BUSY), the bounded interactive pool, cancellation and history write-back.
 * `submit` never throws: every refusal is a failed AgentResult.
 *
 * A player reads their own writes: an identical request shares an answer only while that answer's work still
 * runs (a resent line, a double click); once it has finished, a repeat runs again and sees every write completed
 * since (a structured write's repeat is answered by the replay cache instead, and runs nothing).
 */
export class InteractiveExecutor<P = unknown> {
  readonly #options: InteractiveExecutorOptions<P>;
  readonly #active = new Map<string, Active>();
  /** Answers still being worked out, by player and fingerprint: an identical request joins them. */
  readonly #running = new Map<string, Promise<AgentResult>>();
  readonly #now: () => number;
  readonly #logger: Logger;
  readonly #writes = new Map<string, Promise<void>>();
  readonly #pending = new Map<string, number>();

  constructor(options: InteractiveExecutorOptions<P>) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
  }

  /** Whether the player has a request admitted and not yet finished. */
  isActive(playerId: string): boolean {
    return this.#active.has(playerId);
  }

  submit(request: InteractiveRequest<P>): Promise<AgentResult> {
    const bytes = Buffer.byteLength(request.text, "utf8");
    const limit = this.#options.maxInputBytes ?? 16_384;
    if (bytes > limit)
      return Promise.resolve(AgentResult.error(AgentFailure.INPUT_TOO_LARGE.with(bytes, limit)));
    const key = `${request.playerId}\u0000${request.fingerprint ?? fingerprintOf(request.text)}`;
    const shared = this.#running.get(key);
    if (shared !== undefined) return shared;
    const replay = this.#options.replay;
    if (replay === undefined || request.replayKey === undefined) return this.#admit(request, key);
    return this.#replayOrAdmit(replay, request, request.replayKey, key);
  }

  /** A stored result of the same structured request answers it; a miss (or an unreadable cache) runs it. */
  async #replayOrAdmit(
    replay: ReplayCache,
    request: InteractiveRequest<P>,
    replayKey: string,
    key: string,
  ): Promise<AgentResult> {
    const generation = this.#options.generations.generation(request.playerId);
    let stored: ReplayHit | undefined;
    try {
      stored = await replay.lookup(request.playerId, replayKey, generation);
    } catch (error) {
      this.#logger.error(`replay lookup of ${request.playerId} failed`, error);
    }
    if (stored !== undefined) return this.#replayed(replayKey, stored);
    // an identical request may have been admitted while the cache was read: share it rather than run twice
    return this.#running.get(key) ?? this.#admit(request, key);
  }

  /** A stored answer given again: in the workflow's view of a repeat, marked with how long ago it was given. */
  #replayed(replayKey: string, stored: ReplayHit): AgentResult {
    let view = stored.result;
    try {
      view = this.#options.replayView?.(replayKey, stored.result) ?? stored.result;
    } catch (error) {
      this.#logger.error(`replay view of ${replayKey} failed`, error);
    }
    return view.replayed((this.#now() - stored.at) / 1000);
  }

  #admit(request: InteractiveRequest<P>, key: string): Promise<AgentResult> {
    if (this.#active.has(request.playerId)) return Promise.resolve(AgentResult.error(AgentFailure.BUSY));
    const controller = new AbortController();
    const generation = this.#options.generations.generation(request.playerId);
    const admitted: AdmittedRequest<P> = { ...request, generation };
    let finish = (): void => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.#active.set(request.playerId, { controller, finished });
    const running = this.#run(admitted, controller);
    const cancelled = new Promise<AgentResult>((resolve) =>
      controller.signal.addEventListener("abort", () => resolve(CANCELLED), { once: true }),
    );
    // The caller hears CANCELLED at once; the player's slot is freed only when the handler has really stopped.
    const answer = Promise.race([running, cancelled]);
    this.#running.set(key, answer);
    // shared only while it runs: a later repeat must see the writes completed since (read your own writes)
    void answer.then(() => {
      if (this.#running.get(key) === answer) this.#running.delete(key);
    });
    void running.then(() => {
      if (this.#active.get(request.playerId)?.controller === controller)
        this.#active.delete(request.playerId);
      finish();
    });
    return answer;
  }

  /** Settles once the player has no admitted request any more (at once when there is none). */
  async idle(playerId: string): Promise<void> {
    for (let active = this.#active.get(playerId); active !== undefined; active = this.#active.get(playerId))
      await active.finished;
  }

  /** Cancels the player's active request; its callers get CANCELLED. Returns whether there was one. */
  cancel(playerId: string): boolean {
    const active = this.#active.get(playerId);
    if (active === undefined || active.controller.signal.aborted) return false;
    active.controller.abort(new AgentException(AgentFailure.CANCELLED));
    return true;
  }

  async #run(request: AdmittedRequest<P>, player: AbortController): Promise<AgentResult> {
    try {
      // the player's controller is the work's signal: a cancel and the pool's shutdown both abort it
      return await this.#options.pool.submit((signal) => this.#work(request, signal), player);
    } catch (error) {
      if (!(error instanceof AgentException))
        this.#logger.error(`request of ${request.playerId} failed`, error);
      return AgentResult.error(AgentException.failure(error));
    }
  }

  async #work(request: AdmittedRequest<P>, signal: AbortSignal): Promise<AgentResult> {
    if (signal.aborted) return CANCELLED;
    let result: AgentResult;
    try {
      const earlier = this.#writes.get(request.playerId) ?? Promise.resolve();
      result = await this.#options.handler(request, signal, new BudgetCounters(), earlier);
    } catch (error) {
      if (!(error instanceof AgentException))
        this.#logger.error(`request of ${request.playerId} failed`, error);
      result = AgentResult.error(AgentException.failure(error));
    }
    if (signal.aborted || result.failure?.code === AgentFailure.CANCELLED.code) return CANCELLED;
    this.#remember(request, result);
    if (request.record !== false) {
      if (this.#options.backgroundHistory !== true) await this.#writeBack(request, result);
      else {
        const pending = this.#inBackground(request.playerId, () => this.#writeBack(request, result));
        // Backpressure: a player whose writes fall behind waits for them, so the backlog stays bounded.
        if (pending > MAX_BACKGROUND_WRITES) await this.#writes.get(request.playerId);
      }
    }
    return result;
  }

  /**
   * Stores a final result of a structured request for replay. The cache sees it at once; its file write joins the
   * player's background writes (so `flush` waits for it) and never delays or fails the request.
   */
  #remember(request: AdmittedRequest<P>, result: AgentResult): void {
    const replay = this.#options.replay;
    if (replay === undefined || request.replayKey === undefined || !isReplayable(result)) return;
    let stored: Promise<boolean>;
    try {
      stored = replay.store(request.playerId, request.replayKey, request.generation, result);
    } catch (error) {
      this.#logger.error(`replay entry of ${request.playerId} not stored`, error);
      return;
    }
    this.#inBackground(request.playerId, async () => {
      await stored;
    });
  }

  /** Waits until every background history write has finished (shutdown, tests). */
  async flush(): Promise<void> {
    while (this.#writes.size > 0) await Promise.all(this.#writes.values());
  }

  /**
   * Chains a write after the player's previous one, so history keeps its order; failures are logged. Returns how
   * many writes of this player are now pending.
   */
  #inBackground(playerId: string, write: () => Promise<void>): number {
    const previous = this.#writes.get(playerId) ?? Promise.resolve();
    const pending = (this.#pending.get(playerId) ?? 0) + 1;
    this.#pending.set(playerId, pending);
    // the write starts once this turn of the event loop is over: its reads and encoding never run before the reply
    // that is still on its way to the player
    const next = previous
      .then(afterThisTurn)
      .then(write)
      .catch((error: unknown) => this.#logger.error(`history write of ${playerId} failed`, error))
      .finally(() => {
        const left = (this.#pending.get(playerId) ?? 1) - 1;
        if (left <= 0) this.#pending.delete(playerId);
        else this.#pending.set(playerId, left);
        if (this.#writes.get(playerId) === next) this.#writes.delete(playerId);
      });
    this.#writes.set(playerId, next);
    return pending;
  }

  async #writeBack(request: AdmittedRequest<P>, result: AgentResult): Promise<void> {
    const conversation = this.#options.conversation;
    if (conversation === undefined) return;
    const at = this.#now();
    await conversation.record(request.playerId, request.generation, [
      { role: "user", requestId: request.requestId, at, text: request.text },
      { role: "assistant", requestId: request.requestId, at, result },
    ]);
  }
}
