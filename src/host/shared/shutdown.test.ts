import { afterEach, describe, expect, it } from "vitest";
import { MemoryLogger } from "../../util/logger.js";
import {
  detachExitHook,
  installShutdown,
  REPEAT_WINDOW_MILLIS,
  runShutdown,
  shutdownHandler,
  signalAction,
} from "./shutdown.js";

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
  it("also removes an exit-hook listener registered after it was installed, before the event loop turns", async () => {
    const uninstall = installShutdown({ close: async () => {}, flush: async () => {} }, new MemoryLogger(), {
      exit: () => {},
    });
    function exit(): void {}
    const late = exit.bind(null);
    process.once("SIGTERM", late);
    // no macrotask in between: a signal arriving on the loop's next turn must not find it
    await Promise.resolve();
    expect(process.listeners("SIGTERM")).not.toContain(late);
    uninstall();
  });
});

describe("signalAction", () => {
  it("starts the shutdown on the first signal, takes one within the window as the same stop, forces after it", () => {
    expect(signalAction(undefined, 5_000)).toBe("shut-down");
    expect(signalAction(5_000, 5_000)).toBe("repeat");
    expect(signalAction(5_000, 5_000 + REPEAT_WINDOW_MILLIS - 1)).toBe("repeat");
    expect(signalAction(5_000, 5_000 + REPEAT_WINDOW_MILLIS)).toBe("force");
  });
});

describe("shutdownHandler", () => {
  /** Steps whose close waits until the test releases it, a clock the test sets, and the exit codes asked for. */
  const harness = () => {
    let release = (): void => {};
    const closed = new Promise<void>((resolve) => {
      release = resolve;
    });
    let flushed = false;
    let clock = 0;
    const exits: number[] = [];
    const logger = new MemoryLogger();
    let exited = (): void => {};
    const exitCalled = new Promise<void>((resolve) => {
      exited = resolve;
    });
    const handler = shutdownHandler(
      {
        close: () => closed,
        flush: async () => {
          flushed = true;
        },
      },
      logger,
      {
        exit: (code) => {
          exits.push(code);
          exited();
        },
        now: () => clock,
      },
    );
    return {
      handler,
      logger,
      exits,
      exitCalled,
      release,
      flushed: () => flushed,
      at: (millis: number) => {
        clock = millis;
      },
    };
  };

  it("a forwarded copy of Ctrl+C (npm's, or a group SIGTERM) does not abort the shutdown: it flushes and exits 0", async () => {
    const run = harness();
    run.at(1_000);
    run.handler("SIGINT");
    run.at(1_020);
    run.handler("SIGINT");
    run.at(1_000 + REPEAT_WINDOW_MILLIS - 1);
    run.handler("SIGTERM");
    expect(run.exits).toEqual([]);
    run.release();
    await run.exitCalled;
    expect(run.exits).toEqual([0]);
    expect(run.flushed()).toBe(true);
    expect(run.logger.has("stopped")).toBe(true);
  });

  it("a deliberate second Ctrl+C after the window exits at once with 130", async () => {
    const run = harness();
    run.at(1_000);
    run.handler("SIGINT");
    run.at(1_000 + REPEAT_WINDOW_MILLIS);
    run.handler("SIGINT");
    expect(run.exits).toEqual([130]);
    expect(run.flushed()).toBe(false);
    expect(run.logger.has("SIGINT again")).toBe(true);
  });
});
