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
  constructor(private readonly journal: AgentJournal) {}

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
      const appended = await this.journal.appendStep(stepKey, toolId);
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
      if (receipt.state === State.RUNNING && !tool.idempotent)
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
    await this.journal.completeStep(stepKey, tool.type.output.encode(output.value));
    return output.value;
  }

  #replay(tool: AnyTool, stepKey: string, stored: unknown): unknown {
    const output = tool.type.output.decode(stored);
    if (!output.success)
      throw new AgentException(AgentFailure.EFFECT_UNKNOWN.with(tool.id.toString(), stepKey, output.error));
    return output.value;
  }
}
