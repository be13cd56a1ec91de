import { describe, expect, it } from "vitest";
import { withDeadline } from "./deadline.js";

const options = (signal: AbortSignal, millis: number) => ({
  millis,
  signal,
  onTimeout: () => new Error("timeout"),
  onAbort: () => new Error("abort"),
});

describe("withDeadline", () => {
  it("returns the work's value in time", async () => {
    const value = await withDeadline({ ...options(new AbortController().signal, 1000), work: async () => 5 });
    expect(value).toBe(5);
  });

  it("stops hanging work at the timeout and aborts the signal it handed over", async () => {
    let inner: AbortSignal | undefined;
    const work = (signal: AbortSignal): Promise<never> => {
      inner = signal;
      return new Promise<never>(() => {});
    };
    await expect(withDeadline({ ...options(new AbortController().signal, 20), work })).rejects.toThrow(
      "timeout",
    );
    expect(inner?.aborted).toBe(true);
  });

  it("stops at an outer abort, and refuses to start when already aborted or out of time", async () => {
    const controller = new AbortController();
    const running = withDeadline({
      ...options(controller.signal, 10_000),
      work: () => new Promise(() => {}),
    });
    controller.abort();
    await expect(running).rejects.toThrow("abort");
    let started = false;
    const work = async (): Promise<number> => {
      started = true;
      return 1;
    };
    await expect(withDeadline({ ...options(controller.signal, 10_000), work })).rejects.toThrow("abort");
    await expect(withDeadline({ ...options(new AbortController().signal, 0), work })).rejects.toThrow(
      "timeout",
    );
    expect(started).toBe(false);
  });
});
