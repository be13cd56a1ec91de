import { withAbortAfter, withDeadline } from "../../util/deadline.js";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { BudgetDimension, Failure } from "../failure.js";
import type { ModelResponse } from "../model/model-client.js";
import { NoEffectException } from "../storage/no-effect.js";
import { observedToolCall } from "../telemetry/observed-ports.js";
import type { TelemetrySpan, TraceParent } from "../telemetry/telemetry.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry/telemetry.js";
import type { AnyTool } from "../tool/tool.js";
import { ToolContext } from "../tool/tool-context.js";
import type { AnyToolType, ToolType } from "../tool/tool-type.js";
import { BudgetCounters, modelInputBytes, tokenCount, worstCaseInputTokens } from "./budget-counters.js";
import type {
  DeclaredTools,
  ExecutionContextOptions,
  HistoryTurn,
  ModelCall,
} from "./execution-context-options.js";
import { type ExecutionPolicy, tightenPolicy } from "./execution-policy.js";

export type {
  DeclaredTools,
  ExecutionContextOptions,
  HistoryTurn,
  ModelCall,
} from "./execution-context-options.js";
export type { ModelActivity } from "./model-activity.js";

/**
 * One player request's lifetime, permissions and budget. Every tool and model call goes through here and is
 * counted against the one policy; nested loops and child contexts share the counters and never add budget.
 */
export class ExecutionContext {
  readonly counters: BudgetCounters;
  readonly deadline: number;
  readonly #controller: AbortController;
  readonly #options: ExecutionContextOptions;
  readonly #stepPrefix: string;
  readonly #depth: number;
  readonly #now: () => number;
  #loops = 0;
  #trace: TraceParent;
  #detach: (() => void) | undefined;
  #ended: Failure | undefined;

