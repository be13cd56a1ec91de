import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { MemoryLogger } from "../../util/logger.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import { ActionType } from "../module/action-type.js";
import { literal } from "../text.js";
import { BoundedPool } from "./bounded-pool.js";
import {
  type AdmittedRequest,
  InteractiveExecutor,
  type InteractiveRequest,
} from "./interactive-executor.js";
import { MemoryGenerations } from "./memory-generations.js";
import {
  canonicalJson,
  isReplayable,
  type ReplayCache,
  type ReplayHit,
  replayKeyOf,
} from "./replay-cache.js";

/** A replay cache in memory, keyed like the chat file's, that can be made to fail. */
class MemoryReplayCache implements ReplayCache {
  readonly entries = new Map<string, AgentResult>();
  /** When each entry was stored (the test clock's time); entries set directly count as stored at 0. */
  readonly times = new Map<string, number>();
  failing = false;
  now = 0;
  async lookup(playerId: string, key: string): Promise<ReplayHit | undefined> {
    if (this.failing) throw new Error("cache unreadable");
    const result = this.entries.get(`${playerId}|${key}`);
    return result === undefined ? undefined : { result, at: this.times.get(`${playerId}|${key}`) ?? 0 };
  }
  store(playerId: string, key: string, _generation: number, result: AgentResult): Promise<boolean> {
    if (this.failing) throw new Error("cache unwritable");
    this.entries.set(`${playerId}|${key}`, result);
    this.times.set(`${playerId}|${key}`, this.now);
    return Promise.resolve(true);
  }
}

const gate = (): { promise: Promise<void>; open: () => void } => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
};

let sequence = 0;
const request = (text: string, extra: Partial<InteractiveRequest> = {}): InteractiveRequest => ({
  requestId: `r${++sequence}`,
  playerId: "alex",
  locale: "en_us",
  text,
  ...extra,
});

/** An executor whose handler counts its runs and answers with `outcome(run)` (default: "done <n>"). */
const setup = (
  options: {
    outcome?: (run: number) => AgentResult;
    hold?: Promise<void>;
    replayView?: (key: string, stored: AgentResult) => AgentResult;
  } = {},
) => {
  const calls: AdmittedRequest[] = [];
  const replay = new MemoryReplayCache();
  const logger = new MemoryLogger();
  const executor = new InteractiveExecutor({
    pool: new BoundedPool("interactive", { running: 4, queued: 32 }),
    generations: new MemoryGenerations(),
    replay,
    logger,
    now: () => replay.now,
    ...(options.replayView === undefined ? {} : { replayView: options.replayView }),
    handler: async (admitted) => {
      calls.push(admitted);
      if (options.hold !== undefined) await options.hold;
      return options.outcome?.(calls.length) ?? AgentResult.success(literal(`done ${calls.length}`));
    },
  });
  return { executor, calls, replay, logger };
};

const textOf = (result: AgentResult): string | undefined =>
  result.message?.kind === "literal" ? result.message.text : result.failure?.code;

