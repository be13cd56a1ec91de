import { appendFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentException } from "../../agent/agent-exception.js";
import { AgentFailure } from "../../agent/agent-failure.js";
import { JournalStepRunner } from "../../agent/storage/journal-step-runner.js";
import { NoEffectException } from "../../agent/storage/no-effect.js";
import { type AnyTool, Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { codec } from "../../util/codec.js";
import { FileAgentJournal } from "./file-agent-journal.js";
import { encodeFrame } from "./record-frame.js";

const GRANT = ToolType.of(
  "test:grant",
  codec(z.object({ amount: z.number() })),
  codec(z.object({ total: z.number() })),
);

let folder: string;
let calls: number;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "runner-"));
  calls = 0;
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const grant = Tool.of(GRANT, async (input) => {
  calls++;
  return { total: input.amount * 10 };
}) as unknown as AnyTool;
const idempotentGrant = Tool.of(GRANT, async (input) => {
  calls++;
  return { total: input.amount };
}).asIdempotent() as unknown as AnyTool;

const failureOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return AgentException.failure(error).code;
  }
  return "none";
};

describe("JournalStepRunner", () => {
  it("replays a DONE receipt after a restart through the output codec without calling the handler", async () => {
    const journal = await FileAgentJournal.open({ folder });
    const runner = new JournalStepRunner(journal);
    const effect = () => grant.handler({ amount: 2 }, undefined as never);
    expect(await runner.run("r1/grant", grant, { amount: 2 }, effect)).toEqual({ total: 20 });
    await journal.close();
    const reopened = await FileAgentJournal.open({ folder });
    const replayed = await new JournalStepRunner(reopened).run("r1/grant", grant, { amount: 2 }, effect);
    expect(replayed).toEqual({ total: 20 });
    expect(calls).toBe(1);
    await reopened.close();
  });

  it("runs a RUNNING idempotent step again after a crash", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r1/set", "test:grant");
    await journal.close();
    const reopened = await FileAgentJournal.open({ folder });
    const runner = new JournalStepRunner(reopened);
    const effect = () => idempotentGrant.handler({ amount: 3 }, undefined as never);
    expect(await runner.run("r1/set", idempotentGrant, { amount: 3 }, effect)).toEqual({ total: 3 });
    expect(calls).toBe(1);
    expect(reopened.step("r1/set")?.state).toBe("DONE");
    await reopened.close();
  });

  it("reports EFFECT_UNKNOWN for a RUNNING non-idempotent step and never runs it again", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r1/grant", "test:grant");
    await journal.close();
    const reopened = await FileAgentJournal.open({ folder });
    const runner = new JournalStepRunner(reopened);
    const effect = () => grant.handler({ amount: 1 }, undefined as never);
    expect(await failureOf(runner.run("r1/grant", grant, { amount: 1 }, effect))).toBe("EFFECT_UNKNOWN");
    expect(await failureOf(runner.run("r1/grant", grant, { amount: 1 }, effect))).toBe("EFFECT_UNKNOWN");
    expect(calls).toBe(0);
    await reopened.close();
  });

  it("keeps a timed-out step RUNNING (its outcome is unknown) but records a refusal as FAILED", async () => {
    const journal = await FileAgentJournal.open({ folder });
    const runner = new JournalStepRunner(journal);
    const timeout = async () => {
      throw new AgentException(AgentFailure.TIMEOUT);
    };
    expect(await failureOf(runner.run("r1/a", grant, {}, timeout))).toBe("TIMEOUT");
    expect(journal.step("r1/a")?.state).toBe("RUNNING");
    const refuse = async () => {
      throw new AgentException(AgentFailure.NOT_FOUND.with("x"));
    };
    expect(await failureOf(runner.run("r1/b", grant, {}, refuse))).toBe("NOT_FOUND");
    expect(journal.step("r1/b")).toMatchObject({
      state: "FAILED",
      failure: { code: "NOT_FOUND", args: ["x"] },
    });
    expect(await failureOf(runner.run("r1/b", grant, {}, async () => ({ total: 1 })))).toBe("NOT_FOUND");
    await journal.close();
  });

  it("lets a non-idempotent step whose handler refused without effect run again, also after a restart", async () => {
    const journal = await FileAgentJournal.open({ folder });
    const refuse = async () => {
      throw new NoEffectException(AgentFailure.NOT_FOUND.with("room"));
    };
    expect(await failureOf(new JournalStepRunner(journal).run("r1/grant", grant, {}, refuse))).toBe(
      "NOT_FOUND",
    );
    expect(journal.step("r1/grant")).toMatchObject({ state: "FAILED", failure: { noEffect: true } });
    await journal.close();
    const reopened = await FileAgentJournal.open({ folder });
    expect(reopened.step("r1/grant")?.failure?.noEffect).toBe(true);
    const runner = new JournalStepRunner(reopened);
    const effect = () => grant.handler({ amount: 1 }, undefined as never);
    expect(await runner.run("r1/grant", grant, { amount: 1 }, effect)).toEqual({ total: 10 });
    expect(await runner.run("r1/grant", grant, { amount: 1 }, effect)).toEqual({ total: 10 });
    expect(calls).toBe(1);
    await reopened.close();
  });

  it("never runs a step whose stored receipt has an unknown state (EFFECT_UNKNOWN)", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.close();
    const log = (await readdir(folder)).find((name) => name.endsWith(".log")) as string;
    const record = {
      t: "step",
      key: "r1/grant",
      tool: "test:grant",
      state: "MAYBE",
      createdAt: 1,
      updatedAt: 1,
    };
    await appendFile(join(folder, log), encodeFrame(Buffer.from(JSON.stringify(record))));
    const reopened = await FileAgentJournal.open({ folder });
    const runner = new JournalStepRunner(reopened);
    const effect = () => idempotentGrant.handler({ amount: 1 }, undefined as never);
    expect(await failureOf(runner.run("r1/grant", idempotentGrant, { amount: 1 }, effect))).toBe(
      "EFFECT_UNKNOWN",
    );
    expect(calls).toBe(0);
    await reopened.close();
  });

  it("refuses a stored result the output codec no longer accepts instead of running again", async () => {
    const journal = await FileAgentJournal.open({ folder });
    await journal.beginStep("r1/grant", "test:grant");
    await journal.completeStep("r1/grant", { total: "many" });
    const runner = new JournalStepRunner(journal);
    const effect = () => grant.handler({ amount: 1 }, undefined as never);
    expect(await failureOf(runner.run("r1/grant", grant, { amount: 1 }, effect))).toBe("EFFECT_UNKNOWN");
    expect(calls).toBe(0);
    await journal.close();
  });
});
