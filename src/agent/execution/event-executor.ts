import type { Json } from "../../util/codec.js";
import { type Logger, silentLogger } from "../../util/logger.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import type { Failure } from "../failure.js";
import type { AgentJournal, EventTask } from "../storage/agent-journal.js";
import { JournalStepRunner, UnrecordedSteps } from "../storage/journal-step-runner.js";
import { isUnfinished, State } from "../storage/state.js";
import { runClaimed } from "./claimed-run.js";
import { EventDeferrals } from "./event-deferrals.js";
import {
  type EventAdmission,
  type EventExecutorOptions,
  type EventSubmission,
  RETRY_MILLIS,
  TERMINAL,
} from "./event-executor-options.js";
import { EXECUTION_POLICY_CODEC } from "./execution-policy.js";
import {
  type EventTaskSummary,
  eventSummary,
  redeliveryId,
  redeliveryOf,
  type UnconfirmedEvent,
  type UnconfirmedEvents,
  unconfirmedEvent,
} from "./unconfirmed-events.js";

export type { EventAdmission, EventExecutorOptions, EventSubmission } from "./event-executor-options.js";

/** The request id of an event's runs; stable across resumes so write-step keys find their receipts. */
export const eventRequestId = (eventId: string): string => `event:${eventId}`;

/**
 * Runs durable event tasks: QUEUED → RUNNING → SUCCEEDED | FAILED | PARTIALLY_SUCCEEDED, WAITING while the
 * player is offline. Refuses events no rule authorizes, stores each event id once, runs one task per player at
 * a time in arrival order, and at start resumes unfinished tasks with their persisted policy. A task whose
 * workflow ends with EFFECT_UNKNOWN (an interrupted write step) is held UNCONFIRMED for an admin to resolve.
 */
export class EventExecutor implements UnconfirmedEvents {
  readonly #options: EventExecutorOptions;
  readonly #logger: Logger;
  /** Per player, tasks waiting for a pool slot or the player's previous task, in arrival order. */
  readonly #queues = new Map<string, EventTask[]>();
  /** Ids of tasks in #queues. */
  readonly #pending = new Set<string>();
  readonly #busyPlayers = new Set<string>();
  /** Ids of tasks handed to the pool and not yet finished. */
  readonly #active = new Set<string>();
  readonly #running = new Set<Promise<void>>();
  /** Ids of running tasks that began to wait for their player: told (`onAway`) once their claim is released. */
  readonly #away = new Set<string>();
  readonly #idle: (() => void)[] = [];
  readonly #deferrals: EventDeferrals;
  /** Step outcomes a run could not record (the shared journal was unreachable), for its retries here. */
  readonly #unrecorded = new UnrecordedSteps();

  constructor(options: EventExecutorOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#deferrals = new EventDeferrals(options, this.#logger);
  }

