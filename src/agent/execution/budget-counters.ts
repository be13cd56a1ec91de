import { encodedBytes, type Json } from "../../util/codec.js";
import { INPUT_TOKEN_OVERHEAD } from "./policy-defaults.js";

/** What one player request has used so far; shared by every nested loop and child context of it. */
export class BudgetCounters {
  modelCalls = 0;
  toolCalls = 0;
  steps = 0;
  writeSteps = 0;
  inputTokens = 0;
  outputTokens = 0;
  /** Model calls made by routing (they count against modelCalls but not against rounds). */
  routingCalls = 0;
  /** Tokens held by model calls still running: worst-case input plus their output cap. */
  pendingTokens = 0;
  /** Output tokens held by model calls still running (their output cap). */
  pendingOutputTokens = 0;

  get totalTokens(): number {
    return this.inputTokens + this.outputTokens;
  }

  snapshot(): Readonly<Record<string, number>> {
    return {
      modelCalls: this.modelCalls,
      toolCalls: this.toolCalls,
      steps: this.steps,
      writeSteps: this.writeSteps,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      totalTokens: this.totalTokens,
    };
  }
}

/** The UTF-8 bytes a model request counts against `inputBytes`: the system text plus the encoded user JSON. */
export const modelInputBytes = (call: { readonly system: string; readonly user: Json }): number =>
  Buffer.byteLength(call.system, "utf8") + encodedBytes(call.user);

/**
 * The most input tokens a request of `bytes` UTF-8 bytes can cost: a byte-level BPE token covers at least one
 * byte, plus the chat template's framing. Reserved against totalTokens before a call.
 */
export const worstCaseInputTokens = (bytes: number): number => bytes + INPUT_TOKEN_OVERHEAD;

/** A reported token count, or `unknown` (the reservation) when it is not a number: never charged as 0 or NaN. */
export const tokenCount = (reported: number, unknown: number): number =>
  Number.isFinite(reported) ? Math.max(0, Math.ceil(reported)) : unknown;
