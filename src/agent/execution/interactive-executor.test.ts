import { describe, expect, it } from "vitest";
import { AgentResult } from "../agent-result.js";
import { literal } from "../text.js";
import { BoundedPool } from "./bounded-pool.js";
import { ConversationService } from "./conversation-service.js";
import { InMemoryConversationStore } from "./in-memory-conversation-store.js";
import {
  type AdmittedRequest,
  InteractiveExecutor,
  type InteractiveHandler,
  type InteractiveRequest,
} from "./interactive-executor.js";
import { MemoryGenerations } from "./memory-generations.js";

const gate = (): { promise: Promise<void>; open: () => void } => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
};

let sequence = 0;
const request = (
  playerId: string,
  text: string,
  extra: Partial<InteractiveRequest> = {},
): InteractiveRequest => ({
  requestId: `r${++sequence}`,
  playerId,
  locale: "en_us",
  text,
  ...extra,
});

interface Setup {
  readonly executor: InteractiveExecutor;
  readonly calls: AdmittedRequest[];
  readonly store: InMemoryConversationStore;
  readonly conversation: ConversationService;
  readonly generations: MemoryGenerations;
  readonly clock: { now: number };
}

/** An executor whose handler answers `echo <text>`, optionally waiting on a gate first. */
const setup = (
  options: { hold?: Promise<void>; handler?: InteractiveHandler; pool?: BoundedPool } = {},
): Setup => {
  const calls: AdmittedRequest[] = [];
  const generations = new MemoryGenerations();
  const store = new InMemoryConversationStore();
  const conversation = new ConversationService({ store, generations });
  const clock = { now: 1_000 };
  const handler: InteractiveHandler =
    options.handler ??
    (async (admitted, signal) => {
      calls.push(admitted);
      if (options.hold !== undefined)
        await Promise.race([
          options.hold,
          new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true })),
        ]);
      return AgentResult.success(literal(`echo ${admitted.text}`));
    });
  const executor = new InteractiveExecutor({
    pool: options.pool ?? new BoundedPool("interactive", { running: 4, queued: 32 }),
    handler,
    generations,
    conversation,
    maxInputBytes: 64,
    now: () => clock.now,
  });
  return { executor, calls, store, conversation, generations, clock };
};

const textOf = (result: AgentResult): string | undefined =>
  result.message?.kind === "literal" ? result.message.text : result.failure?.code;

