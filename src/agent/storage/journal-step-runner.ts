import type { Json } from "../../util/codec.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { AnyTool } from "../tool/tool.js";
import type { AgentJournal } from "./agent-journal.js";
import { hadNoEffect } from "./no-effect.js";
import { State } from "./state.js";
import type { StepRunner } from "./step-runner.js";

/** Failures after which the handler may still be running or may have applied its effect: outcome unknown. */
const UNSETTLED = new Set([AgentFailure.TIMEOUT.code, AgentFailure.CANCELLED.code]);

/**
 * Runs write steps over the journal. DONE replays the stored result through the tool's output codec without
 * calling the handler; a RUNNING receipt (a crash or timeout mid-effect) runs again only for idempotent tools
 * and is EFFECT_UNKNOWN otherwise, never run again. A FAILED receipt of a non-idempotent tool replays its
 * failure, unless the handler refused with a NoEffectException (recorded as `noEffect`): that step may run again.
 */
export class JournalStepRunner implements StepRunner {
  constructor(
    private readonly journal: AgentJournal,
    /** What this process knows of steps whose receipts it could not write; shared by the runners of a run's retries. */
    private readonly unrecorded?: UnrecordedSteps,
  ) {}

  async run(
    stepKey: string,
    tool: AnyTool,
    _input: unknown,
    effect: () => Promise<unknown>,
  ): Promise<unknown> {
    const toolId = tool.id.toString();
    let receipt = this.journal.step(stepKey);
    if (receipt === undefined) {
      if (this.journal.unreadable().some((entry) => entry.table === "steps" && entry.key === stepKey))
        throw new AgentException(AgentFailure.EFFECT_UNKNOWN.with(toolId, stepKey));
      // Atomic: when another server of a shared journal recorded this step first, its record decides.
      const appended = await this.journal.appendStep(stepKey, toolId).catch((error: unknown) => {
        // the RUNNING receipt may have been written before the journal went away: the effect was not started
        this.unrecorded?.remember(stepKey, { started: false });
        throw error;
      });
      if (!appended.created) receipt = appended.receipt;
    }
    if (receipt !== undefined) {
      if (receipt.tool !== toolId)
        throw new AgentException(AgentFailure.EFFECT_UNKNOWN.with(toolId, stepKey));
      if (receipt.state === State.DONE) return this.#replay(tool, stepKey, receipt.result);
      const failure = receipt.failure;
      if (
        receipt.state === State.FAILED &&
        failure !== undefined &&
        failure.noEffect !== true &&
        !tool.idempotent
      )
        throw new AgentException({ code: failure.code, key: failure.key, args: [...failure.args] });
      const known = receipt.state === State.RUNNING ? this.unrecorded?.take(stepKey) : undefined;
      if (known?.started === true) {
        // this process saw the effect done and could not write DONE then: it is written now, never run again
        await this.journal.completeStep(stepKey, known.result).catch((error: unknown) => {
          this.unrecorded?.remember(stepKey, known);
          throw error;
        });
        return this.#replay(tool, stepKey, known.result);
      }
      if (receipt.state === State.RUNNING && !tool.idempotent && known === undefined)
        throw new AgentException(AgentFailure.EFFECT_UNKNOWN.with(toolId, stepKey));
      await this.journal.beginStep(stepKey, toolId);
    }
    let raw: unknown;
    try {
      raw = await effect();
    } catch (error) {
      const failure = AgentException.failure(error);
      // A timed-out or cancelled handler may still apply its effect: keep RUNNING (outcome unknown).
      if (!UNSETTLED.has(failure.code) || hadNoEffect(error))
        await this.journal.failStep(stepKey, {
          code: failure.code,
          key: failure.key,
          args: [...failure.args],
          ...(hadNoEffect(error) ? { noEffect: true } : {}),
        });
      throw error;
    }
    const output = tool.type.output.decode(raw);
    if (!output.success) {
      const failure = AgentFailure.MODULE_FAILED.with(toolId, output.error);
      await this.journal.failStep(stepKey, { code: failure.code, key: failure.key, args: [...failure.args] });
      throw new AgentException(failure);
    }
    const result = tool.type.output.encode(output.value);
    await this.journal.completeStep(stepKey, result).catch((error: unknown) => {
      this.unrecorded?.remember(stepKey, { started: true, result });
      throw error;
    });
    return output.value;
  }

  #replay(tool: AnyTool, stepKey: string, stored: unknown): unknown {
    const output = tool.type.output.decode(stored);
    if (!output.success)
      throw new AgentException(AgentFailure.EFFECT_UNKNOWN.with(tool.id.toString(), stepKey, output.error));
    return output.value;
  }
}

/** What a process knows of a write step whose receipt it could not write: never started, or done with a result. */
export type UnrecordedStep = { readonly started: false } | { readonly started: true; readonly result: Json };

/**
 * Outcomes of write steps this process knows but could not record because the journal was unreachable (a
 * network's database restarting). A retry of the run in this process finds its RUNNING receipt explained here:
 * an effect never started runs, one seen done gets its DONE receipt; after a restart nothing is known and a
 * RUNNING receipt stays EFFECT_UNKNOWN.
 */
export class UnrecordedSteps {
  readonly #known = new Map<string, UnrecordedStep>();

  remember(stepKey: string, step: UnrecordedStep): void {
    this.#known.set(stepKey, step);
  }

  /** The known outcome of a step, forgotten as it is taken (the caller records it or remembers it again). */
  take(stepKey: string): UnrecordedStep | undefined {
    const step = this.#known.get(stepKey);
    this.#known.delete(stepKey);
    return step;
  }

  get size(): number {
    return this.#known.size;
  }
}
