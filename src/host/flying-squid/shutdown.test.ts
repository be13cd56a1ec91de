import { afterEach, describe, expect, it } from "vitest";
import { MemoryLogger } from "../../util/logger.js";
import { detachExitHook, installShutdown, runShutdown } from "./shutdown.js";

describe("runShutdown", () => {
  it("closes the game server before flushing storage and exits 0", async () => {
    const order: string[] = [];
    const code = await runShutdown(
      {
        close: async () => {
          order.push("close");
        },
        flush: async () => {
          order.push("flush");
        },
      },
      new MemoryLogger(),
    );
    expect(order).toEqual(["close", "flush"]);
    expect(code).toBe(0);
  });

  it("still flushes when closing fails, and reports exit code 1", async () => {
    const logger = new MemoryLogger();
    let flushed = false;
    const code = await runShutdown(
      {
        close: async () => {
          throw new Error("socket stuck");
        },
        flush: async () => {
          flushed = true;
        },
      },
      logger,
    );
    expect(flushed).toBe(true);
    expect(code).toBe(1);
    expect(logger.has("socket stuck")).toBe(true);
  });
});

describe("detachExitHook", () => {
  const added: (() => void)[] = [];
  afterEach(() => {
    for (const listener of added) process.off("SIGTERM", listener);
    added.length = 0;
  });

  it("removes exit-hook's synchronous exit listener and keeps everyone else's", () => {
    function exit(): void {}
    const exitHook = exit.bind(null);
    const other = (): void => {};
    added.push(exitHook, other);
    process.on("SIGTERM", exitHook);
    process.on("SIGTERM", other);
    detachExitHook();
    expect(process.listeners("SIGTERM")).not.toContain(exitHook);
    expect(process.listeners("SIGTERM")).toContain(other);
  });
});

describe("installShutdown", () => {
  it("also removes an exit-hook listener registered after it was installed", async () => {
    const uninstall = installShutdown(
      { close: async () => {}, flush: async () => {} },
      new MemoryLogger(),
      () => {},
    );
    function exit(): void {}
    const late = exit.bind(null);
    process.once("SIGTERM", late);
    await new Promise((resolve) => setImmediate(resolve));
    expect(process.listeners("SIGTERM")).not.toContain(late);
    uninstall();
  });
});
