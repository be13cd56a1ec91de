import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { FileAgentJournal } from "../../data/store/file-agent-journal.js";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import { AbstractAgentModule } from "../module/abstract-agent-module.js";
import { ActionType } from "../module/action-type.js";
import { JournalStepRunner } from "../storage/journal-step-runner.js";
import { NoEffectException } from "../storage/no-effect.js";
import { State } from "../storage/state.js";
import { literal } from "../text.js";
import { type AnyTool, Tool } from "../tool/tool.js";
import { ToolType } from "../tool/tool-type.js";
import { AgentEngine } from "./agent-engine.js";
import { BoundedPool } from "./bounded-pool.js";
import { EventExecutor, type EventSubmission, eventRequestId } from "./event-executor.js";
import { EventRules } from "./event-rules.js";
import type { ExecutionContext } from "./execution-context.js";
import { EXECUTION_POLICY_CODEC, type ExecutionPolicy } from "./execution-policy.js";
import { SIMPLE_POLICY } from "./policy-defaults.js";

interface RewardInput {
  readonly amount: number;
  readonly mode?: "ok" | "fail" | "partial" | "forbidden" | "hold" | undefined;
}

const REWARD = ActionType.of<RewardInput>(
  "test:reward",
  codec(
    z.object({
      amount: z.number().int(),
      mode: z.enum(["ok", "fail", "partial", "forbidden", "hold"]).optional(),
    }),
  ),
);
const OTHER = ActionType.of<RewardInput>("test:other_reward", REWARD.codec);
const GRANT = ToolType.of(
  "test:grant",
  codec(z.object({ amount: z.number() })),
  codec(z.object({ granted: z.number() })),
);
const CHAT = ToolType.of("test:chat", codec(z.object({})), codec(z.object({})));
const POLICY: ExecutionPolicy = { ...SIMPLE_POLICY, writeSteps: 3, reactIterations: 0 };

/** Everything the workflow did, so tests can see effects and the policy each run saw. */
class World {
  grants = 0;
  /** Gives the next N grants refuse without effect because the world is away (EFFECT_DEFERRED). */
  deferNext = 0;
  /** Gives the next N grants refuse without effect for good (an item that does not fit). */
  refuseNext = 0;
  /** Runs when a grant is deferred (a player leaving meanwhile). */
  onDefer: () => void = () => {};
  /** Tasks whose player was told their effect waits. */
  told: string[] = [];
  /** Inputs whose unknown effect an admin confirmed (`effectConfirmed`). */
  confirmed: string[] = [];
  runs: string[] = [];
  policies: ExecutionPolicy[] = [];
  release: () => void = () => {};
  readonly hold = new Promise<void>((resolve) => {
    this.release = resolve;
  });
}

class RewardModule extends AbstractAgentModule<RewardInput> {
  constructor(
    action: ActionType<RewardInput>,
    eventTypes: string[],
    private readonly world: World,
    tools: readonly AnyTool[],
    owner?: string,
  ) {
    super({
      action,
      description: "Grants a reward.",
      tools,
      ...(owner === undefined ? {} : { owner: Identifier.parse(owner) }),
      policy: POLICY,
      interactive: false,
      event: true,
      eventTypes,
    });
  }

  async effectConfirmed(input: RewardInput, playerId: string): Promise<void> {
    this.world.confirmed.push(`${playerId}:${input.amount}`);
  }

  override async run(input: RewardInput, context: ExecutionContext): Promise<AgentResult> {
    this.world.runs.push(`${context.requestId}:${input.amount}`);
    this.world.policies.push(context.policy);
    if (input.mode === "hold")
      await new Promise((resolve) => {
        context.signal.addEventListener("abort", resolve, { once: true });
        void this.world.hold.then(resolve);
      });
    if (input.mode === "forbidden") await context.tool(CHAT, "chat", {});
    const output = await context.tool(GRANT, "grant", { amount: input.amount });
    if (input.mode === "fail") throw new AgentException(AgentFailure.NOT_FOUND);
    const result = AgentResult.success(literal(`granted ${output.granted}`));
    return input.mode === "partial" ? result.partial() : result;
  }
}

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

const newFolder = async (): Promise<string> => {
  const folder = await mkdtemp(join(tmpdir(), "system-events-"));
  folders.push(folder);
  return folder;
};

interface Harness {
  readonly executor: EventExecutor;
  readonly journal: FileAgentJournal;
  readonly world: World;
  readonly online: Set<string>;
  readonly pool: BoundedPool;
  readonly states: string[];
}

