import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentException } from "../../src/agent/agent-exception.js";
import type { AgentJournal } from "../../src/agent/storage/agent-journal.js";
import { JournalStepRunner } from "../../src/agent/storage/journal-step-runner.js";
import { type AnyTool, Tool } from "../../src/agent/tool/tool.js";
import { ToolType } from "../../src/agent/tool/tool-type.js";
import { codec } from "../../src/util/codec.js";

/** How the conformance suite reaches one journal implementation. */
export interface JournalBackend {
  /** A fresh, empty journal. */
  fresh(): Promise<AgentJournal>;
  /** The same journal opened again after `close()` (a restart). */
  reopen(): Promise<AgentJournal>;
  /** A second journal open on the same data at the same time (another server), when the backend allows it. */
  second?(): Promise<AgentJournal>;
}

const event = (id: string, playerId = "p1") => ({
  id,
  type: "test:reward",
  input: { amount: 1 },
  playerId,
  policy: { steps: 4 },
  state: "QUEUED" as const,
  attempts: 0,
});

const GRANT = ToolType.of(
  "test:grant",
  codec(z.object({ amount: z.number() })),
  codec(z.object({ total: z.number() })),
);

/** The behaviour every AgentJournal shares, whatever it stores in (files, PostgreSQL). */
export const describeJournalConformance = (name: string, backend: () => JournalBackend): void => {
  describe(`${name}: journal conformance`, () => {
    it("keeps receipts and events across a reopen, with copies on read", async () => {
      const open = backend();
      const journal = await open.fresh();
      await journal.beginStep("r1/pay", "test:pay");
      await journal.completeStep("r1/pay", { paid: 3 });
      await journal.beginStep("r1/refuse", "test:pay");
      await journal.failStep("r1/refuse", { code: "BUSY", key: "k", args: ["a"], noEffect: true });
      await journal.putEvent(event("e1"));
      const read = journal.event("e1");
      (read?.input as { amount: number }).amount = 99;
      expect(journal.event("e1")?.input).toEqual({ amount: 1 });
      await journal.close();
      const reopened = await open.reopen();
      expect(reopened.step("r1/pay")).toMatchObject({ state: "DONE", tool: "test:pay", result: { paid: 3 } });
      expect(reopened.step("r1/refuse")).toMatchObject({
        state: "FAILED",
        failure: { code: "BUSY", args: ["a"], noEffect: true },
      });
      expect(reopened.unfinishedEvents().map((task) => task.id)).toEqual(["e1"]);
      await reopened.close();
    });

    it("dedupes events by id, including after a restart", async () => {
      const open = backend();
      const journal = await open.fresh();
      expect((await journal.putEvent(event("e1"))).created).toBe(true);
      expect((await journal.putEvent({ ...event("e1"), input: { amount: 5 } })).created).toBe(false);
      await journal.close();
      const reopened = await open.reopen();
      const third = await reopened.putEvent(event("e1"));
      expect(third).toMatchObject({ created: false, existing: { input: { amount: 1 } } });
      await reopened.close();
    });

    it("appends a step once: a duplicate append is a no-op returning the first record", async () => {
      const open = backend();
      const journal = await open.fresh();
      const [first, again] = await Promise.all([
        journal.appendStep("r1/give", "test:give"),
        journal.appendStep("r1/give", "test:other"),
      ]);
      expect(first).toMatchObject({ created: true, receipt: { state: "RUNNING", tool: "test:give" } });
      expect(again).toMatchObject({ created: false, receipt: { state: "RUNNING", tool: "test:give" } });
      await journal.completeStep("r1/give", { given: 1 });
      const late = await journal.appendStep("r1/give", "test:give");
      expect(late).toMatchObject({ created: false, receipt: { state: "DONE", result: { given: 1 } } });
      await journal.close();
      const reopened = await open.reopen();
      expect(reopened.step("r1/give")).toMatchObject({ state: "DONE", tool: "test:give" });
      await reopened.close();
    });

    it("changes event tasks in order and lists them by state, oldest first", async () => {
      const open = backend();
      const journal = await open.fresh();
      for (const id of ["a", "b", "c", "d"]) await journal.putEvent(event(id, id === "d" ? "p2" : "p1"));
      await Promise.all([
        journal.updateEvent("a", { state: "RUNNING" }),
        journal.updateEvent("a", { attempts: 1 }),
      ]);
      await journal.updateEvent("b", { state: "UNCONFIRMED", result: { why: "effect unknown" } });
      await journal.updateEvent("c", { state: "SUCCEEDED" });
      const missing = await journal.updateEvent("zz", { state: "FAILED" }).catch((error: unknown) => error);
      expect((missing as AgentException).failure().code).toBe("NOT_FOUND");
      await journal.close();
      const reopened = await open.reopen();
      expect(reopened.event("a")).toMatchObject({ state: "RUNNING", attempts: 1 });
      expect(reopened.unfinishedEvents().map((task) => task.id)).toEqual(["a", "d"]);
      expect(reopened.unconfirmedEvents()).toMatchObject([{ id: "b", result: { why: "effect unknown" } }]);
      expect(reopened.recentEvents(10, "p2").map((task) => task.id)).toEqual(["d"]);
      expect(reopened.recentEvents(2)).toHaveLength(2);
      await reopened.close();
    });

    it("runs a write step's effect once and replays its result after a restart", async () => {
      const open = backend();
      let calls = 0;
      const grant = Tool.of(GRANT, async (input) => {
        calls++;
        return { total: input.amount * 10 };
      }) as unknown as AnyTool;
      const effect = () => grant.handler({ amount: 2 }, undefined as never);
      const journal = await open.fresh();
      expect(await new JournalStepRunner(journal).run("r1/grant", grant, {}, effect)).toEqual({ total: 20 });
      await journal.close();
      const reopened = await open.reopen();
      expect(await new JournalStepRunner(reopened).run("r1/grant", grant, {}, effect)).toEqual({ total: 20 });
      expect(calls).toBe(1);
      await reopened.close();
    });

    it("commits concurrent writes in groups, each durable on resolve", async () => {
      const open = backend();
      const journal = await open.fresh();
      await Promise.all(
        Array.from({ length: 64 }, (_, index) => journal.beginStep(`c/${index}`, "test:pay")),
      );
      await journal.close();
      const reopened = await open.reopen();
      for (let index = 0; index < 64; index++) expect(reopened.step(`c/${index}`)?.state).toBe("RUNNING");
      await reopened.close();
    });

    it("lets one of two servers create a step; the other gets the first record and never runs the effect", async (context) => {
      const open = backend();
      if (open.second === undefined) return context.skip();
      const one = await open.fresh();
      const two = await open.second();
      let calls = 0;
      const give = Tool.of(GRANT, async (input) => {
        calls++;
        return { total: input.amount };
      }) as unknown as AnyTool;
      const run = (journal: AgentJournal) =>
        new JournalStepRunner(journal)
          .run("event:e1/give", give, {}, () => give.handler({ amount: 1 }, undefined as never))
          .then(
            (value) => ({ value }),
            (error: unknown) => ({ failure: AgentException.failure(error).code }),
          );
      const outcomes = await Promise.all([run(one), run(two)]);
      expect(calls).toBe(1);
      expect(outcomes).toContainEqual({ value: { total: 1 } });
      // the loser got the first record: DONE (replayed) or still RUNNING (the outcome is not its to know)
      for (const outcome of outcomes)
        expect([{ value: { total: 1 } }, { failure: "EFFECT_UNKNOWN" }]).toContainEqual(outcome);
      await Promise.all([one.close(), two.close()]);
    });
  });
};