describe("InteractiveExecutor", () => {
  it("refuses oversized input with INPUT_TOO_LARGE before the handler runs", async () => {
    const { executor, calls } = setup();
    const result = await executor.submit(request("alex", "x".repeat(65)));
    expect(result.failure?.code).toBe("INPUT_TOO_LARGE");
    expect(result.failure?.args).toEqual(["65", "64"]);
    expect(calls).toHaveLength(0);
  });

  it("runs one request per player: a distinct second request while one runs is refused BUSY", async () => {
    const hold = gate();
    const { executor, calls } = setup({ hold: hold.promise });
    const first = executor.submit(request("alex", "what is a diamond"));
    const second = await executor.submit(request("alex", "where is my quest"));
    expect(second.failure?.code).toBe("BUSY");
    const other = executor.submit(request("steve", "where is my quest"));
    hold.open();
    expect(textOf(await first)).toBe("echo what is a diamond");
    expect(textOf(await other)).toBe("echo where is my quest");
    expect(calls.map((call) => call.playerId)).toEqual(["alex", "steve"]);
    expect(textOf(await executor.submit(request("alex", "where is my quest")))).toBe(
      "echo where is my quest",
    );
  });

  it("idle settles only once the player's request has finished, and at once for a player with none", async () => {
    const hold = gate();
    const { executor } = setup({ hold: hold.promise });
    const running = executor.submit(request("alex", "what is a diamond"));
    let idle = false;
    const waiting = executor.idle("alex").then(() => {
      idle = true;
    });
    await executor.idle("steve");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(idle).toBe(false);
    hold.open();
    await running;
    await waiting;
    expect(executor.isActive("alex")).toBe(false);
  });

  it("cancels the player's running request: the caller gets CANCELLED and the handler's signal aborts", async () => {
    const hold = gate();
    let aborted = false;
    const { executor, store } = setup({
      handler: async (_admitted, signal) => {
        signal.addEventListener("abort", () => {
          aborted = true;
        });
        await hold.promise;
        return AgentResult.success(literal("too late"));
      },
    });
    const running = executor.submit(request("alex", "long question"));
    await Promise.resolve();
    expect(executor.cancel("alex")).toBe(true);
    expect((await running).failure?.code).toBe("CANCELLED");
    expect(aborted).toBe(true);
    expect(executor.isActive("alex")).toBe(true);
    hold.open();
    await hold.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(executor.isActive("alex")).toBe(false);
    expect(await store.history("alex")).toHaveLength(0);
    expect(executor.cancel("alex")).toBe(false);
  });

  it("runs the same request sent twice while it runs once and gives both callers the answer", async () => {
    const hold = gate();
    const { executor, calls } = setup({ hold: hold.promise });
    const first = executor.submit(request("alex", "what is a diamond"));
    const second = executor.submit(request("alex", "  what is   a diamond "));
    hold.open();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
  });

  it("runs a repeat sent after the answer again, so it sees the player's writes completed since", async () => {
    let balance = 100;
    const { executor } = setup({
      handler: async () => AgentResult.success(literal(`Your points: ${balance}`)),
    });
    expect(textOf(await executor.submit(request("alex", "/system balance")))).toBe("Your points: 100");
    balance = 98;
    expect(textOf(await executor.submit(request("alex", "/system balance")))).toBe("Your points: 98");
  });

  it("never shares a refused or cancelled answer with a later identical request", async () => {
    const hold = gate();
    const pool = new BoundedPool("interactive", { running: 1, queued: 0 });
    const { executor, calls } = setup({ hold: hold.promise, pool });
    const steve = executor.submit(request("steve", "hello"));
    expect((await executor.submit(request("alex", "hello"))).failure?.code).toBe("BUSY");
    hold.open();
    await steve;
    expect(textOf(await executor.submit(request("alex", "hello")))).toBe("echo hello");
    expect(calls.map((call) => call.playerId)).toEqual(["steve", "alex"]);
  });

  it("writes the exchange to history on completion, with the generation it started under", async () => {
    const { executor, store, calls } = setup();
    await executor.submit(request("alex", "hello"));
    const history = await store.history("alex");
    expect(history.map((turn) => turn.role)).toEqual(["user", "assistant"]);
    expect(history[0]?.role === "user" ? history[0].text : undefined).toBe("hello");
    expect(calls[0]?.generation).toBe(0);
    await executor.submit(request("alex", "button", { record: false }));
    expect(await store.history("alex")).toHaveLength(2);
  });

  it("writes nothing when the player's memory generation changes during the request", async () => {
    const hold = gate();
    const { executor, store, conversation, calls } = setup({ hold: hold.promise });
    const running = executor.submit(request("alex", "remember this"));
    await Promise.resolve();
    await conversation.clear("alex");
    hold.open();
    expect(textOf(await running)).toBe("echo remember this");
    expect(calls[0]?.generation).toBe(0);
    expect(await store.history("alex")).toHaveLength(0);
    await executor.submit(request("alex", "after forget"));
    expect(await store.history("alex")).toHaveLength(2);
  });

  it("writes nothing when the player turned history off", async () => {
    const { executor, store, conversation } = setup();
    await conversation.setPreferences("alex", { history: false });
    await executor.submit(request("alex", "hello"));
    expect(await store.history("alex")).toHaveLength(0);
  });

  it("turns a throwing handler into a failed result and frees the player", async () => {
    const { executor } = setup({
      handler: async () => {
        throw new Error("boom");
      },
    });
    expect((await executor.submit(request("alex", "x"))).failure?.code).toBe("MODULE_FAILED");
    await new Promise((resolve) => setImmediate(resolve));
    expect(executor.isActive("alex")).toBe(false);
  });

  it("answers BUSY when the shared interactive pool is full and CANCELLED after its shutdown", async () => {
    const hold = gate();
    const pool = new BoundedPool("interactive", { running: 1, queued: 1 });
    const { executor } = setup({ hold: hold.promise, pool });
    const first = executor.submit(request("a", "one"));
    const queued = executor.submit(request("b", "two"));
    expect((await executor.submit(request("c", "three"))).failure?.code).toBe("BUSY");
    await pool.shutdown();
    expect((await queued).failure?.code).toBe("CANCELLED");
    expect((await first).failure?.code).toBe("CANCELLED");
  });
});