const harness = async (
  folder: string,
  online: string[] = ["alex", "steve"],
  limits = { running: 2, queued: 64 },
  /** The reward workflow's owner feature and the features players have (live). */
  owned?: { readonly owner: string; readonly features: Set<string> },
): Promise<Harness> => {
  const world = new World();
  const journal = await FileAgentJournal.open({ folder });
  const grant = Tool.of(GRANT, async (input) => {
    if (world.deferNext > 0) {
      world.deferNext--;
      world.onDefer();
      throw new NoEffectException(AgentFailure.EFFECT_DEFERRED.with("the world is away"));
    }
    if (world.refuseNext > 0) {
      world.refuseNext--;
      throw new NoEffectException(AgentFailure.NOT_FOUND);
    }
    world.grants++;
    return { granted: input.amount };
  }).allowInEvents();
  const chat = Tool.of(CHAT, async () => ({})).asReadOnly();
  const engine = new AgentEngine({ steps: new JournalStepRunner(journal) });
  engine.registerEventType("test:advancement");
  engine.registerEventType("test:other");
  engine.registerModule(
    new RewardModule(
      REWARD,
      ["test:advancement"],
      world,
      [grant, chat] as unknown as AnyTool[],
      owned?.owner,
    ),
  );
  engine.registerModule(new RewardModule(OTHER, ["test:other"], world, [grant] as unknown as AnyTool[]));
  engine.start();
  const states: string[] = [];
  const update = journal.updateEvent.bind(journal);
  journal.updateEvent = async (id, change) => {
    if (change.state !== undefined) states.push(`${id}:${change.state}`);
    return update(id, change);
  };
  const players = new Set(online);
  const pool = new BoundedPool("event", limits);
  const executor = new EventExecutor({
    engine,
    journal,
    pool,
    rules: () => new EventRules([{ eventType: "test:advancement", module: "test:reward" }]),
    isOnline: (playerId) => players.has(playerId),
    features: () => owned?.features ?? new Set(),
    deferMillis: { initial: 20, max: 80 },
    onDeferred: (task) => world.told.push(task.id),
  });
  return { executor, journal, world, online: players, pool, states };
};

const event = (
  id: string,
  input: RewardInput,
  playerId = "alex",
  eventType = "test:advancement",
): EventSubmission => ({
  id,
  eventType,
  action: REWARD.action(input),
  playerId,
});

const resultOf = (journal: FileAgentJournal, id: string): AgentResult => {
  const decoded = AgentResult.CODEC.decode(journal.event(id)?.result);
  if (!decoded.success) throw new Error(decoded.error);
  return decoded.value;
};