  constructor(
    options: ExecutionContextOptions,
    shared?: { counters: BudgetCounters; deadline: number; stepPrefix: string; depth?: number },
  ) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.counters = shared?.counters ?? new BudgetCounters();
    const ownDeadline = this.#now() + options.policy.ttlMillis;
    this.deadline = shared === undefined ? ownDeadline : Math.min(shared.deadline, ownDeadline);
    this.#stepPrefix = shared?.stepPrefix ?? "";
    this.#depth = shared?.depth ?? 0;
    this.#trace = options.trace ?? options.requestId;
    this.#controller = new AbortController();
    const outer = options.signal;
    if (outer !== undefined) {
      if (outer.aborted) this.#controller.abort(outer.reason);
      else {
        const forward = (): void => this.#controller.abort(outer.reason);
        outer.addEventListener("abort", forward, { once: true });
        this.#detach = () => outer.removeEventListener("abort", forward);
      }
    }
  }

  /**
   * Ends the request: stops listening to the outer signal, so a long-lived signal (an executor's shutdown
   * signal) does not collect one listener per finished request. `cancel()` still works afterwards.
   */
  close(): void {
    this.#detach?.();
    this.#detach = undefined;
  }

  get requestId(): string {
    return this.#options.requestId;
  }
  get playerId(): string {
    return this.#options.playerId;
  }
  get locale(): string {
    return this.#options.locale;
  }
  get workflow(): string {
    return this.#options.workflow;
  }
  get permissionLevel(): number {
    return this.#options.permissionLevel ?? 0;
  }
  /** The features enabled for this player now (live when the request carries a standing). */
  get features(): ReadonlySet<string> {
    return this.#options.standing?.features() ?? this.#options.features;
  }
  /** The policy snapshot taken when the request started; config changes never reach it. */
  get policy(): ExecutionPolicy {
    return this.#options.policy;
  }
  get signal(): AbortSignal {
    return this.#controller.signal;
  }
  /** The bounded projection of recent turns this request may show to the model. */
  get history(): readonly HistoryTurn[] {
    return this.#options.history ?? [];
  }
  get event(): boolean {
    return this.#options.event === true;
  }
  get telemetry(): Telemetry {
    return this.#options.telemetry ?? NO_TELEMETRY;
  }
  /** The span this context's model and tool calls hang under now. */
  get trace(): TraceParent {
    return this.#trace;
  }

  /** Runs `work` with `span` as the parent of the calls it makes (a ReAct round's model and tool calls). */
  async within<T>(span: TelemetrySpan, work: () => Promise<T>): Promise<T> {
    const outer = this.#trace;
    this.#trace = span;
    try {
      return await work();
    } finally {
      this.#trace = outer;
    }
  }
  get stepPrefix(): string {
    return this.#stepPrefix;
  }
  /** How deep this context is nested: 0 for a request's own workflow, 1 for a workflow it runs, and so on. */
  get depth(): number {
    return this.#depth;
  }

  cancel(): void {
    this.#controller.abort(new AgentException(AgentFailure.CANCELLED));
  }

  /** The feature whose workflow this request runs (undefined for infrastructure). */
  get owner(): string | undefined {
    return this.#options.owner;
  }

  /** Why the request was ended from outside (its feature switched off), once it was. */
  get ended(): Failure | undefined {
    return this.#ended;
  }

  /** Ends the request now with `failure` (its feature was switched off): every later check throws it. */
  end(failure: Failure): void {
    if (this.#controller.signal.aborted) return;
    this.#ended = failure;
    this.#controller.abort(new AgentException(failure));
  }

  remainingMillis(): number {
    return this.deadline - this.#now();
  }

  /** Throws when the request is cancelled, past its deadline, or the player lost standing. */
  checkAlive(): void {
    if (this.#controller.signal.aborted) throw new AgentException(this.#ended ?? AgentFailure.CANCELLED);
    if (!(this.remainingMillis() > 0)) throw new AgentException(AgentFailure.TIMEOUT);
    this.checkStanding();
  }

  /** Throws when the player lost standing now: revoked, memory cleared, or the workflow's feature denied. */
  checkStanding(): void {
    const lost = this.#options.standing?.lost();
    if (lost !== undefined) throw new AgentException(lost);
    if (this.#options.owner !== undefined && !this.features.has(this.#options.owner))
      throw new AgentException(AgentFailure.MODULE_DISABLED.with(this.#options.owner));
  }

  /** Refuses player input above the policy's inputBytes (UTF-8). */
  checkInput(text: string): void {
    const bytes = Buffer.byteLength(text, "utf8");
    if (!(bytes <= this.policy.inputBytes))
      throw new AgentException(AgentFailure.INPUT_TOO_LARGE.with(bytes, this.policy.inputBytes));
  }

  /** Whether a tool type may be called here: declared, installed and its feature enabled for this player. */
  canUse(type: ToolType<unknown, unknown> | string): boolean {
    const id = type.toString();
    const tool = this.#resolve(id);
    return tool !== undefined && (tool.owner === undefined || this.features.has(tool.owner.toString()));
  }

  /**
   * Calls one tool: declaration, permission, budget, cancellation and deadline checks, codec validation. `frozen`
   * is the handler a loop took at its start (ToolContext): a reload meanwhile cannot swap it.
   */
  async tool<I, O>(type: ToolType<I, O>, stepId: string, input: I, frozen?: AnyTool): Promise<O> {
    const id = type.id.toString();
    const tool = this.#resolve(id) === undefined ? undefined : (frozen ?? this.#resolve(id));
    // a write whose request ran out of time before it began changed nothing: it is still owed, never unknown
    if (tool !== undefined && !tool.readOnly && !this.signal.aborted && !(this.remainingMillis() > 0))
      throw new NoEffectException(AgentFailure.EFFECT_DEFERRED.with(AgentFailure.TIMEOUT.code));
    this.checkAlive();
    if (tool === undefined) throw new AgentException(AgentFailure.TOOL_NOT_ALLOWED.with(id));
    if (tool.type !== (type as unknown)) throw new AgentException(AgentFailure.TOOL_NOT_ALLOWED.with(id));
    if (tool.owner !== undefined && !this.features.has(tool.owner.toString()))
      throw new AgentException(AgentFailure.MODULE_DISABLED.with(tool.owner.toString()));
    if (this.event && !tool.allowedInEvents) throw new AgentException(AgentFailure.TOOL_NOT_ALLOWED.with(id));
    const decoded = type.input.decode(input);
    if (!decoded.success) throw new AgentException(AgentFailure.INPUT_INVALID.with(decoded.error));
    this.#charge("toolCalls", this.counters.toolCalls, this.policy.toolCalls);
    this.#charge("steps", this.counters.steps, this.policy.steps);
    if (!tool.readOnly) this.#charge("writeSteps", this.counters.writeSteps, this.policy.writeSteps);
    this.counters.toolCalls++;
    this.counters.steps++;
    if (!tool.readOnly) this.counters.writeSteps++;
    const fullStepId = `${this.#stepPrefix}${stepId}`;
    const scope = {
      playerId: this.playerId,
      locale: this.locale,
      stepId: fullStepId,
      event: this.event,
      requestId: this.requestId,
    };
    let span: TelemetrySpan | undefined; // an effect's steps (RCON commands) find the tool's span by its signal
    const run = (signal: AbortSignal): Promise<unknown> => {
      if (span !== undefined && signal !== this.signal) this.telemetry.link(signal, span);
      return tool.handler(decoded.value, { ...scope, signal });
    };
    // an in-process read (ownOutput) waits on nothing a timer could cut short: it runs under the request's own
    // signal and its deadline is checked when it returns, with no controller, timer or race of its own
    const execute = (): Promise<unknown> =>
      tool.ownOutput
        ? run(this.signal)
        : tool.settlesOnAbort
          ? withAbortAfter({ millis: this.remainingMillis(), signal: this.signal, work: run })
          : withDeadline({
              millis: this.remainingMillis(),
              signal: this.signal,
              work: run,
              onTimeout: () => new AgentException(AgentFailure.TIMEOUT),
              onAbort: () => new AgentException(AgentFailure.CANCELLED),
            });
    const steps = this.#options.steps;
    const raw = await observedToolCall(this.telemetry, tool, this.#trace, (toolSpan) => {
      span = toolSpan;
      return tool.readOnly || steps === undefined
        ? execute()
        : steps.run(`${this.requestId}/${fullStepId}`, tool, decoded.value, execute, toolSpan);
    });
    // a tool's own typed output (read-only, built in process) is not decoded again: see Tool.ownOutput
    if (tool.ownOutput) {
      this.checkAlive();
      return raw as O;
    }
    const output = type.output.decode(raw);
    if (!output.success) throw new AgentException(AgentFailure.MODULE_FAILED.with(id, output.error));
    // a write that returned has happened: its result goes back to the workflow even if the request ran out of
    // time meanwhile (the next step checks), so a reward given is never reported as of unknown fate
    if (tool.readOnly) this.checkAlive();
    return output.value;
  }

  /** Calls the model through the gateway, within modelCalls, input bytes, token budgets and the per-call timeout. */
  async model(call: ModelCall): Promise<ModelResponse> {
    this.checkAlive();
    const refusal = await this.#options.standing?.modelRefusal();
    if (refusal !== undefined) throw new AgentException(refusal);
    // the standing may have been read from storage: the request may have ended meanwhile
    this.checkAlive();
    const port = this.#options.model;
    if (port === undefined) throw new AgentException(AgentFailure.modelNotConfigured());
    const policy = this.policy;
    this.#charge("modelCalls", this.counters.modelCalls, policy.modelCalls);
    this.#charge("steps", this.counters.steps, policy.steps);
    const bytes = modelInputBytes(call);
    if (!(bytes <= policy.inputBytes)) throw new AgentException(AgentFailure.budgetExhausted("inputBytes"));
    const counters = this.counters;
    // Calls still running hold a reservation, so parallel calls cannot overrun the budget together.
    const outputLeft = policy.outputTokens - counters.outputTokens - counters.pendingOutputTokens;
    // The input is reserved at its worst case before the call, so honest usage never passes totalTokens.
    const inputReserve = worstCaseInputTokens(bytes);
    const totalLeft = policy.totalTokens - counters.totalTokens - counters.pendingTokens - inputReserve;
    if (!(outputLeft > 0)) throw new AgentException(AgentFailure.budgetExhausted("outputTokens"));
    if (!(totalLeft > 0)) throw new AgentException(AgentFailure.budgetExhausted("totalTokens"));
    const asked = call.maxOutputTokens;
    const requested =
      asked !== undefined && Number.isFinite(asked) ? Math.max(1, Math.floor(asked)) : outputLeft;
    const maxOutputTokens = Math.min(requested, outputLeft, totalLeft);
    counters.modelCalls++;
    counters.steps++;
    if (call.routing === true) counters.routingCalls++;
    const timeoutMillis = Math.min(policy.modelTimeoutMillis, this.remainingMillis());
    const meta = {
      requestId: this.requestId,
      trace: this.#trace,
      playerId: this.playerId,
      workflow: this.workflow,
      deadline: this.deadline,
    };
    counters.pendingTokens += inputReserve + maxOutputTokens;
    counters.pendingOutputTokens += maxOutputTokens;
    let response: ModelResponse;
    const activity = this.#options.modelActivity;
    activity?.started();
    try {
      response = await withDeadline({
        millis: timeoutMillis,
        signal: this.signal,
        work: (signal) =>
          port.call({ system: call.system, user: call.user, maxOutputTokens, timeoutMillis, signal }, meta),
        onTimeout: () => new AgentException(AgentFailure.TIMEOUT),
        onAbort: () => new AgentException(AgentFailure.CANCELLED),
      });
    } finally {
      activity?.finished();
      counters.pendingTokens -= inputReserve + maxOutputTokens;
      counters.pendingOutputTokens -= maxOutputTokens;
    }
    // A usage figure that is not a number is charged at the reservation, never as 0 or NaN.
    counters.inputTokens += tokenCount(response.usage.inputTokens, inputReserve);
    counters.outputTokens += tokenCount(response.usage.outputTokens, maxOutputTokens);
    this.checkAlive();
    return response;
  }

  /**
   * A ToolContext over a subset of this workflow's declared tools, for a custom loop; its calls use
   * `tools.call(type, input)`. Undeclared types are refused; types the player cannot use now are left out.
   */
  tools(...types: readonly AnyToolType[]): ToolContext {
    for (const type of types) {
      const id = type.id.toString();
      const declared = this.#options.tools;
      if (!declared.required.has(id) && !declared.optional.has(id))
        throw new AgentException(AgentFailure.TOOL_NOT_ALLOWED.with(id));
    }
    this.#loops++;
    return ToolContext.create(this, types, `loop${this.#loops}`, (id) => this.#resolve(id));
  }

  /**
   * A context for a nested workflow: shares counters, deadline and cancellation; prefixes its write step ids so
   * they never collide with the parent's. `policy` is the child's own budget: it may spend that much more from
   * where the request stands now, and never past the parent's limits (a child cannot spend what the parent no
   * longer has). Per-call and per-loop limits (input bytes, model timeout, rounds) are the tighter of both.
   */
  child(options: {
    readonly workflow: string;
    readonly stepPrefix: string;
    readonly policy?: Partial<ExecutionPolicy>;
    readonly tools?: DeclaredTools;
    readonly owner?: string | undefined;
  }): ExecutionContext {
    const counters = this.counters;
    const spent: Partial<Record<keyof ExecutionPolicy, number>> = {
      modelCalls: counters.modelCalls,
      toolCalls: counters.toolCalls,
      steps: counters.steps,
      writeSteps: counters.writeSteps,
      outputTokens: counters.outputTokens,
      totalTokens: counters.totalTokens,
    };
    const own: Record<string, number> = {};
    for (const [field, value] of Object.entries(options.policy ?? {}))
      if (typeof value === "number") own[field] = value + (spent[field as keyof ExecutionPolicy] ?? 0);
    const policy = tightenPolicy(this.policy, own);
    return new ExecutionContext(
      {
        ...this.#options,
        workflow: options.workflow,
        owner: options.owner ?? this.#options.owner,
        policy,
        tools: options.tools ?? this.#options.tools,
        signal: this.signal,
        trace: this.#trace,
      },
      {
        counters,
        deadline: this.deadline,
        stepPrefix: `${this.#stepPrefix}${options.stepPrefix}/`,
        depth: this.#depth + 1,
      },
    );
  }

  #resolve(id: string): AnyTool | undefined {
    const declared = this.#options.tools;
    const required = declared.required.get(id);
    if (required !== undefined) return required;
    if (!declared.optional.has(id)) return undefined;
    const optional = declared.lookup(id, this.features);
    return optional?.readOnly === true ? optional : undefined;
  }

  #charge(dimension: BudgetDimension, used: number, limit: number): void {
    // Written to fail closed: a NaN limit (an unchecked policy) refuses instead of allowing everything.
    if (!(used < limit)) throw new AgentException(AgentFailure.budgetExhausted(dimension));
  }
}
