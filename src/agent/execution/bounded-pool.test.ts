import { describe, expect, it } from "vitest";
import { BoundedPool } from "./bounded-pool.js";

describe("BoundedPool", () => {
  it("runs work under the caller's own controller, which a shutdown aborts", async () => {
    const pool = new BoundedPool("test", { running: 1, queued: 0 });
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    let release = (): void => {};
    const running = pool.submit(async (signal) => {
      seen = signal;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return signal.aborted;
    }, controller);
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toBe(controller.signal);
    const stopped = pool.shutdown();
    expect(controller.signal.aborted).toBe(true);
    release();
    expect(await running).toBe(true);
    await stopped;
  });

  it("gives work a signal of its own without one", async () => {
    const pool = new BoundedPool("test", { running: 1, queued: 0 });
    expect(await pool.submit(async (signal) => signal.aborted)).toBe(false);
  });
});