  /** Resumes every QUEUED, RUNNING and WAITING task of the journal (call once the engine has started). */
  async start(): Promise<void> {
    for (const entry of this.#options.journal.unreadable())
      if (entry.table === "events")
        this.#logger.warn(
          `event task ${entry.key} is unreadable (${entry.reason}); it is kept and never run`,
        );
    // Scheduled together, so that the journal can group their WAITING writes into few commits.
    await Promise.all(this.#options.journal.unfinishedEvents().map((task) => this.#schedule(task)));
  }

  /** Authorizes and durably queues an event, then schedules it. Never throws. */
  async submit(event: EventSubmission): Promise<EventAdmission> {
    const refused = (failure: Failure): EventAdmission => ({ accepted: false, duplicate: false, failure });
    const registry = this.#options.engine.modules();
    const module =
      event.owner === undefined
        ? registry.forAction(event.action.type)
        : registry
            .variants(event.action.type.id)
            .find((variant) => variant.owner?.toString() === event.owner);
    if (module === undefined || module.action !== event.action.type)
      return refused(AgentFailure.MODULE_DISABLED.with(event.action.type.toString()));
    if (!this.#options.rules().permits(event.eventType, module, event.rule))
      return refused(AgentFailure.PERMISSION_DENIED.with(event.eventType, module.id.toString()));
    const decoded = module.action.codec.decode(event.action.input);
    if (!decoded.success) return refused(AgentFailure.INPUT_INVALID.with(decoded.error));
    const policy = EXECUTION_POLICY_CODEC.encode(this.#options.engine.policyOf(module));
    try {
      const put = await this.#options.journal.putEvent({
        id: event.id,
        type: module.id.toString(),
        input: module.action.codec.encode(decoded.value),
        playerId: event.playerId,
        ...(module.owner === undefined ? {} : { owner: module.owner.toString() }),
        eventType: event.eventType,
        ...(event.rule === undefined ? {} : { rule: event.rule }),
        policy,
        state: State.QUEUED,
        attempts: 0,
      });
      if (!put.created) return { accepted: false, duplicate: true, existing: put.existing };
      await this.#schedule(put.task);
      return { accepted: true, task: put.task };
    } catch (error) {
      // the journal unwritable (the network's database down): the player is told to try again later
      if (this.#options.engine.isStorageUnavailable(error)) return refused(AgentFailure.STORAGE_UNAVAILABLE);
      if (!(error instanceof AgentException)) this.#logger.error(`event ${event.id} not queued`, error);
      return refused(AgentException.failure(error));
    }
  }

  /** Features came back (switched on, granted, reloaded): WAITING tasks of online players try again. */
  async resumeWaiting(): Promise<void> {
    for (const task of this.#options.journal.unfinishedEvents())
      if (task.state === State.WAITING && this.#options.isOnline(task.playerId)) await this.#schedule(task);
  }

  /** The player joined: their WAITING tasks resume. */
  async playerJoined(playerId: string): Promise<void> {
    this.#deferrals.forget(playerId);
    await this.#options.journal
      .refreshPlayer?.(playerId)
      .catch((error: unknown) => this.#logger.error(`events of ${playerId}: not read again`, error));
    // in a network, a queued or running task here may be another server's that stopped: its claim decides
    const shared = this.#options.claims !== undefined;
    for (const task of this.#options.journal.unfinishedEvents())
      if (task.playerId === playerId && (shared || task.state === State.WAITING)) await this.#schedule(task);
  }

  unconfirmed(): UnconfirmedEvent[] {
    return this.#options.journal.unconfirmedEvents().map(unconfirmedEvent);
  }

  recent(limit: number, playerId?: string): EventTaskSummary[] {
    return this.#options.journal.recentEvents(limit, playerId).map(eventSummary);
  }

  async redeliver(id: string): Promise<string> {
    const journal = this.#options.journal;
    const failed = journal.event(id);
    // (an unconfirmed task an admin resolved by redelivery is FAILED too: it is not run again)
    if (failed?.state === State.FAILED && journal.event(redeliveryId(id)) === undefined) {
      // run again in place: its DONE steps replay (never given twice), steps refused without effect run again
      const queued = await journal.updateEvent(id, { state: State.QUEUED, attempts: 0 });
      this.#logger.info(`event ${id}: failed task run again by an admin`);
      await this.#schedule(queued);
      return id;
    }
    const task = this.#unconfirmedTask(id);
    const put = await journal.putEvent(redeliveryOf(task));
    // Queued before the original is resolved: a crash in between leaves it listed, and redelivering it again
    // finds this task instead of creating a second one.
    await journal.updateEvent(id, { state: State.FAILED });
    this.#logger.info(`event ${id}: unconfirmed effect redelivered as ${redeliveryId(id)}`);
    const queued = put.created ? put.task : put.existing;
    if (queued !== undefined && isUnfinished(queued.state)) await this.#schedule(queued);
    return redeliveryId(id);
  }

  async markDone(id: string): Promise<void> {
    const task = this.#unconfirmedTask(id);
    // the workflow settles its own records first: a crash before the journal write leaves the task listed
    const module = this.#moduleOf(task);
    const input = module?.action.codec.decode(task.input);
    if (module?.effectConfirmed !== undefined && input?.success === true)
      await module.effectConfirmed(input.value, task.playerId);
    await this.#options.journal.updateEvent(id, { state: State.SUCCEEDED });
    this.#logger.info(`event ${id}: unconfirmed effect marked done`);
  }

  #unconfirmedTask(id: string): EventTask {
    const task = this.#options.journal.event(id);
    if (task?.state !== State.UNCONFIRMED) throw new AgentException(AgentFailure.NOT_FOUND.with(id));
    return task;
  }

  /** The workflow variant that runs a task: its owner's, when recorded. */
  #moduleOf(task: EventTask) {
    const registry = this.#options.engine.modules();
    return task.owner === undefined
      ? registry.get(task.type)
      : registry.variants(task.type).find((variant) => variant.owner?.toString() === task.owner);
  }

  /** Settles when no task is pending or running (tests, orderly shutdown). */
  whenIdle(): Promise<void> {
    if (this.#idleNow()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Nothing runs and nothing can start (a closed pool starts nothing; the journal keeps those tasks). */
  #idleNow(): boolean {
    return this.#running.size === 0 && (this.#pending.size === 0 || this.#options.pool.closed);
  }

  async #schedule(task: EventTask): Promise<void> {
    if (this.#pending.has(task.id) || this.#active.has(task.id)) return;
    if (!this.#options.isOnline(task.playerId)) {
      if (await this.#wait(task)) this.#options.onAway?.(task.playerId);
      return;
    }
    this.#pending.add(task.id);
    const queue = this.#queues.get(task.playerId);
    if (queue === undefined) this.#queues.set(task.playerId, [task]);
    else queue.push(task);
    this.#pump();
  }

  /** Records the task WAITING; whether it began to wait now. */
  async #wait(task: EventTask, journal = this.#options.journal): Promise<boolean> {
    if (task.state === State.WAITING) return false;
    return (await this.#update(task.id, { state: State.WAITING }, journal)) !== undefined;
  }

  /** Starts the next task of each player with none running, while the pool has room. */
  #pump(): void {
    const pool = this.#options.pool;
    for (const [playerId, queue] of this.#queues) {
      if (this.#busyPlayers.has(playerId)) continue;
      if (pool.closed || pool.running + pool.queued >= pool.limits.running + pool.limits.queued) break;
      const task = queue.shift();
      if (queue.length === 0) this.#queues.delete(playerId);
      if (task === undefined) continue;
      this.#pending.delete(task.id);
      this.#start(task);
    }
  }

  #start(task: EventTask): void {
    this.#busyPlayers.add(task.playerId);
    this.#active.add(task.id);
    const run = this.#options.pool
      .submit((signal) => this.#run(task, signal))
      .then((unsettled) => {
        // alone on its journal (files), a task that stopped short waits for the player's next join or start
        if (unsettled && this.#options.claims !== undefined) this.#retryLater(task);
      })
      .catch((error: unknown) => {
        // Refused by the pool (shutdown): the task stays durable and resumes at the next start.
        this.#logger.info(`event ${task.id} not started: ${AgentException.failure(error).code}`);
      })
      .finally(() => {
        if (this.#away.delete(task.id)) this.#options.onAway?.(task.playerId);
        this.#busyPlayers.delete(task.playerId);
        this.#active.delete(task.id);
        this.#running.delete(run);
        this.#pump();
        if (this.#idleNow()) for (const wake of this.#idle.splice(0)) wake();
      });
    this.#running.add(run);
  }

  /** Runs a task; true when it neither ended nor stopped for a reason that resumes it by itself (offer it again). */
  async #run(task: EventTask, signal: AbortSignal): Promise<boolean> {
    const claims = this.#options.claims;
    if (claims === undefined) return this.#runWith(task, signal, this.#options.journal, undefined);
    let unsettled = true;
    await runClaimed(claims, eventRequestId(task.id), [task.id], this.#logger, async (claim) => {
      unsettled = await this.#runWith(
        task,
        AbortSignal.any([signal, claim.signal]),
        claim.journal,
        new JournalStepRunner(claim.journal, this.#unrecorded),
      );
    });
    return unsettled && !signal.aborted;
  }

  /**
   * Offers a task again after a while, if it is still unfinished here (WAITING, when `waiting`) and its player
   * online (a join offers it anyway). Its claim held by a server that died expires meanwhile; a journal that was
   * unreachable is back; an effect that had to wait may be taken now.
   */
  #retryLater(task: EventTask): void {
    this.#offerLater(task, this.#options.retryMillis ?? this.#options.claims?.retryMillis ?? RETRY_MILLIS);
  }

  #offerLater(task: EventTask, wait: number, waiting = false): void {
    const timer = setTimeout(() => {
      if (this.#options.pool.closed || !this.#options.isOnline(task.playerId)) return;
      const current = this.#options.journal.event(task.id) ?? task;
      if (!isUnfinished(current.state) || (waiting && current.state !== State.WAITING)) return;
      this.#schedule(current).catch((error: unknown) =>
        this.#logger.error(`event ${task.id}: not offered again`, error),
      );
    }, wait);
    timer.unref();
  }

  /** Runs a task with `journal` (the claim's, in a network) recording its state and, via `steps`, its write steps. */
  async #runWith(
    task: EventTask,
    signal: AbortSignal,
    journal: AgentJournal,
    steps: JournalStepRunner | undefined,
  ): Promise<boolean> {
    const current = journal.event(task.id) ?? task;
    if (current.state !== State.QUEUED && current.state !== State.RUNNING && current.state !== State.WAITING)
      return false;
    if (!this.#options.isOnline(task.playerId)) {
      if (await this.#wait(current, journal)) this.#away.add(task.id);
      return false;
    }
    const module = this.#moduleOf(task);
    const policy = EXECUTION_POLICY_CODEC.decode(task.policy);
    const rules = this.#options.rules();
    const permitted =
      module !== undefined &&
      (task.eventType === undefined
        ? rules.permitsAny(module)
        : rules.permits(task.eventType, module, task.rule));
    if (module === undefined || !permitted)
      return this.#finish(task, AgentResult.error(AgentFailure.PERMISSION_DENIED.with(task.type)), journal);
    if (!policy.success)
      return this.#finish(task, AgentResult.error(AgentFailure.INPUT_INVALID.with(policy.error)), journal);
    // Its feature is off for this player now (switched off for the server, or the grant taken back): the task
    // keeps its place, WAITING, and runs once the feature is back (on join, or `resumeWaiting`).
    if (module.owner !== undefined && !this.#options.features(task.playerId).has(module.owner.toString()))
      return this.#wait(current, journal).then(() => false);
    const input = module.action.codec.decode(task.input);
    if (!input.success)
      return this.#finish(task, AgentResult.error(AgentFailure.INPUT_INVALID.with(input.error)), journal);
    // Nothing runs unless RUNNING is durable: otherwise the next start could not tell it was tried.
    const running = { state: State.RUNNING, attempts: current.attempts + 1 };
    if ((await this.#update(task.id, running, journal)) === undefined) return true;
    const standing = this.#options.standing;
    const result = await this.#options.engine.execute(module.action.action(input.value), {
      requestId: eventRequestId(task.id),
      playerId: task.playerId,
      locale: this.#options.locale?.(task.playerId) ?? "en_us",
      features: this.#options.features(task.playerId),
      signal,
      event: true,
      policy: policy.value,
      ...(task.owner === undefined ? {} : { owner: task.owner }),
      ...(standing === undefined ? {} : { standing: standing(task.playerId) }),
      ...(steps === undefined ? {} : { steps }),
    });
    // Stopped by shutdown (or its claim was lost): leave it RUNNING so it resumes with its receipts.
    if (signal.aborted) return false;
    // The journal or the points could not be reached (a network's database restarting): no outcome to record;
    // it stays RUNNING and runs again from its receipts once they can.
    if (result.failure?.code === AgentFailure.STORAGE_UNAVAILABLE.code) {
      this.#logger.warn(`event ${task.id}: storage unavailable; it runs again later`);
      return true;
    }
    if (result.failure?.code === AgentFailure.EFFECT_DEFERRED.code) {
      // nothing changed: WAITING, offered again after a backoff, at a join, or on `resumeWaiting`
      if ((await this.#update(task.id, { state: State.WAITING }, journal)) === undefined) return true;
      this.#offerLater(task, this.#deferrals.deferred(task, result, running.attempts), true);
      return false;
    }
    this.#deferrals.forget(task.playerId);
    return this.#finish(task, result, journal);
  }

  /** Records the task's end; true when that could not be written (it is offered again). */
  async #finish(task: EventTask, result: AgentResult, journal = this.#options.journal): Promise<boolean> {
    const unconfirmed = result.failure?.code === AgentFailure.EFFECT_UNKNOWN.code;
    const settled = await this.#update(
      task.id,
      {
        state: unconfirmed ? State.UNCONFIRMED : TERMINAL[result.status],
        result: AgentResult.CODEC.encode(result),
      },
      journal,
    );
    if (settled === undefined) return true;
    if (unconfirmed)
      this.#logger.warn(
        `event ${task.id} of ${task.playerId}: its effect could not be confirmed; an admin must check it`,
      );
    try {
      this.#options.onSettled?.(settled, result);
    } catch (error) {
      this.#logger.error(`event ${task.id} settle listener failed`, error);
    }
    return false;
  }

  async #update(
    id: string,
    change: { state: State; attempts?: number; result?: Json },
    journal = this.#options.journal,
  ): Promise<EventTask | undefined> {
    try {
      return await journal.updateEvent(id, change);
    } catch (error) {
      this.#logger.error(`event ${id}: could not record ${change.state}`, error);
      return undefined;
    }
  }
}
