import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { ExecutionContext } from "../execution/execution-context.js";
import { type Failure, failureIn } from "../failure.js";
import type { ReActContext } from "./react-context.js";
import { isTerminal, type Observations, type ReActOutcome } from "./react-outcome.js";

/** What the workflow decides about failures and the final output; the loop has no business logic of its own. */
export interface ReActOptions<O> {
  /** Failures that, with evidence, earn at most one finalOnly round within what is left (compared by code). */
  readonly recoverable: ReadonlySet<Failure>;
  /** Builds a fallback answer from the evidence after a failure; undefined keeps the failure. */
  readonly degrade?: (failure: Failure, observations: Observations) => Promise<O | undefined> | O | undefined;
  /** The workflow's business authorization, checked before every round, every action and the final output; a refusal ends the loop at once. */
  readonly guard?: () => Failure | undefined;
  /** Output tokens asked for per model call (the request's budget still caps it). */
  readonly maxOutputTokens?: number;
}

/** The end of one round. */
type RoundResult<O> =
  | { readonly kind: "answer"; readonly answer: O }
  | { readonly kind: "observed" }
  | { readonly kind: "duplicate" }
  | { readonly kind: "invalid"; readonly error: string };

/**
 * The bounded ReAct loop: model decision → one action → observation → next decision, until an answer. Every
 * model and tool call goes through the request's ExecutionContext (via `context.model` and the loop's
 * ToolContext), so budgets, quota, permissions and cancellation stay in one place and are never replenished.
 */
export const ReActLoop = {
  /**
   * Runs a fresh ReActContext once. Rounds come from the policy snapshot taken when the context was created;
   * 0 rounds means the workflow's loop is disabled and ends as MODULE_DISABLED (workflows may check
   * `react.rounds` first and take another path). Failures are returned, never thrown.
   */
  async run<O>(
    execution: ExecutionContext,
    react: ReActContext<O>,
    options: ReActOptions<O>,
  ): Promise<ReActOutcome<O>> {
    if (react.round !== 0) throw new Error("a ReActContext runs only once");
    if (react.rounds <= 0) return failed(react, AgentFailure.MODULE_DISABLED.with(execution.workflow));
    let finalizing = false;
    let cause: Failure | undefined;
    while (react.round < react.rounds) {
      const finalOnly = finalizing || react.round + 1 >= react.rounds || !canAffordAction(execution);
      react.nextRound();
      let result: RoundResult<O>;
      try {
        result = await execution.telemetry.span(
          "react.round",
          { "assistant.react.round": react.round, "assistant.react.final_only": finalOnly },
          execution.trace,
          async (span) => {
            const played = await execution.within(span, () =>
              playRound(execution, react, options, finalOnly),
            );
            span.setAttributes({ "assistant.react.result": played.kind });
            return played;
          },
        );
      } catch (error) {
        const failure = AgentException.failure(error);
        if (error instanceof GuardStop || isTerminal(failure)) return failed(react, failure);
        if (finalizing) return degrade(react, options, cause ?? failure);
        const recover =
          failureIn(failure, options.recoverable) && react.hasEvidence && react.round < react.rounds;
        if (!recover) return degrade(react, options, failure);
        finalizing = true;
        cause = failure;
        continue;
      }
      if (result.kind === "answer") return { kind: "answer", answer: result.answer, ...trail(react) };
      if (result.kind === "duplicate") finalizing = true;
      if (result.kind === "invalid") {
        if (finalizing) return degrade(react, options, cause ?? AgentFailure.MODEL_INVALID_OUTPUT);
        react.notice(result.error);
      }
    }
    return degrade(react, options, cause ?? AgentFailure.MODEL_INVALID_OUTPUT);
  },
};

async function playRound<O>(
  execution: ExecutionContext,
  react: ReActContext<O>,
  options: ReActOptions<O>,
  finalOnly: boolean,
): Promise<RoundResult<O>> {
  checkGuard(options);
  let text: string;
  try {
    const response = await execution.model({
      system: react.prompt,
      user: react.userJson(finalOnly),
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    });
    text = response.text;
  } catch (error) {
    // An unreadable reply (e.g. empty) is an invalid decision of this round, not a broken model.
    const failure = AgentException.failure(error);
    if (failure.code !== AgentFailure.MODEL_INVALID_OUTPUT.code) throw error;
    return { kind: "invalid", error: "the reply was empty or unreadable" };
  }
  const decision = react.decisions.decode(text, finalOnly);
  if (!decision.success) return { kind: "invalid", error: decision.error };
  if (decision.value.kind === "answer") {
    // Last check before the output: the player's standing, cancellation, deadline, the workflow's guard and the
    // features of every tool already used (data from a feature switched off since must not reach the answer).
    execution.checkAlive();
    checkGuard(options);
    react.tools.checkUsed();
    return { kind: "answer", answer: decision.value.answer };
  }
  const { tool, input } = decision.value;
  let key: string;
  try {
    key = tool.actionKey(input);
  } catch {
    return { kind: "invalid", error: `input of ${tool.id} has no dedupe key` };
  }
  if (react.taken(key)) return { kind: "duplicate" };
  react.take(key);
  checkGuard(options);
  const output = await tool.run(input, react.tools);
  react.observe(tool, input, output);
  return { kind: "observed" };
}

/** Whether the budget still allows this call, one action and a later answer; otherwise this round must answer. */
function canAffordAction(execution: ExecutionContext): boolean {
  const { policy, counters } = execution;
  return (
    policy.modelCalls - counters.modelCalls >= 2 &&
    policy.toolCalls - counters.toolCalls >= 1 &&
    policy.steps - counters.steps >= 3
  );
}

/** A guard refusal: whatever its failure, it ends the loop at once like an authorization failure. */
class GuardStop extends AgentException {}

function checkGuard<O>(options: ReActOptions<O>): void {
  const lost = options.guard?.();
  if (lost !== undefined) throw new GuardStop(lost);
}

async function degrade<O>(
  react: ReActContext<O>,
  options: ReActOptions<O>,
  failure: Failure,
): Promise<ReActOutcome<O>> {
  if (options.degrade === undefined) return failed(react, failure);
  try {
    // a degraded answer is made of the observations: never from a tool whose feature was switched off since
    react.tools.checkUsed();
  } catch (error) {
    return failed(react, AgentException.failure(error));
  }
  try {
    const answer = await options.degrade(failure, react.observations());
    return answer === undefined
      ? failed(react, failure)
      : { kind: "degraded", answer, failure, ...trail(react) };
  } catch {
    return failed(react, failure);
  }
}

function failed<O>(react: ReActContext<O>, failure: Failure): ReActOutcome<O> {
  return { kind: "failed", failure, ...trail(react) };
}

function trail<O>(react: ReActContext<O>): { observations: Observations; rounds: number } {
  return { observations: react.observations(), rounds: react.round };
}
