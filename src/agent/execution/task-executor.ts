import { BoundedPool, type PoolLimits, type PoolWork } from "./bounded-pool.js";

/** The three shared pools: players' requests, durable event tasks, and storage/maintenance work. */
export type PoolName = "interactive" | "event" | "maintenance";

/** Pool sizes; every field is optional and falls back to TASK_EXECUTOR_DEFAULTS. */
export type TaskExecutorOptions = { readonly [name in PoolName]?: Partial<PoolLimits> };

/** The seed's sizes: interactive 4 running / 32 queued, event 2 / 64, maintenance 2 / 32. */
export const TASK_EXECUTOR_DEFAULTS: { readonly [name in PoolName]: PoolLimits } = Object.freeze({
  interactive: Object.freeze({ running: 4, queued: 32 }),
  event: Object.freeze({ running: 2, queued: 64 }),
  maintenance: Object.freeze({ running: 2, queued: 32 }),
});

/**
 * The shared bounded pools of one server. Model waits run here as async work, never on the game loop;
 * a full pool answers BUSY at once and shutdown cancels what has not started.
 */
export class TaskExecutor {
  readonly interactive: BoundedPool;
  readonly event: BoundedPool;
  readonly maintenance: BoundedPool;

  constructor(options: TaskExecutorOptions = {}) {
    const limits = (name: PoolName): PoolLimits => ({ ...TASK_EXECUTOR_DEFAULTS[name], ...options[name] });
    this.interactive = new BoundedPool("interactive", limits("interactive"));
    this.event = new BoundedPool("event", limits("event"));
    this.maintenance = new BoundedPool("maintenance", limits("maintenance"));
  }

  pool(name: PoolName): BoundedPool {
    return this[name];
  }

  /** Submits work to a named pool; rejects BUSY when full, CANCELLED after shutdown. */
  submit<T>(name: PoolName, work: PoolWork<T>): Promise<T> {
    return this[name].submit(work);
  }

  /** Shuts every pool down; settles when their running work has finished. */
  async shutdown(): Promise<void> {
    await Promise.all([this.interactive.shutdown(), this.event.shutdown(), this.maintenance.shutdown()]);
  }
}
