import { describe, expect, it } from "vitest";
import { AgentException } from "../agent-exception.js";
import { BoundedPool } from "./bounded-pool.js";
import { TASK_EXECUTOR_DEFAULTS, TaskExecutor } from "./task-executor.js";

/** A promise with its resolve function, to hold work open until the test releases it. */
const gate = <T = void>(): { promise: Promise<T>; open: (value: T) => void } => {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
};

const failureCode = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return "none";
  } catch (error) {
    return AgentException.failure(error).code;
  }
};

describe("TaskExecutor", () => {
  it("uses the seed's pool sizes by default and accepts overrides", () => {
    const executor = new TaskExecutor({ event: { running: 3 } });
    expect(executor.interactive.limits).toEqual({ running: 4, queued: 32 });
    expect(executor.event.limits).toEqual({ running: 3, queued: 64 });
    expect(executor.maintenance.limits).toEqual(TASK_EXECUTOR_DEFAULTS.maintenance);
  });

  it("runs at most `running` works at once and starts queued work as slots free", async () => {
    const pool = new BoundedPool("test", { running: 2, queued: 4 });
    const gates = [gate(), gate(), gate()];
    let active = 0;
    let peak = 0;
    const results = gates.map((entry, index) =>
      pool.submit(async () => {
        active++;
        peak = Math.max(peak, active);
        await entry.promise;
        active--;
        return index;
      }),
    );
    await Promise.resolve();
    expect(pool.running).toBe(2);
    expect(pool.queued).toBe(1);
    for (const entry of gates) entry.open();
    expect(await Promise.all(results)).toEqual([0, 1, 2]);
    expect(peak).toBe(2);
  });

  it("answers BUSY at once when the queue is full, without running the work", async () => {
    const pool = new BoundedPool("interactive", { running: 1, queued: 1 });
    const hold = gate();
    const first = pool.submit(() => hold.promise);
    const second = pool.submit(() => hold.promise);
    let ran = false;
    const third = pool.submit(async () => {
      ran = true;
    });
    expect(await failureCode(third)).toBe("BUSY");
    expect(ran).toBe(false);
    hold.open();
    await Promise.all([first, second]);
  });

  it("completes queued work CANCELLED on shutdown and aborts the running work's signal", async () => {
    const executor = new TaskExecutor({ interactive: { running: 1, queued: 2 } });
    let abortedWith: unknown;
    const running = executor.submit(
      "interactive",
      (signal) =>
        new Promise<string>((resolve) => {
          signal.addEventListener("abort", () => {
            abortedWith = signal.reason;
            resolve("stopped");
          });
        }),
    );
    let queuedRan = false;
    const queued = executor.submit("interactive", async () => {
      queuedRan = true;
    });
    await Promise.resolve();
    await executor.shutdown();
    expect(await failureCode(queued)).toBe("CANCELLED");
    expect(queuedRan).toBe(false);
    expect(await running).toBe("stopped");
    expect(AgentException.failure(abortedWith).code).toBe("CANCELLED");
    expect(await failureCode(executor.submit("event", async () => 1))).toBe("CANCELLED");
  });

  it("turns a synchronous throw into a rejection and keeps the pool usable", async () => {
    const pool = new BoundedPool("test", { running: 1, queued: 0 });
    const broken = pool.submit(() => {
      throw new Error("boom");
    });
    await expect(broken).rejects.toThrow("boom");
    expect(await pool.submit(async () => 7)).toBe(7);
  });

  it("refuses invalid sizes", () => {
    expect(() => new BoundedPool("bad", { running: 0, queued: 1 })).toThrow(RangeError);
    expect(() => new TaskExecutor({ maintenance: { queued: -1 } })).toThrow(RangeError);
  });
});