describe("EventExecutor", () => {
  it("stores an accepted event QUEUED, then runs it RUNNING → SUCCEEDED with its result", async () => {
    const { executor, journal, world, states } = await harness(await newFolder());
    const admission = await executor.submit(event("e1", { amount: 5 }));
    expect(admission.accepted && admission.task.state).toBe(State.QUEUED);
    await executor.whenIdle();
    expect(states).toEqual(["e1:RUNNING", "e1:SUCCEEDED"]);
    expect(journal.event("e1")?.attempts).toBe(1);
    expect(resultOf(journal, "e1").message).toEqual(literal("granted 5"));
    expect(world.grants).toBe(1);
    await journal.close();
  });

  it("records FAILED and PARTIALLY_SUCCEEDED from the workflow's result", async () => {
    const { executor, journal } = await harness(await newFolder());
    await executor.submit(event("bad", { amount: 1, mode: "fail" }));
    await executor.submit(event("half", { amount: 1, mode: "partial" }, "steve"));
    await executor.whenIdle();
    expect(journal.event("bad")?.state).toBe(State.FAILED);
    expect(resultOf(journal, "bad").failure?.code).toBe("NOT_FOUND");
    expect(journal.event("half")?.state).toBe(State.PARTIALLY_SUCCEEDED);
    await journal.close();
  });

  it("keeps a task WAITING while its feature is off for the player, and runs it once the feature is back", async () => {
    const features = new Set<string>();
    const { executor, journal, world } = await harness(await newFolder(), ["alex"], undefined, {
      owner: "test:rewards",
      features,
    });
    await executor.submit(event("f1", { amount: 4 }));
    await executor.whenIdle();
    expect(journal.event("f1")?.state).toBe(State.WAITING);
    expect(world.grants).toBe(0);
    features.add("test:rewards");
    await executor.resumeWaiting();
    await executor.whenIdle();
    expect(journal.event("f1")?.state).toBe(State.SUCCEEDED);
    expect(world.grants).toBe(1);
    await journal.close();
  });

  it("keeps an offline player's event WAITING and runs it when the player joins", async () => {
    const { executor, journal, world, online, states } = await harness(await newFolder(), []);
    await executor.submit(event("w1", { amount: 2 }));
    await executor.whenIdle();
    expect(journal.event("w1")?.state).toBe(State.WAITING);
    expect(world.grants).toBe(0);
    await executor.playerJoined("alex");
    await executor.whenIdle();
    expect(journal.event("w1")?.state).toBe(State.WAITING);
    online.add("alex");
    await executor.playerJoined("alex");
    await executor.whenIdle();
    expect(journal.event("w1")?.state).toBe(State.SUCCEEDED);
    expect(states).toEqual(["w1:WAITING", "w1:RUNNING", "w1:SUCCEEDED"]);
    expect(world.grants).toBe(1);
    await journal.close();
  });

  it("refuses events no rule authorizes and stores nothing for them", async () => {
    const { executor, journal, world } = await harness(await newFolder());
    const undeclared = await executor.submit(event("r1", { amount: 1 }, "alex", "test:other"));
    const unruled = await executor.submit({
      id: "r2",
      eventType: "test:other",
      action: OTHER.action({ amount: 1 }),
      playerId: "alex",
    });
    for (const admission of [undeclared, unruled]) {
      expect(admission.accepted).toBe(false);
      expect(!admission.accepted && !admission.duplicate && admission.failure.code).toBe("PERMISSION_DENIED");
    }
    expect(journal.event("r1")).toBeUndefined();
    expect(journal.event("r2")).toBeUndefined();
    expect(world.runs).toEqual([]);
    await journal.close();
  });

  it("stores and runs an event id once, however often it is offered", async () => {
    const { executor, journal, world } = await harness(await newFolder());
    const [first, second] = await Promise.all([
      executor.submit(event("d1", { amount: 3 })),
      executor.submit(event("d1", { amount: 3 })),
    ]);
    await executor.whenIdle();
    const third = await executor.submit(event("d1", { amount: 3 }));
    expect([first.accepted, second.accepted, third.accepted].filter(Boolean)).toHaveLength(1);
    expect(!third.accepted && third.duplicate && third.existing?.state).toBe(State.SUCCEEDED);
    expect(world.grants).toBe(1);
    expect(journal.event("d1")?.state).toBe(State.SUCCEEDED);
    await journal.close();
  });

  it("lets only tools allowed in events run: another tool fails the task with TOOL_NOT_ALLOWED", async () => {
    const { executor, journal, world } = await harness(await newFolder());
    await executor.submit(event("t1", { amount: 1, mode: "forbidden" }));
    await executor.whenIdle();
    expect(journal.event("t1")?.state).toBe(State.FAILED);
    expect(resultOf(journal, "t1").failure?.code).toBe("TOOL_NOT_ALLOWED");
    expect(world.grants).toBe(0);
    await journal.close();
  });

  it("runs one task per player at a time, in arrival order", async () => {
    const { executor, journal, world } = await harness(await newFolder());
    await executor.submit(event("p1", { amount: 1, mode: "hold" }));
    await executor.submit(event("p2", { amount: 2 }));
    await executor.submit(event("s1", { amount: 9 }, "steve"));
    await vi.waitFor(() => expect(world.runs).toHaveLength(2));
    expect(world.runs).toEqual([`${eventRequestId("p1")}:1`, `${eventRequestId("s1")}:9`]);
    world.release();
    await executor.whenIdle();
    expect(world.runs.at(-1)).toBe(`${eventRequestId("p2")}:2`);
    await journal.close();
  });

  it("holds more tasks than the event pool admits and runs them all as slots free", async () => {
    const players = Array.from({ length: 6 }, (_, index) => `player${index}`);
    const { executor, journal, world } = await harness(await newFolder(), players, { running: 1, queued: 1 });
    for (const [index, playerId] of players.entries())
      expect((await executor.submit(event(`b${index}`, { amount: index }, playerId))).accepted).toBe(true);
    await executor.whenIdle();
    expect(world.grants).toBe(6);
    for (const index of players.keys()) expect(journal.event(`b${index}`)?.state).toBe(State.SUCCEEDED);
    await journal.close();
  });

  it("leaves a task RUNNING when shut down mid-run, and the next start resumes it", async () => {
    const folder = await newFolder();
    const first = await harness(folder);
    await first.executor.submit(event("s1", { amount: 4, mode: "hold" }));
    await vi.waitFor(() => expect(first.world.runs).toHaveLength(1));
    await first.pool.shutdown();
    await first.executor.whenIdle();
    expect(first.journal.event("s1")?.state).toBe(State.RUNNING);
    await first.journal.close();
    const second = await harness(folder);
    second.world.release();
    await second.executor.start();
    await second.executor.whenIdle();
    expect(second.journal.event("s1")?.state).toBe(State.SUCCEEDED);
    expect(second.journal.event("s1")?.attempts).toBe(2);
    await second.journal.close();
  });

  it("resumes unfinished tasks at start with their persisted policy and completed step receipts", async () => {
    const folder = await newFolder();
    const persisted: ExecutionPolicy = { ...POLICY, toolCalls: 2, ttlMillis: 12_345 };
    const seed = await FileAgentJournal.open({ folder });
    const base = { type: "test:reward", policy: EXECUTION_POLICY_CODEC.encode(persisted), attempts: 1 };
    await seed.putEvent({ ...base, id: "x1", input: { amount: 7 }, playerId: "alex", state: State.RUNNING });
    await seed.putEvent({ ...base, id: "x2", input: { amount: 8 }, playerId: "steve", state: State.QUEUED });
    await seed.putEvent({ ...base, id: "x3", input: { amount: 9 }, playerId: "notch", state: State.WAITING });
    await seed.putEvent({
      ...base,
      id: "x4",
      input: { amount: 1 },
      playerId: "steve",
      state: State.SUCCEEDED,
    });
    // The crashed run of x1 had already granted its reward durably.
    await seed.beginStep(`${eventRequestId("x1")}/grant`, "test:grant");
    await seed.completeStep(`${eventRequestId("x1")}/grant`, { granted: 7 });
    await seed.close();

    const { executor, journal, world } = await harness(folder);
    await executor.start();
    await executor.whenIdle();
    expect(world.policies).toHaveLength(2);
    for (const policy of world.policies) expect(policy).toEqual(persisted);
    expect(resultOf(journal, "x1").message).toEqual(literal("granted 7"));
    expect(world.grants).toBe(1); // only x2's grant ran; x1's was replayed from its DONE receipt
    expect(journal.event("x1")?.state).toBe(State.SUCCEEDED);
    expect(journal.event("x2")?.state).toBe(State.SUCCEEDED);
    expect(journal.event("x3")?.state).toBe(State.WAITING);
    expect(world.runs).not.toContain(`${eventRequestId("x4")}:1`);
    await journal.close();
  });

  it("reports an interrupted non-idempotent write step as EFFECT_UNKNOWN on resume and never reruns it", async () => {
    const folder = await newFolder();
    const seed = await FileAgentJournal.open({ folder });
    await seed.putEvent({
      id: "u1",
      type: "test:reward",
      input: { amount: 3 },
      playerId: "alex",
      policy: EXECUTION_POLICY_CODEC.encode(POLICY),
      state: State.RUNNING,
      attempts: 1,
    });
    await seed.beginStep(`${eventRequestId("u1")}/grant`, "test:grant");
    await seed.close();
    const { executor, journal, world } = await harness(folder);
    await executor.start();
    await executor.whenIdle();
    expect(journal.event("u1")?.state).toBe(State.UNCONFIRMED);
    expect(resultOf(journal, "u1").failure?.code).toBe("EFFECT_UNKNOWN");
    expect(executor.unconfirmed().map((task) => [task.id, task.playerId, task.input])).toEqual([
      ["u1", "alex", { amount: 3 }],
    ]);
    expect(world.grants).toBe(0);
    await journal.close();
    // Held across restarts: not resumed, still listed, still never granted.
    const again = await harness(folder);
    await again.executor.start();
    await again.executor.whenIdle();
    expect(again.executor.unconfirmed().map((task) => task.id)).toEqual(["u1"]);
    expect(again.world.grants).toBe(0);
    await again.journal.close();
  });

  const unconfirmedTask = async (folder: string, id: string): Promise<void> => {
    const seed = await FileAgentJournal.open({ folder });
    await seed.putEvent({
      id,
      type: "test:reward",
      input: { amount: 6 },
      playerId: "alex",
      policy: EXECUTION_POLICY_CODEC.encode(POLICY),
      state: State.RUNNING,
      attempts: 1,
    });
    await seed.beginStep(`${eventRequestId(id)}/grant`, "test:grant");
    await seed.close();
  };

  it("keeps a deferred task WAITING, tells its player once, and runs it again with backoff until it is done", async () => {
    const { executor, journal, world, states } = await harness(await newFolder());
    world.deferNext = 3;
    await executor.submit(event("d1", { amount: 4 }));
    await expect.poll(() => journal.event("d1")?.state, { timeout: 5_000 }).toBe(State.SUCCEEDED);
    expect(states.filter((state) => state === "d1:WAITING")).toHaveLength(3);
    expect(journal.event("d1")?.attempts).toBe(4);
    expect(world.grants).toBe(1);
    expect(world.told).toEqual(["d1"]);
    expect(executor.unconfirmed()).toEqual([]);
    await journal.close();
  });

  it("runs a deferred task of a player who left at their next join", async () => {
    const { executor, journal, world, online } = await harness(await newFolder());
    world.deferNext = 1;
    world.onDefer = () => online.delete("steve");
    await executor.submit(event("d2", { amount: 2 }, "steve"));
    await expect.poll(() => journal.event("d2")?.state).toBe(State.WAITING);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(journal.event("d2")?.state).toBe(State.WAITING);
    expect(world.grants).toBe(0);
    online.add("steve");
    await executor.playerJoined("steve");
    await executor.whenIdle();
    expect(journal.event("d2")?.state).toBe(State.SUCCEEDED);
    expect(world.grants).toBe(1);
    await journal.close();
  });

  it("runs a FAILED task again in place for an admin: a done step replays, a refused one runs anew", async () => {
    const { executor, journal, world } = await harness(await newFolder());
    world.refuseNext = 1;
    await executor.submit(event("f1", { amount: 3 }));
    await executor.whenIdle();
    expect(journal.event("f1")?.state).toBe(State.FAILED);
    expect(await executor.redeliver("f1")).toBe("f1");
    await executor.whenIdle();
    expect(journal.event("f1")?.state).toBe(State.SUCCEEDED);
    expect(world.grants).toBe(1);
    // a task that failed after its grant was done: run again, the grant replays and is not given twice
    await executor.submit(event("f2", { amount: 5, mode: "fail" }));
    await executor.whenIdle();
    await executor.redeliver("f2");
    await executor.whenIdle();
    expect(journal.event("f2")?.state).toBe(State.FAILED);
    expect(world.grants).toBe(2);
    await expect(executor.redeliver("e-unknown")).rejects.toThrow("NOT_FOUND");
    await journal.close();
  });

  it("redelivers an unconfirmed task once, as a new task with new step keys, and resolves the original", async () => {
    const folder = await newFolder();
    await unconfirmedTask(folder, "r1");
    const { executor, journal, world } = await harness(folder);
    await executor.start();
    await executor.whenIdle();
    const redelivered = await executor.redeliver("r1");
    await executor.whenIdle();
    expect(redelivered).toBe("r1/redeliver");
    expect(world.grants).toBe(1);
    expect(world.runs.at(-1)).toBe(`${eventRequestId("r1/redeliver")}:6`);
    expect(journal.event("r1/redeliver")?.state).toBe(State.SUCCEEDED);
    expect(journal.event("r1")?.state).toBe(State.FAILED);
    expect(executor.unconfirmed()).toEqual([]);
    await expect(executor.redeliver("r1")).rejects.toThrow("NOT_FOUND");
    expect(world.grants).toBe(1);
    await journal.close();
  });

  it("marks an unconfirmed task done without running anything; the workflow settles its own records", async () => {
    const folder = await newFolder();
    await unconfirmedTask(folder, "m1");
    const { executor, journal, world } = await harness(folder);
    await executor.start();
    await executor.whenIdle();
    await executor.markDone("m1");
    expect(journal.event("m1")?.state).toBe(State.SUCCEEDED);
    expect(world.confirmed).toEqual(["alex:6"]);
    expect(executor.unconfirmed()).toEqual([]);
    await expect(executor.markDone("m1")).rejects.toThrow("NOT_FOUND");
    await expect(executor.markDone("nope")).rejects.toThrow("NOT_FOUND");
    expect(world.grants).toBe(0);
    await journal.close();
  });
});
