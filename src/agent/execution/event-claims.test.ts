import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryRunClaims, UNREACHABLE } from "../../../test/support/memory-run-claims.js";
import { FileAgentJournal } from "../../data/store/file-agent-journal.js";
import { codec } from "../../util/codec.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import { AbstractAgentModule } from "../module/abstract-agent-module.js";
import { ActionType } from "../module/action-type.js";
import { JournalStepRunner } from "../storage/journal-step-runner.js";
import { State } from "../storage/state.js";
import { literal } from "../text.js";
import { type AnyTool, Tool } from "../tool/tool.js";
import { ToolType } from "../tool/tool-type.js";
import { AgentEngine } from "./agent-engine.js";
import { BoundedPool } from "./bounded-pool.js";
import { EventExecutor, eventRequestId } from "./event-executor.js";
import { EventRules } from "./event-rules.js";
import type { ExecutionContext } from "./execution-context.js";
import { SIMPLE_POLICY } from "./policy-defaults.js";

const PAY = ActionType.of<{ hold: boolean }>("test:pay", codec(z.object({ hold: z.boolean() })));
const GIVE = ToolType.of("test:give", codec(z.object({})), codec(z.object({})));

class PayModule extends AbstractAgentModule<{ hold: boolean }> {
  runs = 0;
  constructor(
    tools: readonly AnyTool[],
    private readonly held: { entered?: () => void },
  ) {
    super({
      action: PAY,
      description: "Pays.",
      tools,
      policy: { ...SIMPLE_POLICY, writeSteps: 1, reactIterations: 0 },
      interactive: false,
      event: true,
      eventTypes: ["test:event"],
    });
  }
  override async run(input: { hold: boolean }, context: ExecutionContext): Promise<AgentResult> {
    this.runs++;
    if (input.hold)
      await new Promise((resolve) => {
        context.signal.addEventListener("abort", resolve, { once: true });
        this.held.entered?.();
      });
    else await context.tool(GIVE, "give", {});
    return AgentResult.success(literal("paid"));
  }
}

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

const setup = async (retryMillis?: number) => {
  const folder = await mkdtemp(join(tmpdir(), "system-claims-"));
  folders.push(folder);
  const journal = await FileAgentJournal.open({ folder });
  const claims = new MemoryRunClaims(journal);
  const held: { entered?: () => void } = {};
  let gives = 0;
  const give = Tool.of(GIVE, async () => {
    gives++;
    return {};
  }).allowInEvents();
  const module = new PayModule([give] as unknown as AnyTool[], held);
  const engine = new AgentEngine({
    steps: new JournalStepRunner(journal),
    isStorageUnavailable: (error) => error instanceof Error && error.message === UNREACHABLE,
  });
  engine.registerEventType("test:event");
  engine.registerModule(module);
  engine.start();
  const executor = new EventExecutor({
    engine,
    journal,
    pool: new BoundedPool("event", { running: 2, queued: 8 }),
    rules: () => new EventRules([{ eventType: "test:event", module: "test:pay" }]),
    isOnline: () => true,
    features: () => new Set(),
    claims,
    ...(retryMillis === undefined ? {} : { retryMillis }),
  });
  const submit = (id: string, hold = false) =>
    executor.submit({ id, eventType: "test:event", action: PAY.action({ hold }), playerId: "alex" });
  return { journal, claims, executor, module, held, gives: () => gives, submit };
};

describe("EventExecutor with run claims (servers sharing a journal)", () => {
  it("leaves a task another server holds; runs it once, with the claim's journal, when the player joins after", async () => {
    const { journal, claims, executor, module, gives, submit } = await setup();
    claims.elsewhere.add(eventRequestId("e1"));
    await submit("e1");
    await executor.whenIdle();
    expect(module.runs).toBe(0);
    expect(journal.event("e1")?.state).toBe(State.QUEUED);

    claims.elsewhere.delete(eventRequestId("e1"));
    await executor.playerJoined("alex");
    await executor.whenIdle();
    expect(journal.event("e1")?.state).toBe(State.SUCCEEDED);
    expect([module.runs, gives()]).toEqual([1, 1]);
    // RUNNING, the give step's append and completion, SUCCEEDED: all through the claim
    expect(claims.writes.get(eventRequestId("e1"))).toBe(4);
    expect(claims.released).toEqual([eventRequestId("e1")]);
  });

  it("stops a run whose claim was lost, leaving it RUNNING for the server that took it over", async () => {
    const { journal, claims, executor, held, submit } = await setup();
    const entered = new Promise<void>((resolve) => {
      held.entered = resolve;
    });
    await submit("e2", true);
    await entered;
    claims.lose(eventRequestId("e2"));
    await executor.whenIdle();
    expect(journal.event("e2")?.state).toBe(State.RUNNING);
    expect(claims.released).toEqual([eventRequestId("e2")]);
  });

  it("offers a task left to another server again after a while, without a join (its holder died)", async () => {
    const { journal, claims, executor, module, gives, submit } = await setup(20);
    claims.elsewhere.add(eventRequestId("e3"));
    await submit("e3");
    await executor.whenIdle();
    expect(module.runs).toBe(0);
    // the holder's claim expired
    claims.elsewhere.delete(eventRequestId("e3"));
    await until(() => journal.event("e3")?.state === State.SUCCEEDED);
    expect([module.runs, gives()]).toEqual([1, 1]);
  });

  it("keeps a task whose journal was unreachable, and ends it later without giving twice", async () => {
    const { journal, claims, module, gives, submit } = await setup(20);
    // the give happens; its DONE receipt cannot be written; the task cannot end either
    claims.unreachable.push("completeStep");
    await submit("e4");
    await until(() => journal.event("e4")?.state === State.SUCCEEDED);
    expect(gives()).toBe(1);
    expect(module.runs).toBe(2);
    expect(journal.step(`${eventRequestId("e4")}/give`)?.state).toBe(State.DONE);
  });

  it("retries a task whose RUNNING mark could not be written, and gives once", async () => {
    const { journal, claims, gives, submit } = await setup(20);
    claims.unreachable.push("updateEvent");
    // the first run cannot even mark the task RUNNING: nothing ran; the next run does it all
    await submit("e5");
    await until(() => journal.event("e5")?.state === State.SUCCEEDED);
    expect(gives()).toBe(1);
  });

  it("refuses an event the journal cannot take now as storage unavailable, not as a broken workflow", async () => {
    const { journal, gives, submit } = await setup(20);
    const putEvent = journal.putEvent.bind(journal);
    journal.putEvent = () => Promise.reject(new Error(UNREACHABLE));
    const admission = await submit("e6");
    expect(admission).toMatchObject({ accepted: false, duplicate: false });
    expect(admission.accepted || admission.duplicate ? undefined : admission.failure.code).toBe(
      AgentFailure.STORAGE_UNAVAILABLE.code,
    );
    // the database back: the same event is taken and runs once
    journal.putEvent = putEvent;
    expect((await submit("e6")).accepted).toBe(true);
    await until(() => journal.event("e6")?.state === State.SUCCEEDED);
    expect(gives()).toBe(1);
  });
});

/** Polls a condition (the executor's retry timers run on their own). */
const until = async (condition: () => boolean): Promise<void> => {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