describe("InteractiveExecutor with a replay cache", () => {
  it("answers a repeated structured request with the stored result; the handler runs once", async () => {
    const { executor, calls } = setup();
    expect(textOf(await executor.submit(request("/system checkin", { replayKey: "check_in#1" })))).toBe(
      "done 1",
    );
    expect(textOf(await executor.submit(request("/system checkin", { replayKey: "check_in#1" })))).toBe(
      "done 1",
    );
    expect(calls).toHaveLength(1);
    // another input is another request
    expect(textOf(await executor.submit(request("/system buy 2", { replayKey: "buy#2" })))).toBe("done 2");
  });

  it("marks a replay with the seconds since the answer was given, in the workflow's view of a repeat", async () => {
    const { executor, calls, replay } = setup({
      replayView: (key, stored) =>
        key === "check_in#1" ? AgentResult.error(AgentFailure.ALREADY_DONE) : stored,
    });
    replay.now = 5_000;
    const first = await executor.submit(request("/system checkin", { replayKey: "check_in#1" }));
    expect(first.replayedSeconds).toBeUndefined();
    replay.now = 17_400;
    const again = await executor.submit(request("/system checkin", { replayKey: "check_in#1" }));
    expect(again.replayedSeconds).toBe(12);
    // the workflow's own view: "already done", never the first answer's news again
    expect(again.failure?.code).toBe(AgentFailure.ALREADY_DONE.code);
    expect(calls).toHaveLength(1);
    // another workflow keeps its stored answer, still marked
    await executor.submit(request("/system confirm", { replayKey: "confirm#q1" }));
    replay.now = 20_000;
    const confirm = await executor.submit(request("/system confirm", { replayKey: "confirm#q1" }));
    expect(textOf(confirm)).toBe("done 2");
    expect(confirm.replayedSeconds).toBe(2);
  });

  it("never replays free text (no replay key)", async () => {
    const { executor, calls } = setup();
    await executor.submit(request("check me in"));
    expect(textOf(await executor.submit(request("check me in")))).toBe("done 2");
    expect(calls).toHaveLength(2);
  });

  it("stores final results only: a deliberate NOT_FOUND is replayed, transient failures run again", async () => {
    const outcomes = [
      AgentResult.error(AgentFailure.TIMEOUT),
      AgentResult.error(AgentFailure.MODEL_UNAVAILABLE),
      AgentResult.success(literal("partly")).partial(AgentFailure.BUDGET_EXHAUSTED),
      AgentResult.error(AgentFailure.NOT_FOUND.with("quote")),
    ];
    const { executor, calls } = setup({ outcome: (run) => outcomes[run - 1] ?? AgentResult.success() });
    const codes: (string | undefined)[] = [];
    for (let index = 0; index < 5; index++) {
      const result = await executor.submit(request("/system confirm", { replayKey: "confirm#q1" }));
      codes.push(`${result.status} ${result.failure?.code}`);
    }
    expect(codes).toEqual([
      "failed TIMEOUT",
      "failed MODEL_UNAVAILABLE",
      "partially_succeeded BUDGET_EXHAUSTED",
      "failed NOT_FOUND",
      "failed NOT_FOUND",
    ]);
    expect(calls).toHaveLength(4);
  });

  it("does not store a cancelled request", async () => {
    const hold = gate();
    const { executor, calls, replay } = setup({ hold: hold.promise });
    const running = executor.submit(request("/system confirm", { replayKey: "confirm#q1" }));
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    executor.cancel("alex");
    expect(textOf(await running)).toBe("CANCELLED");
    hold.open();
    await executor.idle("alex");
    await executor.flush();
    expect(replay.entries.size).toBe(0);
    expect(textOf(await executor.submit(request("/system confirm", { replayKey: "confirm#q1" })))).toBe(
      "done 2",
    );
    expect(calls).toHaveLength(2);
  });

  it("replays to a player who is busy with another request instead of refusing BUSY", async () => {
    const hold = gate();
    const { executor, replay } = setup({ hold: hold.promise });
    replay.entries.set("alex|confirm#q1", AgentResult.success(literal("paid")));
    const running = executor.submit(request("what is a diamond"));
    expect(textOf(await executor.submit(request("/system confirm", { replayKey: "confirm#q1" })))).toBe(
      "paid",
    );
    expect(textOf(await executor.submit(request("/system other", { replayKey: "other#1" })))).toBe("BUSY");
    hold.open();
    await running;
  });

  it("runs normally when the cache can be neither read nor written", async () => {
    const { executor, calls, replay, logger } = setup();
    replay.failing = true;
    expect(textOf(await executor.submit(request("/system checkin", { replayKey: "check_in#1" })))).toBe(
      "done 1",
    );
    expect(textOf(await executor.submit(request("/system checkin", { replayKey: "check_in#1" })))).toBe(
      "done 2",
    );
    expect(calls).toHaveLength(2);
    expect(logger.has("replay")).toBe(true);
  });
});

describe("replay keys and results", () => {
  const BUY = ActionType.of(
    "shop:buy",
    codec(z.object({ item: z.string(), count: z.number(), note: z.string().optional() })),
  );

  it("identify the typed action: same input in any key order is one request, another input another", () => {
    expect(replayKeyOf(BUY.action({ item: "bread", count: 2 }))).toBe(
      replayKeyOf(BUY.action({ count: 2, item: "bread" } as { item: string; count: number })),
    );
    expect(replayKeyOf(BUY.action({ item: "bread", count: 2 }))).not.toBe(
      replayKeyOf(BUY.action({ item: "bread", count: 3 })),
    );
    expect(replayKeyOf(BUY.action({ item: "bread", count: 2 }))).toMatch(/^shop:buy#[\w-]{32}$/);
    expect(canonicalJson({ b: [1, { d: 2, c: null }], a: "x" })).toBe('{"a":"x","b":[1,{"c":null,"d":2}]}');
  });

  it("are replayable only when final", () => {
    expect(isReplayable(AgentResult.success(literal("ok")))).toBe(true);
    expect(isReplayable(AgentResult.silent())).toBe(true);
    expect(isReplayable(AgentResult.error(AgentFailure.ALREADY_DONE))).toBe(true);
    for (const failure of [
      AgentFailure.BUSY,
      AgentFailure.CANCELLED,
      AgentFailure.TIMEOUT,
      AgentFailure.QUOTA_EXCEEDED,
      AgentFailure.PERMISSION_DENIED,
      AgentFailure.EFFECT_UNKNOWN,
    ])
      expect(isReplayable(AgentResult.error(failure))).toBe(false);
  });
});