describe("background history", () => {
  it("answers before a slow history write finishes, and keeps each player's turns in order", async () => {
    const generations = new MemoryGenerations();
    const store = new InMemoryConversationStore();
    const slow = gate();
    const append = store.append.bind(store);
    let writes = 0;
    store.append = async (playerId, turns) => {
      writes++;
      if (writes === 1) await slow.promise;
      await append(playerId, turns);
    };
    const conversation = new ConversationService({ store, generations });
    const executor = new InteractiveExecutor({
      pool: new BoundedPool("interactive", { running: 4, queued: 32 }),
      generations,
      conversation,
      backgroundHistory: true,
      handler: async (admitted) => AgentResult.success(literal(`echo ${admitted.text}`)),
    });
    const first = await executor.submit(request("alex", "first"));
    expect(first.isSuccess()).toBe(true);
    expect(await conversation.history("alex")).toEqual([]);
    await executor.submit(request("alex", "second"));
    slow.open();
    await executor.flush();
    const texts = (await conversation.history("alex"))
      .filter((turn) => turn.role === "user")
      .map((turn) => turn.text);
    expect(texts).toEqual(["first", "second"]);
  });
});

describe("background history after the reply", () => {
  it("starts a player's history write only after the turn that answered them", async () => {
    const generations = new MemoryGenerations();
    const store = new InMemoryConversationStore();
    const events: string[] = [];
    const append = store.append.bind(store);
    store.append = async (playerId, turns) => {
      events.push("history write");
      await append(playerId, turns);
    };
    const conversation = new ConversationService({ store, generations });
    const preferences = conversation.preferences.bind(conversation);
    conversation.preferences = async (playerId) => {
      events.push("history read");
      return preferences(playerId);
    };
    const executor = new InteractiveExecutor({
      pool: new BoundedPool("interactive", { running: 4, queued: 32 }),
      generations,
      conversation,
      backgroundHistory: true,
      handler: async (admitted) => AgentResult.success(literal(admitted.text)),
    });
    // the reply is sent in the answer's continuation, a microtask of the same turn
    await executor.submit(request("alex", "hello")).then(() => events.push("reply sent"));
    expect(events).toEqual(["reply sent"]);
    await executor.flush();
    expect(events).toEqual(["reply sent", "history read", "history write"]);
  });
});

describe("background history backpressure", () => {
  it("makes a player's reply wait once more than four history writes are pending", async () => {
    const generations = new MemoryGenerations();
    const store = new InMemoryConversationStore();
    const blocked = gate();
    const append = store.append.bind(store);
    store.append = async (playerId, turns) => {
      await blocked.promise;
      await append(playerId, turns);
    };
    const executor = new InteractiveExecutor({
      pool: new BoundedPool("interactive", { running: 4, queued: 32 }),
      generations,
      conversation: new ConversationService({ store, generations }),
      backgroundHistory: true,
      handler: async (admitted) => AgentResult.success(literal(admitted.text)),
    });
    for (let index = 1; index <= 4; index++) await executor.submit(request("alex", `line ${index}`));
    let fifthSettled = false;
    const fifth = executor.submit(request("alex", "line 5")).then(() => {
      fifthSettled = true;
    });
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(fifthSettled).toBe(false);
    blocked.open();
    await fifth;
    await executor.flush();
    expect((await store.history("alex")).length).toBe(10);
  });
});
